"""Who may see and do what in the admin (the "moderators" group has both permissions).

`games.view_secrets`: the moderation page (every hand, role, goal, the deck), raw
move JSON, private dispute texts, the details of moderator actions.
`games.moderate_game`: every moderator action and resolving disputes.
Staff without them see the lists, never a secret, and are refused every action.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

VIEW_SECRETS = "games.view_secrets"
MODERATE = "games.moderate_game"


def can_see_secrets(request: HttpRequest) -> bool:
    return bool(request.user.is_active and request.user.is_staff
                and request.user.has_perm(VIEW_SECRETS))


def can_moderate(request: HttpRequest) -> bool:
    return can_see_secrets(request) and request.user.has_perm(MODERATE)


def moderator(request: HttpRequest) -> User:
    """The user acting, who must hold both permissions (else 403)."""
    if not can_moderate(request) or not isinstance(request.user, User):
        raise PermissionDenied
    return request.user


def require_secrets(request: HttpRequest) -> None:
    if not can_see_secrets(request):
        raise PermissionDenied
