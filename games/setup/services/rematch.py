""""Again, same table": a finished game's players play another one together.

Any player of a finished game may propose it. The rematch has the same rules, options,
pace and policies, a new seed (and so a new commitment), and the seats rotated by one:
the player of seat i sits at seat i + 1 (mod n), so another player leads (an anonymous
table's rematch is anonymous too, with new aliases and the seats at random: a rotation
would tell who sits where). The proposer
has accepted at once (their own link goes to their address); the other people get an
invitation like any new game's (their own link by email only, counted by the setup caps
with the proposer as the host); bots stay bots. It starts when everyone has accepted
(games.seats.services.acceptance.accept_seat).

A game has at most one rematch: a second proposal, by anyone, gives the same game (the
finished game's row is locked while it is looked for and made; the database also holds
one rematch per game). A rematch keeps the first game's name and counts (`rematch_number`:
1, then 2 for a rematch of the rematch): pages and emails call it "Friday · rematch 2" in
their reader's language, and its invitation names who proposed it, the game it follows
and how that game ended (games.mail.doors.letters).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.game.core.game import Game, SeatKind
from games.handover.core.handover_rows import OpenSeat
from games.kit.service_errors import SetupError
from games.mail.services import plan
from games.people.core.mailboxes import same_mailbox
from games.seats.core.invitations import one_at_a_time, record_invitations
from games.seats.core.seat import Seat
from games.seats.services.acceptance import accept_seat
from games.setup.services.game_setup import PlayerSpec, create_game, invite_seat
from games.setup.services.web_setup import check_caps


@dataclass(frozen=True)
class Rematch:
    game: Game
    # False when the rematch was proposed before (by this player or another).
    new: bool


def rematch_of(game: Game) -> Game | None:
    """The rematch proposed after `game`, if any: whether there is one first (a small
    query, all most games need), then the rematch itself."""
    found = Game.objects.filter(rematch_of_id=game.pk).values_list("pk", flat=True).first()
    return None if found is None else Game.objects.filter(pk=found).first()


def rotated(seats: list[Seat]) -> list[Seat]:
    """The seats in the rematch's order: seat i of the old game sits at i + 1 (mod n)."""
    count = len(seats)
    return [seats[(number - 1) % count] for number in range(count)]


def propose_rematch(seat_id: int) -> Rematch:
    """The player of `seat_id` proposes to play again: the rematch, new or already there.
    Raises SetupError when the game is not over, the seat is not a person's, or the
    invitations would pass a setup cap (then nothing is made)."""
    with transaction.atomic():
        one_at_a_time()  # the caps are checked one setup at a time (web_setup)
        game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
        game = Game.objects.select_for_update().get(pk=game_id)
        existing = rematch_of(game)
        if existing is not None:
            return Rematch(game=existing, new=False)
        if game.status != Game.Status.FINISHED:
            raise SetupError("not_finished", _("A rematch can be proposed once the game is "
                                               "over."))
        seats = list(game.seats.order_by("number"))
        proposer = next(seat for seat in seats if seat.pk == seat_id)
        if proposer.kind != SeatKind.PERSON or not proposer.email:
            raise SetupError("bad_setup", _("Only a player can propose a rematch."))
        left = _left_the_table(game)
        order = rotated(seats)
        others = [seat.email for seat in order
                  if _is_person(seat, left) and seat.pk != seat_id]
        check_caps(proposer.email, others)
        made = create_game(
            name=game.name, players=[_player(seat, left) for seat in order],
            ruleset=game.ruleset,
            options=game.options, hours_per_move=game.hours_per_move,
            spectators_allowed=game.spectators_allowed, timeout_policy=game.timeout_policy,
            invite=False, list_open_seats=game.list_open_seats,
            open_absent_seats=game.open_absent_seats, while_seat_open=game.while_seat_open,
            # An anonymous table's rematch is anonymous too: new aliases, seats at random.
            rated=game.rated, anonymous=game.anonymous)
        rematch = made.game
        rematch.rematch_of = game
        # The first game's name, kept once, with the rematch's number: each reader sees
        # "Friday · rematch 2" in their own language (Game.title).
        rematch.rematch_number = game.rematch_number + 1
        rematch.table_number = game.table_number  # "Open table 7 · rematch 1"
        rematch.host_email = proposer.email
        rematch.host_confirmed_at = timezone.now()
        rematch.save(update_fields=["rematch_of", "rematch_number", "table_number",
                                    "host_email", "host_confirmed_at"])
        new_seats = [seat for seat, _link in made.seats]
        invited = [seat for seat in new_seats
                   if seat.kind == SeatKind.PERSON
                   and not same_mailbox(seat.email, proposer.email)]
        record_invitations(invited, host_email=proposer.email)
        for seat in invited:
            invite_seat(seat)
        own = next(seat for seat in new_seats if same_mailbox(seat.email, proposer.email))
        accept_seat(own.pk)
        # The proposer's own link, to their address only (never on a page).
        plan.queue(plan.own_links(own.email, [own], "accepted", f"seat={own.pk}"))
        rematch.refresh_from_db()
    return Rematch(game=rematch, new=True)


def _left_the_table(game: Game) -> set[int]:
    """Seats still looking for a new player when the game ended: their player had left
    (or was away), so a bot plays them in the rematch and nobody is invited to them."""
    still_open = OpenSeat.objects.filter(game=game).filter(
        Q(outcome=OpenSeat.Outcome.OPEN) | Q(outcome=OpenSeat.Outcome.CLOSED))
    return set(still_open.values_list("seat_id", flat=True)) | set(
        game.seats.filter(open_since__isnull=False).values_list("pk", flat=True))


def _is_person(seat: Seat, left: Collection[int] = ()) -> bool:
    return seat.kind == SeatKind.PERSON and bool(seat.email) and seat.pk not in left


def _player(seat: Seat, left: set[int]) -> PlayerSpec:
    """The old seat's player, with the language and time zone they play in now; a seat
    with no player left (no address, or they left the table) is a bot's in the rematch."""
    if not _is_person(seat, left):
        return PlayerSpec(name=seat.player_name, bot=True)
    return PlayerSpec(name=seat.player_name, email=seat.email, time_zone=seat.time_zone,
                      language=seat.language)


@dataclass(frozen=True)
class RematchPair:
    """What a seat page says about a game's rematch or the game it replays."""

    rematch: Game | None
    rematch_of: Game | None
    accepted: int
    players: int


def rematch_pair(game: Game) -> RematchPair:
    """The rematch of `game` (with how many of its people have accepted) and the game
    `game` is a rematch of."""
    rematch = rematch_of(game)
    accepted = players = 0
    if rematch is not None:
        people = rematch.seats.filter(kind=SeatKind.PERSON)
        players = people.count()
        accepted = people.filter(Seat.accepted_q()).count()
    previous = Game.objects.filter(pk=game.rematch_of_id).first() if game.rematch_of_id else None
    return RematchPair(rematch=rematch, rematch_of=previous, accepted=accepted, players=players)
