"""Time for slow play, in one place: the arithmetic of a seat's clock (days off, quiet
hours, stops, banks), deadlines and reminders, missed deadlines, vacations, the table's
pause, nudges, the sweeps, and the clock's pages, API and email commands.
"""
