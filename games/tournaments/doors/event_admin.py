"""Tournaments in the admin (docs/operations.md "Moderation"): the events with their
status, ruleset, rounds and players (filtered by status), and each event's page with
its players, its rounds and each round's tables, every table's game linked to the
game's admin page. Read-only like every admin page (games.moderation.doors.admin_base).

A player's address, and the host's, show only to those who may see secrets
(games.view_secrets); the others see public names. A round's deal seed and salt never
show here: the event's public page reveals them once the round has ended.

The one action, for moderators: cancel the selected events that are open for sign-up or
running (games.tournaments.services.event_end.cancel_event). A page asks for the reason
first (games.moderation.doors.reason_action; none: refused, nothing changes); their
players and host are emailed with it, games already under way go on as ordinary games,
and each cancel is on the admin's own log with its reason. An event already over is left
as it is.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.moderation.doors.admin_base import ReadOnlyAdmin, ReadOnlyInline
from games.moderation.doors.admin_records import game_link, without
from games.moderation.doors.permissions import can_moderate, can_see_secrets, moderator
from games.moderation.doors.reason_action import ask_reason
from games.people.core.public_names import PublicName
from games.tournaments.core.event_rows import Entry, EventRound, EventTable, Tournament
from games.tournaments.services.event_end import cancel_event


class EntryInline(ReadOnlyInline):
    model = Entry
    fields = ("public_name", "address", "joined_at", "no_shows", "dropped_at")
    secret_fields = ("address",)
    verbose_name_plural = gettext_lazy("players")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Entry]:
        # The public names in the same query (a thousand players: one query, not 1,000).
        names = PublicName.objects.filter(mailbox=OuterRef("mailbox_key")).values("name")[:1]
        entries: QuerySet[Entry] = super().get_queryset(request)
        return entries.annotate(shown_name=Subquery(names))

    @admin.display(description=gettext_lazy("public name"))
    def public_name(self, entry: Entry) -> str:
        return str(getattr(entry, "shown_name", None) or "—")


class EventRoundInline(ReadOnlyInline):
    model = EventRound
    fields = ("number", "started_at", "deadline_at", "deal_commitment", "tables_shown")
    verbose_name_plural = gettext_lazy("rounds and their tables")

    def get_queryset(self, request: HttpRequest) -> QuerySet[EventRound]:
        tables = (EventTable.objects.select_related("game").defer("game__snapshot")
                  .order_by("number"))
        rounds: QuerySet[EventRound] = super().get_queryset(request)
        return rounds.prefetch_related(Prefetch("tables", queryset=tables))

    @admin.display(description=gettext_lazy("tables"))
    def tables_shown(self, row: EventRound) -> SafeString | str:
        """Each table: its number, seats, its game (linked to the game's admin page) and
        whether it has ended."""
        lines = []
        for table in row.tables.all():
            game = (game_link(table.game.pk, table.game.name) if table.game is not None
                    else "—")
            state = (_("ended") if table.ended_at is not None
                     else str(table.game.get_status_display()) if table.game is not None
                     else "")
            lines.append((table.number, table.seats, game, state))
        if not lines:
            return "—"
        return format_html("<ul>{}</ul>", format_html_join(
            "", "<li>{}. {} ({}): {}</li>",
            ((number, _("%(n)s seats") % {"n": seats}, state, game)
             for number, seats, game, state in lines)))


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ("name", "status", "ruleset", "rounds", "current_round", "members",
                    "created_at")
    list_filter = ("status",)
    search_fields = ("name",)
    ordering = ("-id",)
    fields = ("name", "public_page", "status", "ruleset", "min_size", "max_size", "rounds",
              "current_round", "hours_per_move", "clock", "language", "rated", "duplicate",
              "cap", "signup_closes_at", "round_days", "advance_share", "seed", "host_email",
              "created_at", "ended_at")
    secret_fields = ("host_email",)
    inlines = (EntryInline, EventRoundInline)
    actions = ["cancel_events"]  # type: ignore[assignment]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Tournament]:
        events: QuerySet[Tournament] = super().get_queryset(request)
        return events.annotate(member_count=Count("entries"))

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(str(f) for f in self.fields or ())
        return fields if can_see_secrets(request) else without(fields, *self.secret_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return can_moderate(request)

    @admin.display(description=gettext_lazy("players"), ordering="member_count")
    def members(self, event: Tournament) -> int:
        return int(getattr(event, "member_count", 0))

    @admin.display(description=gettext_lazy("public page"))
    def public_page(self, event: Tournament) -> SafeString:
        url = reverse("games:tournament", args=[event.pk])
        return format_html('<a href="{}">{}</a>', url, url)

    @admin.action(description=gettext_lazy(
        "Cancel the selected tournaments (open or running; players and host are told by "
        "email, games under way go on)"), permissions=["moderate"])
    def cancel_events(self, request: HttpRequest,
                      queryset: QuerySet[Tournament]) -> TemplateResponse | None:
        """First a page asking for the reason (games.moderation.doors.reason_action), then
        the cancels: the reason goes into the players' and host's email and the log."""
        moderator(request)
        reason = ask_reason(
            self, request, queryset, action="cancel_events",
            title=_("Cancel tournaments"),
            question=_("Cancel these tournaments? Their players and hosts are told by email, "
                       "with your reason; games already under way go on."),
            help_text=_("The players and the host read it in their email; it is kept in "
                        "the admin's log."),
            button=_("Cancel these tournaments"),
            describe=lambda event: f"{event.pk}: {event.name}")
        if isinstance(reason, TemplateResponse):
            return reason
        cancelled = [event for event_id in queryset.values_list("pk", flat=True)
                     if (event := cancel_event(event_id, reason=reason)) is not None]
        for event in cancelled:  # on the record in the admin's own log, with the reason
            self.log_change(request, event, _(
                "Cancelled the tournament; its players and host are told by email. Reason: "
                "%(reason)s") % {"reason": reason})
        if not cancelled:
            self.message_user(request, _("Nothing changed: the selected tournaments are "
                                         "over already."), messages.WARNING)
            return None
        self.message_user(request, ngettext(
            "%(n)s tournament cancelled; its players and host are told by email.",
            "%(n)s tournaments cancelled; their players and hosts are told by email.",
            len(cancelled)) % {"n": len(cancelled)}, messages.SUCCESS)
        return None
