"""Public names (games.tables.services.naming): the list, and the moderators' one action on it,
resetting a name (the player is told by email and may choose another).

Its own module as each admin page of the games app is (games.admin lists them).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.moderation.doors.admin_base import ReadOnlyAdmin
from games.moderation.doors.permissions import can_moderate, moderator
from games.people.core.public_names import PublicName
from games.tables.services import naming


@admin.register(PublicName)
class PublicNameAdmin(ReadOnlyAdmin):
    list_display = ("name", "changed_at", "ratings_listed")
    search_fields = ("name",)
    fields = ("name", "changed_at", "ratings_listed")
    actions = ["reset_names"]  # type: ignore[assignment]

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return can_moderate(request)

    @admin.action(description=_("Reset the selected public names (each player is told by "
                                "email)"), permissions=["moderate"])
    def reset_names(self, request: HttpRequest, queryset: QuerySet[PublicName]) -> None:
        moderator(request)
        # On the record in the admin's own log, with the name as it was.
        self.log_deletions(request, queryset)
        reset = [name for row_id in queryset.values_list("pk", flat=True)
                 if (name := naming.reset_name(row_id)) is not None]
        self.message_user(request, ngettext(
            "%(n)s public name reset; its player is told by email.",
            "%(n)s public names reset; each player is told by email.", len(reset))
            % {"n": len(reset)}, messages.SUCCESS)
