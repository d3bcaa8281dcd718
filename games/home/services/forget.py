"""'Forget me' (the right of erasure), from the home page or by post (`manage.py
playerdata ADDRESS --forget`).

1. From the request on, no email goes to the address: a ForgottenAddress row (a keyed
   hash only) that every email checks (games.mail.services.notification_rows.create and
   games.mail.services.send), and a web setup refuses to invite it.
2. Its seats in games under way are handed over first: the seat opens as when a player
   leaves (games.handover.services.opening) and a bot holds it until a newcomer takes it over.
   A game whose host chose that it waits for a newcomer instead, and a game still being
   set up, cannot hand the seat over: the request waits for that game to end
   (a PendingForget row, carried out by the beat's sweep `forget_waiting`).
3. Everything else is erased at once (games.home.services.erase): finished, cancelled and
   handed-over seats keep the neutral name, the games stay whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games.game.core.game import Game, SeatKind, WhileOpen
from games.handover.core.handover_errors import HandoverError
from games.handover.core.handover_rows import RUNNING, OpenSeat
from games.handover.services.opening import open_seat
from games.home.services.erase import erase_address, erase_seats
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.player_data import PendingForget, remember_forgotten
from games.seats.core.seat import Seat

# Games whose seats wait for the game to end when they cannot be handed over.
GOING_ON = (Game.Status.SETUP, *RUNNING)


@dataclass(frozen=True)
class Forgotten:
    """What a request to be forgotten did: seats handed over now, games it waits for."""

    handed_over: int
    waiting_for: int

    @property
    def done(self) -> bool:
        return self.waiting_for == 0


def forget_player(address: str) -> Forgotten:
    """Forget `address`: no email to it from now on, its seats under way handed over, and
    it erased from every game that does not have to end first (see the module)."""
    address = address.strip()
    remember_forgotten(address)
    handed = 0
    waiting: set[int] = set()
    erasable: list[Seat] = []
    for seat in Seat.objects.filter(of_mailbox(address)).select_related("game"):
        if seat.game.status not in GOING_ON or seat.open_since is not None:
            erasable.append(seat)  # over, or someone else's seat to take already
        elif _hand_over(seat):
            handed += 1
            erasable.append(seat)
        else:
            waiting.add(seat.game_id)
    with transaction.atomic():
        erase_seats(address, erasable)
        erase_address(address)
        if waiting:
            if not PendingForget.objects.filter(of_mailbox(address)).exists():
                PendingForget.objects.create(email=address)
        else:
            PendingForget.objects.filter(of_mailbox(address)).delete()
    return Forgotten(handed_over=handed, waiting_for=len(waiting))


def _hand_over(seat: Seat) -> bool:
    """Open the seat with a bot holding it, if its game lets a bot hold an open seat (a bot
    already playing it needs no opening); False when the seat must wait for the end."""
    if seat.game.status not in RUNNING:
        return False
    if seat.kind == SeatKind.BOT:
        return True  # a moderator handed it to a bot: nobody's turn waits for this person
    if seat.game.while_seat_open != WhileOpen.BOT:
        return False
    try:
        open_seat(seat.pk, reason=OpenSeat.Reason.LEFT)
    except HandoverError:
        # Opened a moment ago, or the game ended meanwhile: either way, nobody waits
        # for this person any more.
        seat.refresh_from_db(fields=["open_since"])
        status = Game.objects.values_list("status", flat=True).get(pk=seat.game_id)
        return seat.open_since is not None or status not in GOING_ON
    return True


def waiting_games(address: str) -> int:
    """How many games a request to be forgotten would wait for (what the home page says
    before the player confirms)."""
    seats = Seat.objects.filter(of_mailbox(address), game__status__in=GOING_ON,
                                open_since__isnull=True).select_related("game")
    return len({seat.game_id for seat in seats if not _can_hand_over(seat)})


def _can_hand_over(seat: Seat) -> bool:
    return seat.game.status in RUNNING and (seat.kind == SeatKind.BOT
                                            or seat.game.while_seat_open == WhileOpen.BOT)


def seats_under_way(address: str) -> int:
    """How many of the address's seats are in games going on (handed over, or waited for)."""
    return Seat.objects.filter(of_mailbox(address), game__status__in=GOING_ON,
                               open_since__isnull=True).count()


def forget_waiting() -> int:
    """The beat: carry out again every request that waited, now that games may have ended
    (or started, and can hand the seat over); how many are complete."""
    done = 0
    for email in list(PendingForget.objects.values_list("email", flat=True)):
        if forget_player(email).done:
            done += 1
    return done
