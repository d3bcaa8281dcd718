"""The first lesson as data: a fixed deal, every move of its first round, and the words
of its five steps (the path from the start, a broken lantern, a map, a rockfall, the
gold). The same for everyone: the seed fixes the deal (the learner, seat 0, is a
gold-digger; Bert, seat 1, the saboteur), and the move service makes every move of the
round the script's (games.moves.core.script). After the gold is found the game goes on
as a normal base game against the two bots (rounds 2 and 3).

The seed was found by search over the engine's deals (tests/learn/test_first_round.py
replays the script on the engine: every move legal where it stands, the roles and the
gold as the words say).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine.types import Move

NAME = "first-round"
SEED = 7330
RULESET = "base"
LEARNER = 0
BOTS = ("Bert", "Carla")  # seats 1 and 2
SABOTEUR = 1  # Bert: the broken lantern and the dead end are his

# Every move of round 1, in order: move number v + 1 is MOVES[v]; the learner (seat 0)
# makes versions 0, 3, 6, 9 and 12, Bert 1, 4, 7, 10 and Carla 2, 5, 8, 11.
MOVES: tuple[Move, ...] = (
    {"type": "place", "card": "p05", "x": 1, "y": 0, "rotated": False},  # learner: E-W
    {"type": "action", "card": "a06", "target": 0, "tool": "lantern"},  # Bert breaks it
    {"type": "place", "card": "p27", "x": 2, "y": 0, "rotated": False},  # Carla
    {"type": "action", "card": "a16", "target": 0, "tool": "lantern"},  # learner mends
    {"type": "place", "card": "p07", "x": 3, "y": 0, "rotated": False},  # Bert
    {"type": "place", "card": "p31", "x": 4, "y": 0, "rotated": False},  # Carla
    {"type": "map", "card": "a23", "goal": 1},  # learner: the middle goal
    {"type": "place", "card": "p37", "x": 5, "y": 0, "rotated": False},  # Bert: dead end
    {"type": "pass", "card": "a14"},  # Carla passes
    {"type": "rockfall", "card": "a20", "x": 5, "y": 0},  # learner clears it
    {"type": "place", "card": "p22", "x": 5, "y": 0, "rotated": False},  # Bert
    {"type": "place", "card": "p30", "x": 6, "y": 0, "rotated": False},  # Carla
    {"type": "place", "card": "p06", "x": 7, "y": 0, "rotated": False},  # learner: gold
)

@dataclass(frozen=True)
class Step:
    """One rule, taught at the learner's move of `version` (MOVES[version])."""

    version: int
    title: Callable[[], str]
    # What the step explains, paragraph by paragraph.
    lines: Callable[[], list[str]]
    # Said once the learner made the move, while the bots answer.
    done: Callable[[], str]


def _bot(seat: int) -> dict[str, str]:
    return {"bot": BOTS[seat - 1]}


STEPS: tuple[Step, ...] = (
    Step(0, lambda: _("A path from the start"), lambda: [
        _("You are a gold-digger: with the other gold-diggers you win the round when a "
          "tunnel from the start card reaches the gold. Someone at the table may be a "
          "saboteur, who wins if the cards run out first."),
        _("The maze begins at the start card, at (0, 0). The gold lies under one of the "
          "three goal cards on the right, face down. On your turn you play one card, then "
          "draw one."),
        _("A path card must lie next to a card of the maze, its tunnels must meet the "
          "tunnels of the cards beside it, and a tunnel must lead back to the start."),
    ], lambda: _("Your tunnel is joined to the start: the next card joins on at its "
                       "far end.")),
    Step(3, lambda: _("A broken lantern"), lambda: [
        _("%(bot)s played a broken lantern in front of you. While a broken tool lies in "
          "front of you, you cannot play path cards; your other cards you still can.")
        % _bot(1),
        _("A repair card mends a tool it shows, played on yourself or on another player: "
          "the one that shows the pickaxe and the cart does not fit, the one that shows "
          "the pickaxe and the lantern does."),
    ], lambda: _("Your lantern is mended: you can dig again.")),
    Step(6, lambda: _("A map"), lambda: [
        _("The gold lies under one of the three goal cards. A map lets you look at one of "
          "them: only you see what lies under it; the others see only which goal you "
          "looked at."),
        _("The tunnel heads for the middle goal: look at that one."),
    ], lambda: _("Only you saw it: your maze, and the list of goals under it, now "
                       "show what lies under the middle goal.")),
    Step(9, lambda: _("A rockfall"), lambda: [
        _("%(bot)s laid a dead end at (5, 0): its tunnel stops there, so no card can join "
          "on behind it. A saboteur's work, perhaps?") % _bot(1),
        _("A rockfall removes one path card from the maze (never the start card or a goal "
          "card), and the cell is free again for a better card."),
    ], lambda: _("The dead end is gone: the tunnel can go on from (4, 0).")),
    Step(12, lambda: _("The gold"), lambda: [
        _("Your map showed the gold under the middle goal, and the tunnel has reached "
          "(6, 0)."),
        _("When a tunnel from the start reaches a goal card, the goal card is turned over. "
          "If the gold lies under it, the gold-diggers win the round."),
    ], lambda: ""),
)


def step_at(version: int) -> tuple[int, Step] | None:
    """The step (numbered from 1) whose move is due at `version`, or None (a bot's)."""
    for number, step in enumerate(STEPS, start=1):
        if step.version == version:
            return number, step
    return None


def last_step_before(version: int) -> tuple[int, Step] | None:
    """The latest step the learner has made by `version`, or None before the first."""
    made = [(number, step) for number, step in enumerate(STEPS, start=1)
            if step.version < version]
    return made[-1] if made else None


def gold_lines() -> list[str]:
    """The round's end, after the learner's last step: who won, who the saboteur was."""
    return [
        _("The gold-diggers won the round. Every dwarf card is shown now: %(bot)s was the "
          "saboteur. The broken lantern and the dead end were his; the tunnels he laid in "
          "between were there so nobody would suspect him.") % _bot(SABOTEUR),
        _("The gold-diggers share the gold: whoever reached it picks a gold card first, "
          "then the other gold-diggers in turn, counter-clockwise."),
    ]


def over_lines() -> list[str]:
    """Once the first round is over: the rest of the game is a normal one."""
    return [
        _("From here on it is a normal game: two more rounds, new dwarf cards, a new deal, "
          "and the bots play on their own. After the third round, whoever has the most "
          "gold nuggets wins."),
    ]
