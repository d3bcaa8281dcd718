"""A newcomer takes an open seat over: the one write that gives a seat to a new person.

What changes hands and what stays (docs/RULES.md "When a player leaves"):
- the seat's hand, role, gold and scores stay with the seat: the newcomer plays on from
  where the seat is, and the seat's result at the end is theirs;
- the link changes: the seat gets a new own link, emailed to the newcomer only (never
  shown to whoever pressed "accept"); the old link, every reply address of the old
  player's emails and any invitation link die in the same transaction;
- the record of reliability is per person: the missed deadlines stay with who left
  (games.seats.core.reliability.MissedDeadline, by mailbox), the seat's run of misses and
  its absent mark start again, and a SeatTakeover row is written for the newcomer;
- the table is told "X took over seat N from Y" where it happened in the game.

Of several accepts at once one takes the seat: the game row is locked and the open seat
closed by a conditional UPDATE; the others get SeatGone and change nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice
from games.handover.core.handover_errors import HandoverError, SeatGone
from games.handover.core.handover_rows import RUNNING, OpenSeat, SeatOffer, find_offer
from games.handover.services.opening import (
    StaffRecord,
    close,
    credit_takeover,
    restart_clock_if_waiting,
)
from games.kit.text import is_clean_line
from games.kit.time_zones import valid_time_zone
from games.mail.services import plan
from games.mail.services.turn_email import queue_turn_email
from games.people.core.deliverable import refusal_to_store
from games.people.core.mailboxes import mailbox
from games.seats.core import reply_tokens
from games.seats.core.seat import Seat
from games.talk.services.notices import tell_table

NAME_LENGTH = 60


@dataclass(frozen=True)
class Newcomer:
    name: str
    email: str
    language: str
    time_zone: str = "UTC"


def check_newcomer(newcomer: Newcomer) -> Newcomer:
    """The newcomer's name, address, language and time zone, or HandoverError."""
    name, email = newcomer.name.strip(), newcomer.email.strip()
    if not name or len(name) > NAME_LENGTH or not is_clean_line(name):
        raise HandoverError("bad_name", _("Give the name the table will see (at most 60 "
                                          "characters, on one line)."))
    why = refusal_to_store(email)
    if why:
        raise HandoverError("bad_email", why)
    if newcomer.language not in {code for code, _label in settings.LANGUAGES}:
        raise HandoverError("bad_language", _("Unknown language %(code)s.")
                            % {"code": newcomer.language})
    zone = newcomer.time_zone if valid_time_zone(newcomer.time_zone) else "UTC"
    return Newcomer(name=name, email=email, language=newcomer.language, time_zone=zone)


def take_over(open_seat_id: int, newcomer: Newcomer, *, offer_id: int | None = None,
              staff_record: StaffRecord | None = None) -> Seat:
    """Give the open seat to `newcomer`; their own link goes to their address only.
    Raises SeatGone when the seat was taken (or its player stayed) first, HandoverError
    when the newcomer cannot take it."""
    newcomer = check_newcomer(newcomer)
    game_id = OpenSeat.objects.values_list("game_id", flat=True).filter(
        pk=open_seat_id).first()
    if game_id is None:
        raise SeatGone("seat_gone", _("There is no such open seat."))
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        row = OpenSeat.objects.select_for_update().filter(pk=open_seat_id).first()
        if row is None or row.closed_at is not None or game.status not in RUNNING:
            raise SeatGone("seat_gone", _("Someone else took this seat a moment ago, or it "
                                          "no longer needs a player."))
        seat = Seat.objects.select_for_update().get(pk=row.seat_id)
        at_table = {mailbox(s.email) for s in game.seats.exclude(pk=seat.pk) if s.email}
        if mailbox(newcomer.email) in at_table:
            raise HandoverError("already_at_table", _("This address already has a seat in "
                                                      "this game."))
        if offer_id is not None and not SeatOffer.objects.filter(
                pk=offer_id, open_seat=row, state=SeatOffer.State.PENDING).update(
                state=SeatOffer.State.TAKEN, answered_at=now):
            raise SeatGone("seat_gone", _("This offer was answered already."))
        if not close(row, OpenSeat.Outcome.TAKEN):
            raise SeatGone("seat_gone", _("Someone else took this seat a moment ago, or it "
                                          "no longer needs a player."))
        # The lines before this point stay theirs (the seat writes its history).
        seat.take_over(game, name=newcomer.name, email=newcomer.email,
                       time_zone=newcomer.time_zone, language=newcomer.language)
        reply_tokens.revoke_seat(seat.pk)  # the old player's emails move nothing any more
        credit_takeover(row, seat, game.version)
        if staff_record is not None:
            staff_record(game, seat)
        tell_table(game, GameNotice.Kind.TAKEOVER, seat=seat.number, old=row.left_name,
                   new=newcomer.name)
        restart_clock_if_waiting(game, seat)
        tag = f"seat={seat.pk}:{seat.link_salt[:12]}"
        plan.queue(plan.own_links(newcomer.email, [seat], "taken_over", tag))
        queue_turn_email(game, f"takeover={row.pk}", changed=seat)  # if it is its turn
    return seat


def accept_offer(token: str, *, name: str, language: str) -> Seat:
    """The offer's address takes the seat (the offer page's button). Raises SeatGone (told
    politely: someone else was first) or HandoverError."""
    offer = find_offer(token)
    if offer is None:
        raise SeatGone("no_offer", _("This offer does not exist (any more)."))
    if offer.state != SeatOffer.State.PENDING:
        raise SeatGone("seat_gone", _("Someone else took this seat a moment ago, or it "
                                      "no longer needs a player."))
    zone = offer.volunteer.time_zone if offer.volunteer is not None else "UTC"
    with transaction.atomic():
        return take_over(offer.open_seat_id, Newcomer(name=name, email=offer.to_email,
                                                      language=language, time_zone=zone),
                         offer_id=offer.pk)


