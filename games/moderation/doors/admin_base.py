"""The admin is a window, not a lever: no row of a game is added, edited or deleted here.

Every change goes through games.moderation.services (with a reason, on the record); these
model admins only list and show.

Its own module: every admin module builds on it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    actions = None
    show_facets = admin.ShowFacets.NEVER  # no counting every row of a big table per filter

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
