"""Spanish moments with their weekday ("martes 1 de diciembre de 2026 a las 14:00");
Django's own Spanish formats have none."""

DATETIME_FORMAT = r"l j \d\e F \d\e Y \a \l\a\s H:i"
