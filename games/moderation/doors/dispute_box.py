"""`{% seat_disputes %}`: the disputes box of a seat page (open disputes, the form)."""

from __future__ import annotations

from typing import Any

from django import template

from games.game.core.game import Game
from games.moderation.core.moderation_rows import Dispute
from games.seats.core.history import PastHolder
from games.seats.core.seat import Seat
from games.seatview.core.words import outcome_label
from games.seatview.services.holders import holder_then, seat_changes

register = template.Library()
RESOLVED_SHOWN = 5


@register.inclusion_tag("games/_disputes.html", takes_context=True)
def seat_disputes(context: template.Context) -> dict[str, Any]:
    """Every seat sees that disputes are open (and who filed them, named as the holder of
    the filer's seat then); the text only when the filer shared it, or to the filer.
    Context: game, seat, secret[, dispute_form]."""
    from games.moderation.doors.dispute_form import DisputeForm

    game: Game = context["game"]
    seat: Seat = context["seat"]
    # A report of a table-talk line is between its filer and the moderators.
    # Their seats in a second query, only when there are disputes (most games: none).
    disputes = [d for d in game.disputes.prefetch_related("seat").order_by("-created_at")[:50]
                if not d.talk_context or d.seat_id == seat.pk]
    changes = seat_changes(game) if disputes else []
    shown = [_row(d, seat, changes) for d in disputes if d.status == Dispute.Status.OPEN]
    resolved = [_row(d, seat, changes) for d in disputes
                if d.status == Dispute.Status.RESOLVED]
    return {
        "game": game, "seat": seat, "secret": context["secret"],
        "open_disputes": list(reversed(shown)), "resolved_disputes": resolved[:RESOLVED_SHOWN],
        "dispute_form": context.get("dispute_form") or DisputeForm(auto_id="dispute_%s"),
        "can_file": game.status not in (Game.Status.SETUP, Game.Status.CANCELLED),
    }


def _row(dispute: Dispute, seat: Seat, changes: list[PastHolder]) -> dict[str, Any]:
    """A dispute as the box shows it, its filer named as whoever held the seat then."""
    mine = dispute.seat_id == seat.pk
    return {
        "number": dispute.seat.number, "mine": mine,
        "name": holder_then(dispute.seat, dispute.created_at, changes),
        "move": dispute.move_number, "filed_at": dispute.created_at,
        "text": dispute.text if (mine or dispute.share_with_table) else None,
        "outcome": outcome_label(dispute.outcome) if dispute.outcome else "",
        "note": dispute.note if mine else "",
    }
