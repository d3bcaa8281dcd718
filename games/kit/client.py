"""Who is asking: the client address the rate limits count per (games.kit.limits).

Its own module: the views and the rate limits both ask it, and it reads only settings.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind our own proxy (USE_X_FORWARDED_FOR)
    the address that proxy appended last to X-Forwarded-For."""
    if getattr(settings, "USE_X_FORWARDED_FOR", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        last = str(forwarded).split(",")[-1].strip()
        if last:
            return last
    return str(request.META.get("REMOTE_ADDR", ""))
