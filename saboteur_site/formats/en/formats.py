"""English moments with their weekday ("Tuesday 1 December 2026, 14:00"): a deadline on a
day off or in a quiet week reads at a glance. Django's own English formats have none
("Dec. 1, 2026, 2 p.m.")."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "l j F Y, H:i"
