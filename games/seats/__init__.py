"""A seat and its lifecycle (accepted, handed over, opened, given to a bot and back: the
seat's own methods, each writing its history), its private and invitation links, the
addresses that reply to its emails, and a new link for every open seat at once.
"""
