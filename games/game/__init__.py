"""A game as rows: its settings and status, its snapshot and version, its moves and seats
(the Seat row until the seat's own package holds it), the after-move outbox, the choices
a host makes.
"""
