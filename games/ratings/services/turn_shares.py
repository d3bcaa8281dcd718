"""Who played each seat's turns of a round, for sharing its rating among them.

A seat's person can change during a game (someone takes it over, a moderator puts
someone else in, a bot holds it for a while). The seats' history says who held each seat
until which version (games.seats.core.history.PastHolder, written by every service that
changes a seat's holder, with the game's row locked); after its last row the seat is its
present holder's. A move made by a bot (Move.actor_kind) is the bot's whoever holds the
seat. "Forget me" blanks a past holder's mailbox, so an erased person's share is
nobody's ("").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from games.game.core.game import Game, Move
from games.seats.core.history import PastHolder, holder_at_move

BOT = None  # a bot's part of a seat
# Moves of the round's aftermath, not of its play (gold picked after a digger win, a thief
# stealing): they fall after the round_end event and are nobody's turn of the round.
AFTERMATH = frozenset({"pick_gold", "steal"})

Part = str | None  # a holder's mailbox key hash ("" for no address), or BOT


class Held(NamedTuple):
    until_version: int
    mailbox: str  # the holder's mailbox key hash ("" for no address)
    bot: bool = False  # a bot held the seat (its row keeps the address the seat had)


History = list[Held]  # oldest first


def past_holders(games: Iterable[int]) -> dict[int, dict[int, History]]:
    """game -> seat -> the seat's past holders, oldest first, in one query (a seat that
    never changed hands: none)."""
    past: dict[int, dict[int, History]] = {}
    for game_id, number, until, mailbox, bot in (
            PastHolder.objects.filter(game_id__in=list(games)).order_by("id")
            .values_list("game_id", "number", "until_version", "mailbox", "bot")):
        past.setdefault(game_id, {}).setdefault(number, []).append(Held(until, mailbox, bot))
    return past


def _histories(game: Game) -> tuple[dict[int, History], dict[int, str]]:
    """Each seat's past holders, and its present holder's mailbox key hash."""
    past: dict[int, History] = defaultdict(list, past_holders([game.pk]).get(game.pk, {}))
    present = dict(game.seats.values_list("number", "mailbox_key"))
    return past, present


def holder_at(history: History, present: str, move_number: int, *,
              bot_is_nobody: bool = False) -> str:
    """The holder of the seat when it made move `move_number` (the seat's history
    answers), else today's. `bot_is_nobody`: a bot's time is nobody's ("") rather than
    the address its row keeps (a person's record)."""
    held = holder_at_move(history, move_number)
    if held is None:
        return present
    return "" if bot_is_nobody and held.bot else held.mailbox


def turn_shares(game: Game, first: int, last: int) -> dict[int, dict[Part, float]]:
    """Each seat's hands over moves first..last (the round), with their share of the
    seat's turns: {seat: {holder or BOT: share}}. A seat with no turn in the range is
    the holder's at the round's end."""
    past, present = _histories(game)
    counts: dict[int, Counter[Part]] = defaultdict(Counter)
    for number, kind, seat, move in (Move.objects.filter(game=game, number__gte=first,
                                                         number__lte=last)
                                     .values_list("number", "actor_kind", "seat_number",
                                                  "move")):
        if seat is None or (isinstance(move, dict) and move.get("type") in AFTERMATH):
            continue
        counts[seat][BOT if kind == Move.Actor.BOT
                     else holder_at(past[seat], present.get(seat, ""), number)] += 1
    shares: dict[int, dict[Part, float]] = {}
    for seat in range(int(game.snapshot.get("seats") or 0)):
        total = sum(counts[seat].values())
        if total:
            shares[seat] = {who: n / total for who, n in counts[seat].items()}
        else:
            shares[seat] = {holder_at(past[seat], present.get(seat, ""), last + 1): 1.0}
    return shares


def own_hands(game: Game, last: int) -> set[tuple[int, str]]:
    """(seat, holder) of every holder who moved their seat themselves by move `last`: a
    move of the seat's player (through its own link or by email reply), not a bot's, the
    server's at a deadline or a moderator's."""
    past, present = _histories(game)
    return {(seat, holder_at(past[seat], present.get(seat, ""), number))
            for number, seat in Move.objects.filter(
                game=game, number__lte=last, actor_kind=Move.Actor.SEAT)
            .values_list("number", "seat_number") if seat is not None}
