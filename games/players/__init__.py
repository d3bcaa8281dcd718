"""Players you meet: a player's public page under their public name (/players/<name>/ and
its JSON twin), with what they chose to show (their ratings and how each moved, their
record), and their finished games anyone may watch; never an address.
"""
