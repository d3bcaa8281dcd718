"""A person: the mailbox an address reaches (one identity, one counted mailbox), which
addresses the server takes, what a person decided about their data, their public name,
their home link and their reliability.
"""
