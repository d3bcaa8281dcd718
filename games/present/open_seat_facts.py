"""What someone deciding whether to take an open seat may know (offer emails, the offer
page, the open-seats page): the rules, the pace, how far the game is, how the seat has
done in the rounds already over. Built from the spectator's view (`engine.view(state,
None)`), so never a hand, a role, or anything else only the seat knows: the seat's gold
stays hidden until the end as at the table (the rules keep gold cards face down), so its
score so far is given as rounds won, which every player saw at each round's end.
No name or address of anyone."""

from __future__ import annotations

from dataclasses import dataclass

from games import engine
from games.models import Game, OpenSeat, SeatKind
from games.present.words import ruleset_name


@dataclass(frozen=True)
class SeatFacts:
    ruleset: str
    hours_per_move: int
    round: int
    rounds: int
    moves: int
    seats: int
    bots: int
    seat: int
    rounds_over: int
    rounds_won: int
    bot_holds_it: bool
    paused: bool


def seat_facts(row: OpenSeat) -> SeatFacts:
    game: Game = row.game
    view = engine.view(game.state(), None)
    over = view["round_results"]
    kinds = list(game.seats.exclude(pk=row.seat_id).values_list("kind", flat=True))
    return SeatFacts(
        ruleset=ruleset_name(game.ruleset), hours_per_move=game.hours_per_move,
        round=view["round"], rounds=view["rounds"], moves=game.version, seats=view["seats"],
        bots=kinds.count(SeatKind.BOT), seat=row.seat.number, rounds_over=len(over),
        rounds_won=sum(1 for result in over if row.seat.number in (result["winners"] or [])),
        bot_holds_it=row.while_open == "bot", paused=game.status == Game.Status.PAUSED)
