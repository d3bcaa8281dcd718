"""Table talk and the table's notices: posting, muting another player's talk for oneself,
and the seat page's talk controls.
"""
