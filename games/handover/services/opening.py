"""A seat starts looking for a new player, or stops (its player stays, the game ends).

A seat opens when its player asks ("find someone for my seat"), when a moderator opens it,
or, in a game whose host allowed it, when it is marked absent (games.clock.services.turn_clock's
ABSENT_AFTER_MISSES deadlines missed in a row): `open_absent_seats`, run by the beat.
While it is open the game's `while_seat_open` applies: a bot plays the seat (as a
moderator's "hand to a bot" does: games.moderation.services.bot_seats), or the game waits for the
newcomer (the seat's clock stops when its deadline passes; nobody's deadline is missed).
Its player keeps their link meanwhile and may stay after all; the link dies only when
someone takes the seat over (games.handover.services.takeover).

A moderator may change an open seat's holder without the handover (games.moderation): a bot
holding it goes on looking, but a person given it, or its own player given it back, ends
the looking (the seat says so: games.seats.core.seat.Seat.hand_to, take_back), and
`on_holder_changed` closes its open seat as a takeover or a stay closes it.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.services.turn_clock import set_deadline
from games.game.core.game import Game, SeatKind, WhileOpen
from games.game.core.talk_and_notices import GameNotice
from games.handover.core.handover_errors import HandoverError
from games.handover.core.handover_rows import RUNNING, OpenSeat, SeatOffer
from games.handover.services.offers import offer_open_seat, offer_to_volunteers
from games.kit.after_commit import queue_on_commit
from games.mail.services.turn_email import queue_turn_email
from games.moves.services.moves import queue_bot_turn
from games.people.core.mailboxes import mailbox_hash, mailbox_key_hash
from games.seats.core.reliability import SeatTakeover
from games.seats.core.seat import Seat
from games.seats.core.seat_events import HolderChanged
from games.talk.services.notices import tell_table

# What a moderator's act adds inside the handover's transaction (its ModeratorAction):
# games.moderation.services.moderator_handover passes it, so the handover knows no moderators.
StaffRecord = Callable[[Game, Seat], object]


def open_seat(seat_id: int, *, reason: str = OpenSeat.Reason.LEFT, public_note: str = "",
              staff_record: StaffRecord | None = None) -> OpenSeat:
    """The seat looks for a new player from now on; offers go out after the commit."""
    game_id = Seat.objects.values_list("game_id", flat=True).filter(pk=seat_id).first()
    if game_id is None:
        raise HandoverError("no_seat", _("There is no such seat."))
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status not in RUNNING:
            raise HandoverError("game_not_running", _("Only a seat of a game under way can "
                                                      "look for a new player."))
        seat = Seat.objects.select_for_update().get(pk=seat_id)
        if seat.open_since is not None:
            raise HandoverError("already_open", _("This seat is already looking for a new "
                                                  "player."))
        if reason != OpenSeat.Reason.MODERATOR and seat.kind != SeatKind.PERSON:
            raise HandoverError("not_a_person", _("A bot plays this seat: a moderator can "
                                                  "look for a player for it."))
        opened = OpenSeat.objects.create(
            game=game, seat=seat, reason=reason, while_open=game.while_seat_open,
            kind_before=seat.kind, left_name=seat.player_name, version=game.version,
            left_mailbox=mailbox_hash(seat.email) if seat.email else "", opened_at=now)
        seat.open(game, now, bot_plays=opened.while_open == WhileOpen.BOT)
        if staff_record is not None:
            staff_record(game, seat)
        tell_table(game, GameNotice.Kind.SEAT_OPEN, seat=seat.number, name=seat.player_name,
                   waits=opened.while_open == WhileOpen.WAIT, why=reason, note=public_note)
        if opened.while_open == WhileOpen.BOT:
            queue_bot_turn(game.pk, game.version)  # its turn now: the bot moves in a few seconds
        # The first offers to standby volunteers, by the worker (games.handover.services.offers);
        # if the broker is down, the beat's sweep sends them within minutes.
        queue_on_commit(offer_open_seat, opened.pk)
    return opened


def stay(seat_id: int) -> Seat:
    """The seat's player stays after all: nobody took the seat yet, and now nobody will."""
    seat = Seat.objects.filter(pk=seat_id).first()
    if seat is None:
        raise HandoverError("no_seat", _("There is no such seat."))
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=seat.game_id)
        row = OpenSeat.objects.select_for_update().filter(seat_id=seat_id,
                                                          closed_at__isnull=True).first()
        if row is None:
            raise HandoverError("not_open", _("This seat is not looking for a new player."))
        seat = Seat.objects.select_for_update().get(pk=seat_id)
        if not close(row, OpenSeat.Outcome.STAYED):
            raise HandoverError("not_open", _("This seat is not looking for a new player."))
        seat.stay(game, row.kind_before)
        tell_table(game, GameNotice.Kind.SEAT_KEPT, seat=seat.number, name=seat.player_name)
        restart_clock_if_waiting(game, seat)
        if seat.kind == SeatKind.PERSON and game.actor == seat.number:
            queue_turn_email(game, f"stayed={row.pk}", changed=seat)
        elif seat.kind == SeatKind.BOT:
            queue_bot_turn(game.pk, game.version)
    return seat


def close(row: OpenSeat, outcome: str) -> bool:
    """Close the open seat if it is still open (conditional: of two closes at once, one
    does it); offers still waiting for an answer die with it."""
    now = timezone.now()
    if not OpenSeat.objects.filter(pk=row.pk, closed_at__isnull=True).update(
            closed_at=now, outcome=outcome):
        return False
    row.closed_at, row.outcome = now, outcome
    SeatOffer.objects.filter(open_seat=row, state=SeatOffer.State.PENDING).update(
        state=SeatOffer.State.VOID if outcome != OpenSeat.Outcome.TAKEN else
        SeatOffer.State.LOST, answered_at=now)
    return True


def on_holder_changed(changed: HolderChanged) -> None:
    """A seat changed hands and looks for nobody any more while its open seat is still open
    (a moderator gave it to a person, or back to its own player): it closes as a takeover
    closes it (the offers waiting are lost: the offer's page says someone else took the
    seat, and an offer email not sent yet never goes), or as a stay if the player is the
    one who left; a game that waited for the seat gives its player a whole turn. A takeover
    or a stay through the handover closed it before the change: nothing is left to do."""
    seat = changed.seat
    if seat.open_since is not None:
        return  # it goes on looking (a bot holds it meanwhile)
    row = (OpenSeat.objects.select_for_update()
           .filter(seat_id=seat.pk, closed_at__isnull=True).first())
    if row is None:
        return
    # The one who left is back when the seat's person is whom it had before the change
    # (the person's identity, not the caps' coarser mailbox the open seat keeps).
    stayed = bool(seat.email) and not changed.to_another_person
    if not close(row, OpenSeat.Outcome.STAYED if stayed else OpenSeat.Outcome.TAKEN):
        return
    if not stayed:
        credit_takeover(row, seat, changed.version)
    restart_clock_if_waiting(changed.game, seat)


def credit_takeover(row: OpenSeat, seat: Seat, version: int) -> None:
    """Taking the open seat over for others is to its new holder's credit (their record,
    by mailbox), at move `version`; who left is the open seat's."""
    SeatTakeover.objects.create(game_id=seat.game_id, seat=seat,
                                left_mailbox=row.left_mailbox,
                                taken_by_mailbox=mailbox_key_hash(seat.email), version=version)


def restart_clock_if_waiting(game: Game, seat: Seat) -> None:
    """The game waited for this seat (its deadline passed while it was open): its player,
    old or new, gets a whole turn from now."""
    if (game.status == Game.Status.ACTIVE and game.actor == seat.number
            and game.deadline_at is None):
        now = timezone.now()
        fields = set_deadline(game, now + timedelta(hours=game.hours_per_move), now)
        game.turn_started_at = now
        game.save(update_fields=[*fields, "turn_started_at", "updated_at"])


# ---- the beat ---------------------------------------------------------------------------


def open_absent_seats() -> int:
    """Open every seat marked absent in a running game that allows it, once per absence
    (a seat whose player stayed, or that a moderator closed, is not opened again until
    it is marked absent anew)."""
    opened = 0
    absent = Seat.objects.filter(
        absent_since__isnull=False, open_since__isnull=True, kind=SeatKind.PERSON,
        game__open_absent_seats=True, game__status__in=RUNNING)
    for seat in absent:
        if OpenSeat.objects.filter(seat=seat, opened_at__gte=seat.absent_since).exists():
            continue
        try:
            open_seat(seat.pk, reason=OpenSeat.Reason.ABSENT)
        except HandoverError:
            continue  # opened, or the game ended, meanwhile
        opened += 1
    return opened


def close_ended_games() -> int:
    """Open seats of games that ended or were cancelled close (their offers die)."""
    rows = list(OpenSeat.objects.filter(closed_at__isnull=True).exclude(
        game__status__in=RUNNING))
    for row in rows:
        with transaction.atomic():
            close(row, OpenSeat.Outcome.CLOSED)
            Seat.stop_looking(row.seat_id)
    return len(rows)


def sweep_open_seats() -> dict[str, int]:
    """The beat's sweep (every few minutes): close the open seats of ended games, open
    absent seats where games allow it, and offer every open seat to whoever fits now: a
    volunteer who confirmed or resumed since the last sweep is asked within minutes, a
    few at a time and within their daily cap."""
    closed = close_ended_games()
    opened = open_absent_seats()
    still_open = OpenSeat.objects.filter(closed_at__isnull=True).values_list("pk", flat=True)
    offered = sum(offer_to_volunteers(pk) for pk in list(still_open))
    return {"closed": closed, "opened": opened, "offered": offered}
