"""Challenges (docs/playing.md "Challenge a player"): a player challenges others by their
public name from their home; the server emails each the invitation, never showing one
side's address to the other; each accepts, refuses or blocks the challenger; accepted by
all, the challenge becomes an open table with them at it (games.tables), which starts at
once when they fill it.
"""
