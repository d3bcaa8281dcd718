"""What someone deciding whether to take an open seat may know (offer emails, the offer
page, the open-seats page): the rules, the pace, whether it is rated, how far the game
is, how the seat has done in the rounds already over. Only what every spectator knows:
the game's round from its stored state, and the round ends as the spectator's view gives
them (a round's winners are public once it is over), never a hand or a role: the seat's
gold stays hidden until the end as at the table (the rules keep gold cards face down), so
its score so far is given as rounds won. No name or address of anyone, nothing anyone
wrote.

`facts_of` builds the facts of a whole page of open seats in two queries whatever their
number (the bots at each table, the moves that ended a round), with no game log read.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.game.core.game import Game, Move, SeatKind
from games.handover.core.handover_rows import OpenSeat
from games.kit.seat_numbers import shown_seat
from games.seats.core.seat import Seat
from games.seatview.core.words import ruleset_name
from games.seatview.services.facts import round_winners


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
    rated: bool

    @property
    def lines(self) -> list[str]:
        """The facts in words, in the language active when read (the pages and the
        emails list them; made here rather than in a template: a page lists 20)."""
        lines = [
            _("Seat %(number)s of a game of %(rules)s") % {"number": shown_seat(self.seat),
                                                          "rules": self.ruleset},
            ngettext("Pace: %(hours)s hour per move", "Pace: %(hours)s hours per move",
                     self.hours_per_move) % {"hours": self.hours_per_move},
            ngettext("Round %(round)s of %(rounds)s; %(moves)s move made so far",
                     "Round %(round)s of %(rounds)s; %(moves)s moves made so far",
                     self.moves) % {"round": self.round, "rounds": self.rounds,
                                    "moves": self.moves},
            ngettext("%(seats)s seat, %(bots)s of the others played by bots",
                     "%(seats)s seats, %(bots)s of the others played by bots",
                     self.seats) % {"seats": self.seats, "bots": self.bots},
            ngettext("So far this seat has won %(won)s of %(over)s round played",
                     "So far this seat has won %(won)s of %(over)s rounds played",
                     self.rounds_over) % {"won": self.rounds_won, "over": self.rounds_over}
            if self.rounds_over else _("No round is over yet"),
            _("Meanwhile a bot plays the seat") if self.bot_holds_it
            else _("Meanwhile the game waits for its new player"),
            _("Rated: its rounds count for the players' ratings") if self.rated
            else _("Not rated: its rounds do not count for the players' ratings"),
        ]
        if self.paused:
            lines.append(_("The game is paused by a moderator."))
        return lines


def seat_facts(row: OpenSeat) -> SeatFacts:
    return facts_of([row])[0]


def facts_of(rows: Sequence[OpenSeat]) -> list[SeatFacts]:
    """The facts of each open seat (with its game and seat loaded), in order."""
    games = {row.game_id for row in rows}
    if not games:
        return []
    bots = Counter(Seat.objects.filter(game_id__in=games, kind=SeatKind.BOT)
                   .values_list("game_id", flat=True))
    ended = _round_ends(games)
    facts = []
    for row in rows:
        game: Game = row.game
        state = game.state_without_log()
        winners = [round_winners(event) for event in ended[game.pk]]
        facts.append(SeatFacts(
            ruleset=ruleset_name(game.ruleset), hours_per_move=game.hours_per_move,
            round=state.round, rounds=engine.rules_for(game.ruleset).rounds,
            moves=game.version, seats=state.seats,
            # the other seats' bots (the open seat itself may be held by one meanwhile)
            bots=bots[game.pk] - (row.seat.kind == SeatKind.BOT),
            seat=row.seat.number, rounds_over=len(winners),
            rounds_won=sum(1 for seats in winners if row.seat.number in seats),
            bot_holds_it=row.while_open == "bot", paused=game.status == Game.Status.PAUSED,
            rated=game.rated))
    return facts


def _round_ends(games: Iterable[int]) -> defaultdict[int, list[dict[str, Any]]]:
    """Game id -> its round_end events as a spectator sees them: one query, reading only
    the moves that ended a round (their events are JSON text, matched as such)."""
    ended: defaultdict[int, list[dict[str, Any]]] = defaultdict(list)
    rows = (Move.objects.filter(game_id__in=list(games))
            .annotate(text=Cast("events", TextField()))
            .filter(Q(text__contains='"round_end"'))
            .order_by("game_id", "number").values_list("game_id", "events"))
    for game_id, events in rows:
        for event in events:
            if event.get("type") == "round_end":
                ended[game_id].append(dict(engine.seat_event(event, None, finished=False)))
    return ended
