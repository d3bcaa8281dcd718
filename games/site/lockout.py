"""Admin login lockout, done by django-axes (settings: AXES_*): after too many failed
logins for a user name, or from a client address, even the right password is refused
(429, Retry-After) until the window has passed since the last counted failure. A
moderator account reads every secret, so guessing its password must not be a matter of
patience.

Axes records the failures (table axes_accessattempt), refuses a locked-out login in its
authentication backend and answers through its middleware. This module gives it what is
the project's own:
- `login_name`: the user name as authentication looks it up (the login form's NFKC and
  strip, then the user model's normalize_username), so `ｍod` counts as `mod`;
- the client address of the rate limits (games.kit.client.client_address);
- `LimitsPerName`: a limit per user name and another per client address
  (games.kit.limits "login_user", "login_client"; axes compares one number only);
- `locked_out`: the site's 429 page with Retry-After.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from django.contrib.auth import get_user_model
from django.db.models import Max, Sum
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from games.kit import limits
from games.kit.responses import too_many

# In the order of settings.AXES_LOCKOUT_PARAMETERS.
LIMIT_NAMES = ("login_user", "login_client")


def login_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The user name a login attempt is counted under: the one authentication looks up."""
    field = get_user_model().USERNAME_FIELD
    source: Any = credentials if credentials else request.POST
    raw = source.get(field) or ""
    # django.contrib.auth.forms.UsernameField: strip, then NFKC; then the user model's own.
    name = unicodedata.normalize("NFKC", str(raw).strip())
    return str(get_user_model().normalize_username(name))


def cool_off(request: HttpRequest | None = None) -> timedelta:
    """How long axes keeps a failure: the longer of the two windows."""
    return max(window(name) for name in LIMIT_NAMES)


def window(name: str) -> timedelta:
    return timedelta(seconds=limits.limit(name).seconds)


@dataclass(frozen=True)
class Lock:
    until: datetime  # when the last failure that counts leaves its window


class LimitsPerName(AxesDatabaseHandler):  # type: ignore[misc]  # axes has no type hints
    """Axes' database handler with a limit and a window of their own per lockout
    parameter: it reports 1 failure (settings.AXES_FAILURE_LIMIT) once the user name's or
    the client address's failures within its window reach its limit, else 0."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None
                     ) -> int:
        return int(bool(self.locks(request, credentials)))

    def locks(self, request: HttpRequest, credentials: dict[str, Any] | None = None
              ) -> list[Lock]:
        """One Lock per parameter whose failures within its window reached its limit."""
        now = request.axes_attempt_time or timezone.now()  # type: ignore[attr-defined]
        found = []
        for attempts, name in zip(self.filter_user_attempts(request, credentials),
                                  LIMIT_NAMES, strict=True):
            recent = attempts.filter(attempt_time__gte=now - window(name)).aggregate(
                failures=Sum("failures_since_start"), last=Max("attempt_time"))
            if (recent["failures"] or 0) >= limits.limit(name).count:
                found.append(Lock(until=recent["last"] + window(name)))
        return found


def locked_out(request: HttpRequest, response: HttpResponse | None = None,
               credentials: dict[str, Any] | None = None) -> HttpResponse:
    """Axes' answer to a locked-out login: the site's 429 page, with the seconds until
    every lock on this attempt has ended."""
    until = max((lock.until for lock in LimitsPerName().locks(request, credentials)),
                default=timezone.now())
    left = math.ceil((until - timezone.now()).total_seconds())
    return too_many(request, limits.Limited("login", max(1, left)))
