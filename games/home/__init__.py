"""A person's home: every game of their address, settings for all of them, a home for an
address that plays nowhere yet, the links email, their record, their data and forgetting
them.
"""
