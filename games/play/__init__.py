"""The seat page and the seat's JSON API: a seat's link opens them; they show what the seat
may see and take the moves the rules allow, through the one move service.
"""
