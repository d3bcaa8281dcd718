"""A seat: its private and invitation links, the addresses that reply to its emails, who
held it before (its history), and a new link for every open seat at once.
"""
