"""Moderators put any game right: disputes and reports of table talk, undo, a new player or
link for a seat, a move for a seat, the clock; every act on the record; the admin's
pages for it.
"""
