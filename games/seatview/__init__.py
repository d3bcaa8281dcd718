"""What one seat sees, told: the words for cards, roles and log events, the maze drawn, the
seat's moves as choices and as email commands, the facts of a page or an email, taken
from the engine's per-seat view only.
"""
