"""A finished game told step by step (the replay pages): the maze as it was after each
move, every hand and role, each move's sentence and who made it, the moderators' notes
where they happened, and a per-round summary (roles, who found the gold, gold won, and
each player's moves as what they really were).

Built by replaying the recorded moves from the seed (what `manage.py verifygame` does),
and only for finished games: before the end this would reveal hands and roles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games import engine
from games.engine.types import JSON, ModeratorView
from games.game.core.game import Game, Move
from games.seatview.core import describe, drawing
from games.seatview.core.recent import view_log
from games.seatview.core.words import Names
from games.seatview.services.facts import described_result
from games.seatview.services.holders import TableNames, names_at_notice
from games.seatview.services.pages import seat_names
from games.seatview.services.timeline import is_move

# Who made a move recorded without its seat, as the object of "made by" (German: dative).
MADE_BY = {
    Move.Actor.SEAT: lambda: _("the player"),
    Move.Actor.BOT: lambda: _("a bot"),
    Move.Actor.SYSTEM: lambda: _("the server (deadline)"),
    Move.Actor.MODERATOR: lambda: _("a moderator"),
}
# Someone else's move for a seat: a bot standing in for a person (at a deadline, or after
# a moderator handed the seat to a bot and back), the server passing at a deadline, a
# moderator's move.
MADE_FOR = {
    Move.Actor.BOT: lambda: _("a bot playing for %(name)s"),
    Move.Actor.SYSTEM: lambda: _("the server for %(name)s (deadline)"),
    Move.Actor.MODERATOR: lambda: _("a moderator for %(name)s"),
}


@dataclass
class SeatAtStep:
    number: int
    name: str
    role: str
    hand: list[str]
    in_front: list[str]
    gold: int


@dataclass
class RoundSummary:
    round: int
    result: JSON | None
    gold: list[tuple[str, int]]
    moves: list[tuple[str, str, list[str]]]  # (player, role, sentences)


@dataclass
class Story:
    game: Game
    names: TableNames  # today's, and who held each seat at each step
    states: list[engine.State]
    moves: list[Move]
    log_lengths: list[int]  # log length after each step (index 0: the deal)
    notices: dict[int, list[str]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return len(self.moves)


def tell(game: Game) -> Story:
    moves = list(Move.objects.filter(game=game).order_by("number"))
    state = engine.new_game(game.seats.count(), game.seed, game.ruleset, game.options)
    states, lengths = [state], [len(state.log)]
    for move in moves:
        state = engine.apply(state, move.move)
        states.append(state)
        lengths.append(len(state.log))
    names = seat_names(game)
    notices: dict[int, list[str]] = {}
    for notice_id, version, kind, params in game.notices.order_by("created_at", "id") \
            .values_list("id", "version", "kind", "params"):
        notices.setdefault(min(version, len(moves)), []).append(
            describe.notice_sentence(kind, params, names_at_notice(names, notice_id, params)))
    return Story(game=game, names=names, states=states, moves=moves, log_lengths=lengths,
                 notices=notices)


def made_by(story: Story, move: Move) -> str:
    """Who made the move, named as the log names seats when it was made: "Ann", "Bert
    (bot)", "a bot playing for Ann", "the server for Ann (deadline)", "a moderator for
    Ann"."""
    kind, seat = Move.Actor(move.actor_kind), move.seat_number
    if seat is None:
        return MADE_BY[kind]()
    name = describe.seat_name(seat, story.names.at_move(move.number))
    _player, bot_seat = story.names.player_at_move(seat, move.number)
    if kind == Move.Actor.SEAT or (kind == Move.Actor.BOT and bot_seat):
        return name
    return MADE_FOR[kind]() % {"name": name}


def step_context(story: Story, step: int) -> JSON:
    """What the replay page shows after `step` moves (0: the deal)."""
    step = max(0, min(step, story.total))
    state = story.states[step]
    truth = engine.moderator_view(state)
    full_log = view_log(engine.moderator_view(story.states[-1]))
    before = story.log_lengths[step - 1] if step else 0
    events = full_log[before:story.log_lengths[step]]
    ruleset = story.game.ruleset
    move = story.moves[step - 1] if step else None
    return {
        "step": step, "total": story.total, "round": state.round,
        "board": drawing.board_svg(truth),
        "goals": [dict(g, name=describe.goal_name(g["goal"]),
                       result=describe.goal_result(g.get("status", "hidden")))
                  for g in truth.get("goals", [])],
        # The seats named as at the move just made (at the deal: as at the first move).
        "seats": _seats(story, state, truth, story.names.at_move(max(step, 1))),
        "sentences": [describe.event_sentence(e, story.names.at_log(before + i), ruleset)
                      for i, e in enumerate(events)],
        "made_by": made_by(story, move) if move else "",
        "notices": story.notices.get(step, []),
        "rounds": round_starts(story),
    }


def _seats(story: Story, state: engine.State, truth: ModeratorView,
           names: Names) -> list[SeatAtStep]:
    roles = truth.get("roles") or []
    hands = truth.get("hands") or []
    scores = state.scores
    return [SeatAtStep(number=p["seat"], name=describe.seat_name(p["seat"], names),
                       role=describe.role_name(roles[p["seat"]]) if p["seat"] < len(roles)
                       else "",
                       hand=[describe.card_name(c) for c in hands[p["seat"]]]
                       if p["seat"] < len(hands) else [],
                       in_front=[describe.card_name(c) for c in p["in_front"]],
                       gold=scores[p["seat"]])
            for p in truth["players"]]


def round_starts(story: Story) -> list[tuple[int, int]]:
    """(round, the first step showing it)."""
    seen: dict[int, int] = {}
    for step, state in enumerate(story.states):
        seen.setdefault(state.round, step)
    return sorted(seen.items())


def summaries(story: Story) -> list[RoundSummary]:
    final = engine.moderator_view(story.states[-1])
    results = {r["round"]: r for r in final["round_results"]}
    log = view_log(final)
    out = []
    for round_number, first in round_starts(story):
        last = next((s for s in range(first, len(story.states))
                     if story.states[s].round != round_number), len(story.states) - 1)
        result = results.get(round_number)
        roles = result["roles"] if result is not None else []
        start_scores = story.states[first].scores
        end_scores = story.states[last].scores
        played: dict[int, list[str]] = {}
        lo = story.log_lengths[first]
        hi = story.log_lengths[last]
        for index in range(lo, hi):
            if is_move(log[index]):
                played.setdefault(int(log[index]["seat"]), []).append(describe.event_sentence(
                    log[index], story.names.at_log(index), story.game.ruleset))
        # The round's players: those who held the seats when it ended.
        names = story.names.at_log(max(hi - 1, 0))
        gold = [(names.get(n, str(n)), end_scores[n] - start_scores[n])
                for n in range(len(start_scores))]
        moves = [(names.get(n, str(n)),
                  describe.role_name(roles[n]) if n < len(roles) else "",
                  played.get(n, [])) for n in range(len(start_scores))]
        result = results.get(round_number)
        out.append(RoundSummary(round=round_number, gold=gold, moves=moves,
                                result=described_result(result, names)
                                if result else None))
    return out
