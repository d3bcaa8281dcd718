"""German moments with their weekday ("Dienstag, 1. Dezember 2026, 14:00"); Django's own
German formats have none ("1. Dezember 2026 14:00")."""

DATETIME_FORMAT = "l, j. F Y, H:i"
