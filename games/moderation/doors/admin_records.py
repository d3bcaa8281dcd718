"""Lists of seats, moves, table talk, notices, disputes, emails and moderator actions.

Every list selects its related rows in the same query (`list_select_related`).
Without `games.view_secrets` a user never sees: a move's JSON (a discarded card is
secret), a dispute's text the filer kept private, a moderator action's details (they
can hold dropped moves and emails), nor anything of a seat's link.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Move
from games.game.core.talk_and_notices import GameNotice, Message
from games.kit.seat_numbers import shown_seat_of
from games.mail.core.notifications import Notification
from games.moderation.core.moderation_rows import Dispute, ModeratorAction, TalkReport
from games.moderation.doors import held_then
from games.moderation.doors.admin_base import ReadOnlyAdmin
from games.moderation.doors.permissions import can_see_secrets
from games.moderation.services.acts import KINDS
from games.moderation.services.reported_talk import context_lines
from games.moderation.services.talk_reports import reporters
from games.seats.core.seat import Seat
from games.seatview.core import describe
from games.seatview.core.dates import moderator_time
from games.seatview.core.words import OUTCOMES, outcome_label
from games.seatview.services.holders import TableNames

PRIVATE = _("(private: only moderators may read it)")


def game_link(game_id: int, label: object) -> SafeString:
    return format_html('<a href="{}">{}</a>',
                       reverse("admin:games_game_change", args=[game_id]), label)


def without(fields: tuple[str, ...], *hidden: str) -> tuple[str, ...]:
    return tuple(f for f in fields if f not in hidden)


def talk_context_html(dispute: Dispute, names: TableNames | None = None) -> SafeString | str:
    """The reported line (in bold) among the lines around it, each named after whoever
    wrote it and timed in the moderators' zone; "" for a dispute that is no report."""
    lines = [format_html("<li><strong>{}</strong></li>" if line.reported else "<li>{}</li>",
                         format_html("{} ({}), {}: {}", line.name, line.seat, line.at,
                                     line.text))
             for line in context_lines(dispute, names)]
    if not lines:
        return ""
    return format_html('<ol class="reported-talk">{}</ol>',
                       format_html_join("", "{}", ((line,) for line in lines)))


class GameColumn:
    """The `game_name` list column every record admin shows: its game, linked to the
    game's moderation page ("—" for a record of no game, such as a digest email)."""

    @admin.display(description=_("game"), ordering="game__name")
    def game_name(self, record: Any) -> SafeString | str:
        return game_link(record.game_id, record.game.name) if record.game_id else "—"


class SecretFieldsAdmin(ReadOnlyAdmin):
    """Detail fields, minus `secret_fields` for users without games.view_secrets."""

    secret_fields: tuple[str, ...] = ()

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(str(f) for f in self.fields or ())
        return fields if can_see_secrets(request) else without(fields, *self.secret_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)


class AbsentFilter(admin.SimpleListFilter):
    title = _("absent")
    parameter_name = "is_absent"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("yes")), ("no", _("no"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Seat]) -> QuerySet[Seat]:
        if self.value() in ("yes", "no"):
            return queryset.filter(absent_since__isnull=self.value() == "no")
        return queryset


class EmailProblemSeatFilter(AbsentFilter):
    title = _("email problem")
    parameter_name = "email_problem"

    def queryset(self, request: HttpRequest, queryset: QuerySet[Seat]) -> QuerySet[Seat]:
        if self.value() in ("yes", "no"):
            return queryset.filter(email_problem_at__isnull=self.value() == "no")
        return queryset


@admin.register(Seat)
class SeatAdmin(GameColumn, SecretFieldsAdmin):
    list_display = ("player_name", "alias", "email", "number", "game_name", "game_status",
                    "missed_turns", "absent_since", "email_problem_at", "vacation_until",
                    "accepted_at")
    list_filter = (AbsentFilter, EmailProblemSeatFilter, "game__status", "email_mode",
                   "language")
    search_fields = ("player_name", "email", "game__name")
    list_select_related = ("game",)
    show_full_result_count = False
    # Never link_salt or secret_hash: with the link key the salt rebuilds the link.
    fields = ("game", "number", "player_name", "email", "language", "time_zone", "email_mode",
              "accepted_at", "missed_turns", "absent_since", "vacation_left", "vacation_until",
              "email_problem_at", "link_rotated_at", "created_at")

    @admin.display(description=_("game status"), ordering="game__status")
    def game_status(self, seat: Seat) -> str:
        return str(seat.game.get_status_display())

    @admin.display(description=_("anonymous name"))
    def alias(self, seat: Seat) -> str:
        """The seat's alias at an anonymous table (games.game.core.aliases): the
        moderators see it beside the name, which the players do not see."""
        return seat.alias or "—"


@admin.register(Move)
class MoveAdmin(GameColumn, SecretFieldsAdmin):
    list_display = ("game_name", "number", "kind", "player", "actor_kind", "seat_number",
                    "moderator", "created_at")
    list_filter = ("actor_kind",)
    search_fields = ("game__name", "=game__id")
    list_select_related = ("game", "moderator")
    show_full_result_count = False
    fields = ("game", "number", "player", "actor_kind", "seat_number", "moderator", "move",
              "created_at")
    secret_fields = ("move",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Move]:
        moves: QuerySet[Move] = super().get_queryset(request)
        return moves.annotate(**held_then.by_move())

    @admin.display(description=_("player"))
    def player(self, move: Move) -> str:
        """Who held the move's seat for this move (whoever holds it now)."""
        return held_then.name_then(move) or "—"

    @admin.display(description=_("kind of move"))
    def kind(self, move: Move) -> str:
        return str(move.move.get("type", "?"))  # public; the card of a pass is not


@admin.register(Message)
class MessageAdmin(GameColumn, ReadOnlyAdmin):
    list_display = ("game_name", "writer", "short_text", "created_at")
    search_fields = ("text", "seat__player_name", "seat__email", "game__name")
    list_select_related = ("game", "seat")
    show_full_result_count = False
    fields = ("game", "writer", "text", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Message]:
        messages: QuerySet[Message] = super().get_queryset(request)
        return messages.annotate(**held_then.by_message())

    @admin.display(description=_("written by"))
    def writer(self, message: Message) -> str:
        """Who held the seat when the line was written, and the seat."""
        seat = _("seat %(n)s") % {"n": message.seat.shown_number}
        return f"{held_then.name_then(message)} ({seat})"

    @admin.display(description=_("text"))
    def short_text(self, message: Message) -> str:
        return Truncator(message.text).chars(80)


@admin.register(GameNotice)
class GameNoticeAdmin(GameColumn, ReadOnlyAdmin):
    list_display = ("game_name", "version", "kind", "sentence", "created_at")
    list_filter = ("kind",)
    search_fields = ("game__name",)
    list_select_related = ("game",)
    show_full_result_count = False

    @admin.display(description=_("as the table reads it"))
    def sentence(self, notice: GameNotice) -> str:
        return describe.notice_sentence(notice.kind, notice.params, {})


class OutcomeFilter(admin.SimpleListFilter):
    title = _("outcome")
    parameter_name = "outcome"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(OUTCOMES.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Dispute]) -> QuerySet[Dispute]:
        return queryset.filter(outcome=self.value()) if self.value() else queryset


@admin.register(Dispute)
class DisputeAdmin(GameColumn, SecretFieldsAdmin):
    list_display = ("pk", "game_name", "filed_by", "move_number", "status", "short_text",
                    "report_count", "created_at", "outcome_shown", "resolved_by",
                    "settle_link")
    list_filter = ("status", "share_with_table", OutcomeFilter)
    list_select_related = ("game", "seat", "resolved_by")
    show_full_result_count = False
    ordering = ("status", "-created_at")
    fields = ("game", "filed_by", "move_number", "share_with_table", "text", "talk_shown",
              "report_count", "reporters_shown", "report_reasons", "status", "outcome_shown",
              "note", "resolved_by", "created_at", "mailed_at", "resolved_at")
    secret_fields = ("note", "report_reasons")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Dispute]:
        """With each dispute's number of reports: a subquery per row shown, rather than
        a GROUP BY over every dispute."""
        disputes: QuerySet[Dispute] = super().get_queryset(request)
        counted = (TalkReport.objects.filter(dispute=OuterRef("pk")).order_by()
                   .values("dispute").annotate(n=Count("pk")).values("n"))
        return disputes.annotate(reports_counted=Coalesce(
            Subquery(counted, output_field=IntegerField()), 0), **held_then.by_filing())

    def get_search_fields(self, request: HttpRequest) -> Any:
        fields = ("seat__player_name", "seat__email", "game__name")
        return (*fields, "text") if can_see_secrets(request) else fields

    def get_list_display(self, request: HttpRequest) -> Any:
        if can_see_secrets(request):
            return self.list_display
        shown = without(self.list_display, "settle_link")
        return tuple("public_short_text" if c == "short_text" else c for c in shown)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        if can_see_secrets(request) or (obj is not None and obj.share_with_table):
            return fields
        return tuple("private_text" if f == "text" else f for f in fields)

    @admin.display(description=_("filed by"), ordering="seat__number")
    def filed_by(self, dispute: Dispute) -> str:
        """The seat, and who held it when the dispute was filed."""
        return f"{dispute.seat.shown_number}: {held_then.name_then(dispute)}"

    @admin.display(description=_("what is wrong"))
    def short_text(self, dispute: Dispute) -> str:
        return Truncator(dispute.text).chars(80)

    @admin.display(description=_("what is wrong"))
    def public_short_text(self, dispute: Dispute) -> str:
        return self.short_text(dispute) if dispute.share_with_table else str(PRIVATE)

    @admin.display(description=_("what is wrong"))
    def private_text(self, dispute: Dispute) -> str:
        return str(PRIVATE)

    @admin.display(description=_("reported table talk, in its context"))
    def talk_shown(self, dispute: Dispute) -> SafeString | str:
        """A report's line among the lines around it, as they were when it was reported
        (table talk is every seat's to read: no secret)."""
        return talk_context_html(dispute) or "—"

    @admin.display(description=_("reports"), ordering="reports_counted")
    def report_count(self, dispute: Dispute) -> int | str:
        """How many seats reported the line (a dispute that is no report: "—")."""
        counted = getattr(dispute, "reports_counted", None)
        if counted is None:
            counted = dispute.reports.count()
        return counted or "—"

    @admin.display(description=_("reported by"))
    def reporters_shown(self, dispute: Dispute) -> SafeString | str:
        """Each reporting seat, named as the player who held it then, and when."""
        found = reporters(dispute)
        if not found:
            return "—"
        return format_html('<ol class="reporters">{}</ol>', format_html_join(
            "", "<li>{} ({}, {})</li>",
            ((r.name, _("seat %(n)s") % {"n": shown_seat_of(r.seat)}, moderator_time(r.at))
             for r in found)))

    @admin.display(description=_("what the reporters said"))
    def report_reasons(self, dispute: Dispute) -> SafeString | str:
        """The reasons the reporters gave (private, as a dispute's text is)."""
        said = [(_("seat %(n)s") % {"n": shown_seat_of(r.seat)}, r.reason)
                for r in reporters(dispute) if r.reason]
        if not said:
            return "—"
        return format_html('<ul class="report-reasons">{}</ul>',
                           format_html_join("", "<li>{}: {}</li>", said))

    @admin.display(description=_("outcome"), ordering="outcome")
    def outcome_shown(self, dispute: Dispute) -> str:
        return outcome_label(dispute.outcome) if dispute.outcome else ""

    @admin.display(description=_("settle"))
    def settle_link(self, dispute: Dispute) -> SafeString:
        url = reverse("admin:games_game_moderate", args=[dispute.game_id])
        return format_html('<a href="{}#disputes">{}</a>', url, _("settle"))


@admin.register(Notification)
class NotificationAdmin(GameColumn, ReadOnlyAdmin):
    list_display = ("created_at", "kind", "to_email", "game_name", "seat", "status",
                    "delivery", "attempts", "sent_at")
    list_filter = ("kind", "status", "delivery")
    search_fields = ("to_email", "key", "seat__player_name", "game__name")
    list_select_related = ("game", "seat")
    show_full_result_count = False
    ordering = ("-id",)  # newest first along the primary key (no sort of the table)


class ActionKindFilter(admin.SimpleListFilter):
    title = _("action")
    parameter_name = "kind"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(KINDS.items())

    def queryset(self, request: HttpRequest,
                 queryset: QuerySet[ModeratorAction]) -> QuerySet[ModeratorAction]:
        return queryset.filter(kind=self.value()) if self.value() else queryset


@admin.register(ModeratorAction)
class ModeratorActionAdmin(GameColumn, SecretFieldsAdmin):
    list_display = ("created_at", "kind_label", "game_name", "moderator", "short_reason")
    list_filter = (ActionKindFilter, "moderator")
    search_fields = ("game__name", "moderator__username", "reason")
    list_select_related = ("game", "moderator")
    show_full_result_count = False
    ordering = ("-id",)  # newest first along the primary key (no sort of the table)
    fields = ("created_at", "kind", "game", "moderator", "reason", "details")
    secret_fields = ("details",)

    @admin.display(description=_("action"), ordering="kind")
    def kind_label(self, action: ModeratorAction) -> str:
        return str(KINDS.get(action.kind, action.kind))

    @admin.display(description=_("reason"))
    def short_reason(self, action: ModeratorAction) -> str:
        return Truncator(action.reason).chars(80)
