"""Open tables: strangers find a table from their homes, a full table becomes a game, a
table whose wait ended starts with bots or closes.
"""
