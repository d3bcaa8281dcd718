"""`manage.py check --deploy` (and every start with DEBUG off): the settings that make
the rate limits count per client across the whole site (and the admin lockout, which
counts in the database, sees each client by its own address).

Without a shared cache each gunicorn process counts on its own (a client gets the limit
once per process); behind a proxy without USE_X_FORWARDED_FOR every client is the
proxy's address, so one abuser would use up everyone's limits."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Tags, Warning, register

PER_PROCESS_CACHES = ("django.core.cache.backends.locmem.LocMemCache",
                      "django.core.cache.backends.dummy.DummyCache")


@register(Tags.security, deploy=True)
def limits_are_shared(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    found: list[Warning] = []
    if settings.CACHES["default"]["BACKEND"] in PER_PROCESS_CACHES:
        found.append(Warning(
            "Rate limits count in each process's memory.",
            hint="Set CACHE_URL to a Redis shared by every web process "
                 "(deploy/saboteur.env.example).", id="games.W001"))
    if settings.SECURE_PROXY_SSL_HEADER and not settings.USE_X_FORWARDED_FOR:
        found.append(Warning(
            "Behind a proxy, every client has the proxy's address.",
            hint="Set USE_X_FORWARDED_FOR=1 when nginx (deploy/nginx-saboteur.conf) "
                 "sets X-Forwarded-For.", id="games.W002"))
    return found
