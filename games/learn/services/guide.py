"""The guide a lesson's seat page shows beside the maze (games.play's seat page asks
`lesson_guide`): the step's rule in words, what to do now, and the card and the cell it
is about, which the page marks in the hand and on the maze, in words as well as colour.

Built from the learner's own view and the lesson's script only: it names what the
learner sees or has just seen, never a card in a bot's hand. Nothing here is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.engine.types import Move, SeatView
from games.game.core.game import Game
from games.learn.core import first_round as lesson
from games.seats.core.seat import Seat
from games.seatview.core.describe import MoveContext, card_name, move_label


@dataclass(frozen=True)
class Guide:
    """What the lesson box says now (templates/games/_lesson.html)."""

    title: str
    lines: list[str]
    todo: str = ""  # what to do now ("" while the bots play)
    step: int = 0  # 1 to `steps` while a rule is taught; 0 after
    steps: int = len(lesson.STEPS)
    card: str = ""  # the id of the card of the hand to play ("" none)
    cell: tuple[int, int] | None = None  # the maze cell the step is about
    over: bool = False  # the lesson's round is over: a normal game from here
    # Changes whenever the box says something new: the page's script reads it out then.
    key: str = ""
    done: list[str] = field(default_factory=list)  # what the learner's last step did


def lesson_guide(game: Game, seat: Seat | None, view: SeatView,
                 names: Mapping[int, str]) -> Guide | None:
    """The guide for `seat`'s page, or None: not a lesson, or not the learner's seat (a
    spectator, a moderator's look)."""
    if seat is None or seat.number != lesson.LEARNER or not game.script \
            or list(game.script) != list(lesson.MOVES):
        return None
    version = game.version
    if game.status == Game.Status.FINISHED:  # no more rounds to tell of
        return Guide(title=_("The lesson is over"), lines=[], over=True, key="over")
    if view["round"] == 1 and version < len(lesson.MOVES) \
            and game.status == Game.Status.ACTIVE:
        due = lesson.step_at(version)
        if due is not None and view["actor"] == lesson.LEARNER:
            return _step_guide(due[0], due[1], view, names)
        return _waiting_guide(version)
    if view["round"] == 1 and view["phase"] == "gold":
        return _gold_guide(view)
    return Guide(title=_("The lesson is over"), lines=lesson.over_lines(), over=True,
                 key="over")


def _step_guide(number: int, step: lesson.Step, view: SeatView,
                names: Mapping[int, str]) -> Guide:
    move = lesson.MOVES[step.version]
    hand = {card["id"]: card for card in view["hand"]}
    board = {(c["x"], c["y"]): c["card"] for c in view["board"]}
    context = MoveContext(names=names, board=board, cards=hand, me=view.get("seat"),
                          ruleset=str(view.get("ruleset", lesson.RULESET)))
    card = hand.get(str(move.get("card")))
    todo = _("Choose %(card)s in your hand and play it: %(move)s.") % {
        "card": card_name(card) if card else str(move.get("card")),
        "move": move_label(move, context)}
    return Guide(title=step.title(), lines=step.lines(), todo=todo, step=number,
                 card=str(move.get("card", "")), cell=_cell(move, view),
                 key=f"step-{number}")


def _waiting_guide(version: int) -> Guide:
    made = lesson.last_step_before(version)
    done = [made[1].done()] if made is not None and made[1].done() else []
    first, second = lesson.BOTS
    return Guide(
        title=made[1].title() if made is not None else _("The bots play"),
        lines=[_("%(first)s and %(second)s play now: their moves show on this page within "
                 "a few seconds.") % {"first": first, "second": second}],
        step=made[0] if made is not None else 0, done=done, key=f"wait-{version}")


def _gold_guide(view: SeatView) -> Guide:
    mine = view["actor"] == lesson.LEARNER
    todo = (_("Pick a gold card from the list under your hand: the more nuggets, the "
              "better.") if mine else "")
    return Guide(title=_("The gold is found"), lines=lesson.gold_lines(), todo=todo,
                 key=f"gold-{len(view.get('gold_offer') or [])}-{view['actor']}")


def _cell(move: Move, view: SeatView) -> tuple[int, int] | None:
    """The maze cell a move is about: where a card goes or goes from, a map's goal."""
    x, y = move.get("x"), move.get("y")
    if isinstance(x, int) and isinstance(y, int):
        return x, y
    if move.get("type") == "map":
        return next(((g["x"], g["y"]) for g in view["goals"] if g["goal"] == move.get("goal")),
                    None)
    return None
