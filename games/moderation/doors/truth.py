"""What the moderation page shows: the whole truth from `engine.moderator_view`.

Every hand, role and the dwarf cards set aside, the goals' contents, the deck in
draw order, the gold pile, the discard pile, the seats with their status, the whole
move log with who made each move, when, and what it caused (unredacted), the open
disputes, the table notices and the moderator actions on the game.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext as _

from games import engine
from games.engine.types import JSON, CardView, ModeratorView
from games.game.core.game import Game, Move
from games.game.core.talk_and_notices import GameNotice
from games.moderation.core.moderation_rows import Dispute, ModeratorAction
from games.moderation.doors.admin_records import talk_context_html
from games.moderation.services.acts import KINDS
from games.moderation.services.talk_reports import reporters
from games.seats.core.seat import Seat
from games.seatview.core import describe, drawing
from games.seatview.core.recent import view_log
from games.seatview.core.words import (
    Names,
    option_label,
    option_value_label,
    outcome_label,
    ruleset_name,
)
from games.seatview.services import pages
from games.seatview.services.holders import (
    TableNames,
    holder_then,
    names_at_log,
    names_at_notice,
    seat_changes,
)

ACTIONS_SHOWN = 50


@dataclass
class SeatRow:
    seat: Seat
    role: str
    hand: list[str]
    in_front: list[str]
    gold: int
    known_goals: list[str]
    is_actor: bool


@dataclass
class MoveRow:
    number: int
    who: str
    by: str
    made_at: datetime
    move: JSON
    events: list[str] = field(default_factory=list)
    round_end: bool = False

    @property
    def move_json(self) -> str:
        return json.dumps(self.move, sort_keys=True, ensure_ascii=False)


def rules_text(game: Game) -> str:
    """'Saboteur (the base game); gold cards: one per gold-digger; ...' in words."""
    options = "; ".join(f"{option_label(k)}: {option_value_label(k, v)}"
                        for k, v in sorted(game.options.items()))
    name = ruleset_name(game.ruleset)
    return f"{name}; {options}" if options else name


def card_label(card: CardView) -> str:
    return f"{describe.card_name(card)} [{card['id']}]"


def seat_rows(game: Game, truth: ModeratorView, names: Names) -> list[SeatRow]:
    rows = []
    scores = truth.get("scores") or []  # always there in the moderator's view
    for seat in game.seats.order_by("number"):
        n = seat.number
        rows.append(SeatRow(
            seat=seat, role=describe.role_name(truth["roles"][n]),
            hand=[card_label(c) for c in truth["hands"][n]],
            in_front=[describe.card_name(c) for c in truth["players"][n]["in_front"]],
            gold=scores[n],
            known_goals=[describe.goal_name(g) for g in truth["known_goals"][n]],
            is_actor=truth["actor"] == n))
    return rows


def move_rows(game: Game, truth: ModeratorView, names: Names) -> list[MoveRow]:
    """Every move with who made it (whoever held the seat then) and the (unredacted) log
    events it caused."""
    moves = list(game.moves.select_related("moderator").order_by("number"))
    ends = _log_ends(game, moves)
    rows = []
    start = ends.pop(0) if ends else 0  # the deal's own events come before move 1
    for index, move in enumerate(moves):
        then = names.at_move(move.number) if isinstance(names, TableNames) else names
        row = MoveRow(number=move.number, who=describe.seat_name(move.seat_number, then),
                      by=_made_by(move), made_at=move.created_at, move=move.move)
        if ends is not None:
            events = view_log(truth)[start:ends[index]]
            row.events = [describe.event_sentence(e, names_at_log(names, start + i), game.ruleset)
                          for i, e in enumerate(events)]
            row.round_end = any(e.get("type") == "round_end" for e in events)
            start = ends[index]
        rows.append(row)
    return rows


def _made_by(move: Move) -> str:
    if move.actor_kind == Move.Actor.MODERATOR:
        who = move.moderator.get_username() if move.moderator else "?"
        return _("moderator %(name)s") % {"name": who}
    return str(Move.Actor(move.actor_kind).label)


def _log_ends(game: Game, moves: list[Move]) -> list[int] | None:
    """The log's length after the deal and after each move (replayed), or None if the
    log does not replay."""
    try:
        state = engine.new_game(int(game.snapshot["seats"]), game.seed, game.ruleset,
                                game.options)
        ends = [len(state.log)]
        for move in moves:
            state = engine.apply(state, move.move)
            ends.append(len(state.log))
    except (engine.IllegalMove, KeyError, ValueError):
        return None
    return ends


def goals(truth: ModeratorView) -> list[JSON]:
    return [{"name": describe.goal_name(g["goal"]), "cell": describe.cell(g["x"], g["y"]),
             "content": describe.goal_result(g["status"]), "revealed": g["revealed"]}
            for g in truth["goals"]]


def disputes(game: Game, names: TableNames) -> list[JSON]:
    """Each dispute with who held the filer's seat when it was filed and, for a report of
    table talk, the line in its context and its reporters (each named as then)."""
    rows = []
    changes = seat_changes(game)
    for d in game.disputes.select_related("seat", "resolved_by").order_by("-created_at"):
        rows.append({"dispute": d, "outcome": outcome_label(d.outcome) if d.outcome else "",
                     "open": d.status == Dispute.Status.OPEN,
                     "filed_by": holder_then(d.seat, d.created_at, changes, moderator=True),
                     "talk": talk_context_html(d, names),
                     "reporters": reporters(d) if d.talk_context else []})
    return rows


def notices(game: Game, names: Names) -> list[tuple[GameNotice, str]]:
    return [(n, describe.notice_sentence(n.kind, n.params, names_at_notice(names, n.pk, n.params)))
            for n in game.notices.order_by("created_at", "id")]


def actions(game: Game) -> list[tuple[ModeratorAction, str]]:
    recent = game.moderator_actions.select_related("moderator").order_by("-created_at", "-id")
    return [(a, str(KINDS.get(a.kind, a.kind))) for a in recent[:ACTIONS_SHOWN]]


def context(game: Game) -> JSON:
    """The moderation page's facts (the forms are added by the view)."""
    state = game.state()
    truth = engine.moderator_view(state)
    names = pages.moderator_names(game)
    return {
        "game": game,
        "truth": truth,
        "names": names,
        "actor_name": describe.seat_name(truth["actor"], names),
        "seats": seat_rows(game, truth, names),
        "board": drawing.board_svg(truth),
        "goals": goals(truth),
        "deck": [card_label(c) for c in truth["deck_top_first"]],
        "discard": [card_label(c) for c in truth["discard"]],
        "set_aside": [card_label(c) for c in truth["set_aside"]],
        "roles_aside": [describe.role_name(r) for r in truth["roles_aside"]],
        "gold_pile": [g["value"] for g in truth["gold_pile_top_first"]],
        "gold_offer": [g["value"] for g in truth["gold_offer"]],
        "moves": move_rows(game, truth, names),
        "rules_text": rules_text(game),
        "disputes": disputes(game, names),
        "notices": notices(game, names),
        "actions": actions(game),
        "phase": pages.phase_text(game, truth),
    }
