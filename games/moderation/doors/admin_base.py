"""The admin is a window, not a lever: no row of a game is added, edited or deleted here.

Every change goes through games.moderation.services (with a reason, on the record); these
model admins only list and show.

Its own module: every admin module builds on it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.moderation.doors.permissions import can_see_secrets


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    actions = None
    show_facets = admin.ShowFacets.NEVER  # no counting every row of a big table per filter

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]  # not subscriptable at run time
    """Rows shown inside another's page, read-only; `secret_fields` (addresses) only to
    users with games.view_secrets."""

    extra = 0
    can_delete = False
    show_change_link = False
    secret_fields: tuple[str, ...] = ()

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(str(f) for f in self.fields or ())
        return fields if can_see_secrets(request) else tuple(
            f for f in fields if f not in self.secret_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)
