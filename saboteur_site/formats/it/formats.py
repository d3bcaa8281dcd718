"""Italian dates as Italian writes them: the day without a leading zero ("martedì 1
dicembre 2026", not "01 dicembre"; games.seatview.core.dates.local_time makes the first of a
month "1º"). Django's own Italian formats pad the day ("l d F Y")."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "l j F Y H:i"
