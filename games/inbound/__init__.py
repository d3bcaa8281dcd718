"""Moves by email reply: the provider's post stored unread, read in the worker under
limits, the reply's own words parsed into commands, each carried out or refused through
the same services as the page and the API, and answered.
"""
