"""Who played each seat's turns of a round, for sharing its rating among them.

A seat's person can change during a game (someone takes it over, a moderator puts
someone else in, a forgotten player's seat loses its address). The ratings keep a ledger
of who held each seat of a rated game from which version on (games.models.SeatHolder),
written when the ratings look at the game after its moves (`observe`, from the moves'
follow-up): a change is dated by the takeover's own row when there is one
(games.models.SeatTakeover: the exact version), else by the version it was first seen
at. A move made by a bot (Move.actor_kind) is the bot's whoever holds the seat.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from games.models import Game, Move, Seat, SeatHolder, SeatTakeover

BOT = None  # a bot's part of a seat
# Moves of the round's aftermath, not of its play (gold picked after a digger win, a thief
# stealing): they fall after the round_end event and are nobody's turn of the round.
AFTERMATH = frozenset({"pick_gold", "steal"})

Part = str | None  # a holder's mailbox key hash ("" for no address), or BOT


def observe(game: Game, seats: Iterable[Seat] | None = None) -> int:
    """Record the seats whose holder changed since the ledger last saw them; how many."""
    seats = list(seats if seats is not None else game.seats.all())
    latest: dict[int, SeatHolder] = {}
    for row in SeatHolder.objects.filter(game=game).order_by("seat", "from_version", "pk"):
        latest[row.seat] = row
    new = []
    for seat in seats:
        last = latest.get(seat.number)
        if last is not None and last.mailbox == seat.mailbox_key:
            continue
        new.append(SeatHolder(game=game, seat=seat.number, mailbox=seat.mailbox_key,
                              from_version=_since(game, seat, last)))
    SeatHolder.objects.bulk_create(new)
    return len(new)


def _since(game: Game, seat: Seat, previous: SeatHolder | None) -> int:
    if previous is None:
        return 0
    taken = (SeatTakeover.objects.filter(seat=seat, taken_by_mailbox=seat.mailbox_key,
                                         version__gte=previous.from_version)
             .order_by("-version").values_list("version", flat=True).first())
    return int(taken) if taken is not None else game.version


def _holder_at(ledger: list[SeatHolder], move_number: int) -> str:
    """The holder of the seat when it made move `move_number` (its rows oldest first)."""
    holder = ledger[0].mailbox if ledger else ""
    for row in ledger:
        if row.from_version < move_number:
            holder = row.mailbox
    return holder


def turn_shares(game: Game, first: int, last: int) -> dict[int, dict[Part, float]]:
    """Each seat's hands over moves first..last (the round), with their share of the
    seat's turns: {seat: {holder or BOT: share}}. A seat with no turn in the range is
    its last holder's."""
    ledger: dict[int, list[SeatHolder]] = defaultdict(list)
    for row in SeatHolder.objects.filter(game=game).order_by("from_version", "pk"):
        ledger[row.seat].append(row)
    counts: dict[int, Counter[Part]] = defaultdict(Counter)
    for number, kind, seat, move in (Move.objects.filter(game=game, number__gte=first,
                                                         number__lte=last)
                                     .values_list("number", "actor_kind", "seat_number",
                                                  "move")):
        if seat is None or (isinstance(move, dict) and move.get("type") in AFTERMATH):
            continue
        counts[seat][BOT if kind == Move.Actor.BOT else _holder_at(ledger[seat], number)] += 1
    shares: dict[int, dict[Part, float]] = {}
    for seat in range(int(game.snapshot.get("seats") or 0)):
        total = sum(counts[seat].values())
        if total:
            shares[seat] = {who: n / total for who, n in counts[seat].items()}
        else:
            shares[seat] = {_holder_at(ledger[seat], last + 1): 1.0}
    return shares
