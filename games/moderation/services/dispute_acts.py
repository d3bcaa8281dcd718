"""Disputes: a player files one from their seat page, a moderator resolves it.

Filing tells the moderators by email and the table by a neutral line (the seats
see the text in the page's disputes box only when the filer allows it). Resolving
records the outcome and the note, emails the filer, and tells the table the outcome
(with the moderator's optional public note; the note to the filer stays private).
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice
from games.moderation.core.moderation_rows import Dispute
from games.moderation.services import dispute_mail
from games.moderation.services.acts import (
    ModerationError,
    clean_note,
    clean_reason,
    locked_game,
    record,
)
from games.seats.core.seat import Seat
from games.seatview.core.words import OUTCOMES
from games.talk.services.notices import tell_table

MAX_TEXT = 4000
MAX_OPEN_PER_SEAT = 3

def file_dispute(seat_id: int, *, text: str, move_number: int | None = None,
                 share_with_table: bool = False) -> Dispute:
    """A player's complaint about their game; the moderators are emailed on commit."""
    text = (text or "").strip()
    if not text:
        raise ModerationError("empty_dispute", _("Say what is wrong."))
    if len(text) > MAX_TEXT:
        raise ModerationError("dispute_too_long", _("At most %(max)s characters, please.")
                              % {"max": MAX_TEXT})
    seat = Seat.objects.get(pk=seat_id)
    with locked_game(seat.game_id) as game:
        if game.status in (Game.Status.SETUP, Game.Status.CANCELLED):
            raise ModerationError("no_disputes", _("Disputes can be filed once the game has "
                                                   "started, and not after it was cancelled."))
        if move_number is not None and not 1 <= move_number <= game.version:
            raise ModerationError("bad_move_number", _(
                "There is no move %(n)s: the game is at move %(version)s.")
                % {"n": move_number, "version": game.version})
        if seat.disputes.filter(status=Dispute.Status.OPEN).count() >= MAX_OPEN_PER_SEAT:
            raise ModerationError("too_many_disputes", _(
                "You already have %(max)s open disputes in this game; a moderator will "
                "look at them first.") % {"max": MAX_OPEN_PER_SEAT})
        dispute = Dispute.objects.create(game=game, seat=seat, move_number=move_number,
                                         text=text, share_with_table=share_with_table,
                                         mailed_at=timezone.now())
        # The line says who and about which move; a shared text is shown to the seats in
        # the page's disputes box, never in the log (which spectators see too).
        tell_table(game, GameNotice.Kind.DISPUTE, event="filed", dispute=dispute.pk,
                   seat=seat.number, move=move_number)
        dispute_mail.dispute_filed(dispute)
    return dispute


def resolve_dispute(dispute_id: int, *, moderator: User, outcome: str, note: str,
                    public_note: str = "") -> Dispute:
    """Close a dispute: the filer is emailed the outcome and note, the table the outcome."""
    note, public_note = clean_reason(note), clean_note(public_note)
    if outcome not in OUTCOMES:
        raise ModerationError("bad_outcome", _("Choose an outcome."))
    try:
        game_id = Dispute.objects.values_list("game_id", flat=True).get(pk=dispute_id)
    except Dispute.DoesNotExist:
        raise ModerationError("no_dispute", _("There is no such dispute.")) from None
    with locked_game(game_id) as game:
        dispute = Dispute.objects.select_for_update().select_related("seat").get(pk=dispute_id)
        if dispute.status != Dispute.Status.OPEN:
            raise ModerationError("dispute_closed", _("This dispute was already resolved."))
        dispute.status = Dispute.Status.RESOLVED
        dispute.outcome, dispute.note = outcome, note
        dispute.resolved_by, dispute.resolved_at = moderator, timezone.now()
        dispute.save()
        record(game, moderator, "resolve_dispute", note, dispute=dispute.pk, outcome=outcome,
               seat=dispute.seat.number, public_note=public_note)
        if not dispute.talk_context:  # a talk report was never the table's to see
            # Named as its filing was: the seat may have changed hands since.
            filed = (GameNotice.objects.filter(game=game, kind=GameNotice.Kind.DISPUTE,
                                               params__dispute=dispute.pk,
                                               params__event="filed")
                     .values_list("pk", flat=True).first())
            tell_table(game, GameNotice.Kind.DISPUTE, event="resolved", dispute=dispute.pk,
                       seat=dispute.seat.number, outcome=outcome, note=public_note,
                       names_at=filed)
        dispute_mail.dispute_resolved(dispute)
    return dispute
