"""Admin login lockout: after too many failed logins for a user name (or from a client
address) within the window, even the right password is refused until the window ends
(games.play.limits "login_user", "login_client"). A moderator account reads every secret,
so guessing its password must not be a matter of patience."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from games.play import limits
from games.web.views.common import too_many


def _keys(request: HttpRequest, username: str) -> list[tuple[str, str]]:
    return [("login_user", username.strip().lower()),
            ("login_client", limits.client_address(request))]


class AdminLoginLockout:
    """Refuses a login POST (429, Retry-After) while its user name or client is locked."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path == reverse("admin:login"):
            username = str(request.POST.get("username", ""))
            try:
                for name, key in _keys(request, username):
                    limits.check(name, key)
            except limits.Limited as locked:
                return too_many(request, locked)
        return self.get_response(request)


@receiver(user_login_failed)
def count_failed_login(sender: Any, credentials: dict[str, Any],
                       request: HttpRequest | None = None, **kwargs: Any) -> None:
    if request is None:
        return
    for name, key in _keys(request, str(credentials.get("username", ""))):
        # Counted either way; the next attempt is refused by AdminLoginLockout.
        with contextlib.suppress(limits.Limited):
            limits.hit(name, key)
