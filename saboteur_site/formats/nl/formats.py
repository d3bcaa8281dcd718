"""Dutch moments with their weekday ("dinsdag 1 december 2026 14:00"); Django's own Dutch
formats have none."""

DATETIME_FORMAT = "l j F Y H:i"
