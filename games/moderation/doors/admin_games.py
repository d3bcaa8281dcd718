"""The games list: who the game waits on and since when, deadlines, absent seats, disputes.

Built to stay fast with 100,000 games: the seat-to-act's name and the counts are
subquery annotations (no query per row), the snapshot is never loaded for the list,
filters are EXISTS subqueries, and the total count is not shown for filtered lists.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.urls import URLPattern, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games import engine
from games.game.core.game import Game
from games.moderation.core.moderation_rows import Dispute
from games.moderation.doors import moderate
from games.moderation.doors.admin_base import ReadOnlyAdmin
from games.moderation.doors.permissions import can_see_secrets
from games.people.core.mailbox_keys import of_mailbox
from games.seats.core.seat import Seat


def _count(queryset: QuerySet[Any]) -> Coalesce:
    counted = queryset.order_by().values("game").annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def open_disputes_of_game() -> QuerySet[Dispute]:
    return Dispute.objects.filter(game=OuterRef("pk"), status=Dispute.Status.OPEN)


def absent_seats_of_game() -> QuerySet[Seat]:
    return Seat.objects.filter(game=OuterRef("pk"), absent_since__isnull=False)


class YesNoFilter(admin.SimpleListFilter):
    """Games with (or without) a related row; the related rows are few and indexed, so
    the filter is `id IN (their game ids)`, not a subquery per game."""

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("yes")), ("no", _("no"))]

    def related(self) -> QuerySet[Any]:
        raise NotImplementedError

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        ids = self.related().values("game_id")
        if self.value() == "yes":
            return queryset.filter(pk__in=ids)
        if self.value() == "no":
            return queryset.exclude(pk__in=ids)
        return queryset


class DeadlinePassedFilter(admin.SimpleListFilter):
    title = _("deadline passed")
    parameter_name = "overdue"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("yes")), ("no", _("no"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        overdue = {"status": Game.Status.ACTIVE, "deadline_at__lt": timezone.now()}
        if self.value() == "yes":
            return queryset.filter(**overdue)
        if self.value() == "no":
            return queryset.exclude(**overdue)
        return queryset


class AbsentSeatFilter(YesNoFilter):
    title = _("has an absent seat")
    parameter_name = "absent"

    def related(self) -> QuerySet[Any]:
        return Seat.objects.filter(absent_since__isnull=False)


class OpenDisputeFilter(YesNoFilter):
    title = _("has an open dispute")
    parameter_name = "disputed"

    def related(self) -> QuerySet[Any]:
        return Dispute.objects.filter(status=Dispute.Status.OPEN)


class EmailProblemFilter(YesNoFilter):
    title = _("has an email problem")
    parameter_name = "bounced"

    def related(self) -> QuerySet[Any]:
        return Seat.objects.filter(email_problem_at__isnull=False)


class WaitingFilter(admin.SimpleListFilter):
    title = _("waiting on the same seat for")
    parameter_name = "waiting"
    DAYS = {"1": 1, "3": 3, "7": 7}

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("1", _("more than a day")), ("3", _("more than 3 days")),
                ("7", _("more than a week"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        days = self.DAYS.get(self.value() or "")
        if days is None:
            return queryset
        since = timezone.now() - timedelta(days=days)
        return queryset.filter(status=Game.Status.ACTIVE, turn_started_at__lt=since)


class RulesetFilter(admin.SimpleListFilter):
    """The engine's rulesets (no DISTINCT over every game to find them)."""

    title = _("ruleset")
    parameter_name = "ruleset"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [(name, name) for name in sorted(engine.RULESETS)]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        return queryset.filter(ruleset=self.value()) if self.value() else queryset


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]  # not subscriptable at run time
    model = Seat
    fields = ("number", "player_name", "email", "language", "time_zone", "email_mode",
              "accepted_at", "missed_turns", "absent_since", "vacation_until",
              "email_problem_at", "link_rotated_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    class Media:
        css = {"all": ("games/admin.css",)}  # the list fits 1280 px (narrow columns)

    list_display = ("name", "moderate_link", "status", "version", "waiting_on", "waiting_since",
                    "deadline_at", "overdue", "absent_seats", "open_disputes")
    list_filter = ("status", DeadlinePassedFilter, WaitingFilter, AbsentSeatFilter,
                   OpenDisputeFilter, EmailProblemFilter, RulesetFilter, "timeout_policy")
    search_fields = ("name",)  # and players' names and emails: get_search_results
    list_per_page = 50
    show_full_result_count = False
    show_facets = admin.ShowFacets.NEVER  # counts per filter would scan every game
    ordering = ("-id",)  # newest first, along the primary key's index
    # Never the snapshot (the moderation page shows the truth, on the record).
    fields = ("name", "status", "ruleset", "options", "seed", "version", "actor",
              "hours_per_move", "timeout_policy", "bot_level", "reminder_hours",
              "turn_started_at", "deadline_at", "deadline_extension", "paused_time_left",
              "spectators_allowed", "created_at", "updated_at")
    readonly_fields = fields
    inlines = (SeatInline,)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        actor = Seat.objects.filter(game=OuterRef("pk"), number=OuterRef("actor"))
        games: QuerySet[Game] = super().get_queryset(request)
        return (games.defer("snapshot")
                .annotate(actor_name=Subquery(actor.values("player_name")[:1]),
                          open_dispute_count=_count(open_disputes_of_game()),
                          absent_seat_count=_count(absent_seats_of_game())))

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Game],
                           search_term: str) -> tuple[QuerySet[Game], bool]:
        """By game name, or by a player's name or email: `id IN (games of matching seats)`
        rather than a join, so no DISTINCT over the whole list."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if "@" in term and "." in term.split("@")[-1]:  # an address: exactly that one
            seats = Seat.objects.filter(of_mailbox(term))
        else:
            seats = Seat.objects.filter(Q(player_name__icontains=term)
                                        | Q(email__icontains=term))
        found = queryset.filter(Q(name__icontains=term) | Q(pk__in=seats.values("game_id")))
        return found, False

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if can_see_secrets(request):
            return self.fields
        return tuple(f for f in self.fields if f != "seed")  # the seed rebuilds the deal

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)

    def get_urls(self) -> list[URLPattern]:
        return moderate.urls(self.admin_site) + super().get_urls()

    @admin.display(description=_("waiting on"), ordering="actor")
    def waiting_on(self, game: Game) -> str:
        if game.status not in (Game.Status.ACTIVE, Game.Status.PAUSED) or game.actor is None:
            return "—"
        return f"{game.actor}: {getattr(game, 'actor_name', '') or '?'}"

    @admin.display(description=_("waiting since"), ordering="turn_started_at")
    def waiting_since(self, game: Game) -> Any:
        return game.turn_started_at if game.status == Game.Status.ACTIVE else None

    @admin.display(description=_("overdue"), boolean=True)
    def overdue(self, game: Game) -> bool:
        return bool(game.status == Game.Status.ACTIVE and game.deadline_at is not None
                    and game.deadline_at < timezone.now())

    @admin.display(description=_("absent seats"), ordering="absent_seat_count")
    def absent_seats(self, game: Game) -> int:
        return int(getattr(game, "absent_seat_count", 0))

    @admin.display(description=_("open disputes"), ordering="open_dispute_count")
    def open_disputes(self, game: Game) -> int:
        return int(getattr(game, "open_dispute_count", 0))

    @admin.display(description=_("moderate"))
    def moderate_link(self, game: Game) -> SafeString:
        url = reverse("admin:games_game_moderate", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, _("moderate"))

    def get_list_display(self, request: HttpRequest) -> Any:
        if can_see_secrets(request):
            return self.list_display
        return tuple(c for c in self.list_display if c != "moderate_link")

    def change_view(self, request: HttpRequest, object_id: str, form_url: str = "",
                    extra_context: Any = None) -> Any:
        extra = dict(extra_context or {}, can_see_secrets=can_see_secrets(request),
                     moderate_url=reverse("admin:games_game_moderate", args=[object_id]))
        return super().change_view(request, object_id, form_url, extra)
