"""Settings for bench/flood.py's gunicorn: production's (from the same environment) with the
API's limit lowered to 60 requests a minute per link, so the bench's flood (200 requests a
second) is past it from its first second, as a real flood past 600 a minute would be."""

from saboteur_site.settings import *  # noqa: F403

RATE_LIMITS = {"api_seat": [60, 60]}
