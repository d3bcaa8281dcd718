"""Challenges and blocks in the admin, and a moderator withdrawing waiting challenges.

The challenges (status, ruleset, when made and when they expire, how many players each
named; its players on its page) and the blocks are read-only; the moderators' one
action, withdrawing waiting challenges (abuse), asks for the moderator's reason first
(games.moderation.doors.reason_action; kept in the admin's log, never shown to the
players) and goes through the very service a challenger withdraws by
(games.challenges.services.challenging.withdraw_challenge): the players who had its
email are told, as then.

Addresses (the challenger's, each challenged player's) are shown, and searched by, only
for users with games.view_secrets: a challenge ties a public name to an address, which
the players never see of each other and the public names' page never shows. Without it,
staff see public names only. The mailbox keys' hashes are never shown.

Its own module as each admin page of the games app is (games.admin lists them).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.challenges.core.challenge_rows import Challenge, ChallengeBlock, Challenged
from games.challenges.core.challenge_terms import ChallengeError
from games.challenges.services.challenging import withdraw_challenge
from games.moderation.doors.admin_base import ReadOnlyAdmin, ReadOnlyInline
from games.moderation.doors.permissions import can_moderate, can_see_secrets, moderator
from games.moderation.doors.reason_action import ask_reason
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.public_names import PublicName

ADDRESS_FIELDS = ("challenger", "address")


def _shown(fields: tuple[str, ...], request: HttpRequest) -> tuple[str, ...]:
    """`fields`, less the addresses for a user without games.view_secrets."""
    return fields if can_see_secrets(request) else tuple(
        f for f in fields if f not in ADDRESS_FIELDS)


class ChallengedInline(ReadOnlyInline):
    model = Challenged
    fields = ("name", "address", "answer", "answered_at")
    secret_fields = ("address",)


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = ("pk", "challenger_name", "challenger", "status", "ruleset", "seats",
                    "players_named", "created_at", "expires_at", "ended_at")
    list_filter = ("status", "ruleset")
    search_fields = ("challenger_name",)  # and more: get_search_results
    show_full_result_count = False
    ordering = ("-id",)  # newest first along the primary key (no sort of the table)
    fields = ("challenger_name", "challenger", "status", "ruleset", "seats",
              "hours_per_move", "clock_preset", "language", "rated", "bots_fill",
              "created_at", "expires_at", "ended_at", "table")
    inlines = (ChallengedInline,)
    actions = ["withdraw"]  # type: ignore[assignment]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Challenge]:
        """With each challenge's number of players named: a subquery per row shown."""
        challenges: QuerySet[Challenge] = super().get_queryset(request)
        named = (Challenged.objects.filter(challenge=OuterRef("pk")).order_by()
                 .values("challenge").annotate(n=Count("pk")).values("n"))
        return challenges.annotate(named_count=Subquery(named))

    def get_list_display(self, request: HttpRequest) -> Any:
        return _shown(tuple(self.list_display), request)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return _shown(tuple(self.fields or ()), request)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return self.get_fields(request, obj)

    def get_search_results(self, request: HttpRequest, queryset: QuerySet[Challenge],
                           search_term: str) -> tuple[QuerySet[Challenge], bool]:
        """By the challenger's or a challenged player's public name; with
        games.view_secrets by an address too (that person's, in any spelling)."""
        term = search_term.strip()
        if not term:
            return queryset, False
        if "@" in term and can_see_secrets(request):
            named = Challenged.objects.filter(of_mailbox(term)).values("challenge_id")
            return queryset.filter(of_mailbox(term, "challenger_key") | Q(pk__in=named)), False
        named = Challenged.objects.filter(name__icontains=term).values("challenge_id")
        return queryset.filter(Q(challenger_name__icontains=term) | Q(pk__in=named)), False

    @admin.display(description=_("players challenged"), ordering="named_count")
    def players_named(self, challenge: Challenge) -> int:
        return int(getattr(challenge, "named_count", 0) or 0)

    def has_moderate_permission(self, request: HttpRequest) -> bool:
        return can_moderate(request)

    @admin.action(description=_("Withdraw the selected waiting challenges (the players "
                                "who had their email are told)"), permissions=["moderate"])
    def withdraw(self, request: HttpRequest,
                 queryset: QuerySet[Challenge]) -> TemplateResponse | None:
        """First a page asking for the reason (games.moderation.doors.reason_action), kept
        in the admin's log; the players' email gives none, as a challenger's withdrawal."""
        moderator(request)
        reason = ask_reason(
            self, request, queryset, action="withdraw", title=gettext("Withdraw challenges"),
            question=gettext("Withdraw these challenges? The players who had their email "
                             "are told it was withdrawn, without your reason."),
            help_text=gettext("Kept in the admin's log for the other moderators; the "
                              "players never see it."),
            button=gettext("Withdraw these challenges"),
            describe=lambda row: f"{row.pk}: {row.challenger_name}")
        if isinstance(reason, TemplateResponse):
            return reason
        withdrawn = 0
        chosen = list(queryset.values_list("pk", flat=True))
        for challenge_id in chosen:
            try:
                row = withdraw_challenge(challenge_id, challenger=None)
            except ChallengeError:
                continue  # no longer waiting: answered, withdrawn or past its days
            # On the record in the admin's own log, with the reason.
            self.log_change(request, row, gettext("Withdrawn by a moderator. Reason: "
                                                  "%(reason)s") % {"reason": reason})
            withdrawn += 1
        self.message_user(request, ngettext(
            "%(n)s challenge withdrawn; the players who had its email are told.",
            "%(n)s challenges withdrawn; the players who had their email are told.",
            withdrawn) % {"n": withdrawn}, messages.SUCCESS)
        if withdrawn < len(chosen):
            left = len(chosen) - withdrawn
            self.message_user(request, ngettext(
                "%(n)s challenge was no longer waiting and is left as it was.",
                "%(n)s challenges were no longer waiting and are left as they were.",
                left) % {"n": left}, messages.WARNING)
        return None


@admin.register(ChallengeBlock)
class ChallengeBlockAdmin(ReadOnlyAdmin):
    list_display = ("pk", "blocker", "blocked_name", "created_at")
    search_fields = ("blocked_name",)
    show_full_result_count = False
    ordering = ("-id",)
    fields = ("blocker", "blocked_name", "created_at")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChallengeBlock]:
        """With the blocker's public name now, in the same query."""
        blocks: QuerySet[ChallengeBlock] = super().get_queryset(request)
        name = PublicName.objects.filter(mailbox=OuterRef("by_key")).values("name")[:1]
        return blocks.annotate(blocker_name=Subquery(name))

    @admin.display(description=_("blocked by (public name now)"))
    def blocker(self, block: ChallengeBlock) -> str:
        return str(getattr(block, "blocker_name", None) or "—")
