"""A bot's reading of its seat view: what it aims at, which goals are still worth
digging to, and whom it counts as friend or foe."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.engine.types import CardView, SeatView

from .knowledge import TEAM_ROLES, Knowledge, read
from .maze import Cell, Maze, Seg, card_segments

# What each role wants from the maze: "dig" to the gold, "block" it, "crystal" (the
# geologist, paid for crystals whoever wins).
AIMS = {"gold-digger": "dig", "blue-digger": "dig", "green-digger": "dig", "boss": "dig",
        "profiteer": "dig", "saboteur": "block", "geologist": "crystal"}
FRIENDS: dict[str, dict[str, float]] = {
    "blue-digger": {"blue-digger": -1, "boss": -0.6, "green-digger": 1, "saboteur": 1},
    "green-digger": {"green-digger": -1, "boss": -0.6, "blue-digger": 1, "saboteur": 1},
    "boss": {"blue-digger": -0.8, "green-digger": -0.8, "saboteur": 1},
    "profiteer": {"saboteur": 0.5},
    "saboteur": {"saboteur": -1, "blue-digger": 1, "green-digger": 1, "boss": 1,
                 "gold-digger": 1},
    "gold-digger": {"gold-digger": -1, "saboteur": 1},
    "geologist": {"geologist": 0.5},
}


@dataclass
class Context:
    view: SeatView
    know: Knowledge
    aim: str
    team: str | None
    targets: list[Cell]
    gold_known: bool
    maze: Maze
    memo: dict[tuple[str, bool], tuple[Seg, ...]] = field(default_factory=dict)
    kept: dict[str, float] = field(default_factory=dict)

    def segments(self, card: CardView, *, rotated: bool) -> tuple[Seg, ...]:
        """A hand card's segments after an optional turn (cached: many moves per card)."""
        key = (str(card["id"]), rotated)
        segs = self.memo.get(key)
        if segs is None:
            segs = self.memo[key] = card_segments(card, rotated=rotated)
        return segs

    @property
    def me(self) -> int:
        return self.know.me

    @property
    def s2(self) -> bool:
        return bool(self.view["ruleset"] == "saboteur2")

    def hostility(self, seat: int) -> float:
        """+1 a foe, -1 a friend, 0 no opinion; from known roles, else suspicion."""
        if seat == self.me:
            return -1.0
        role = self.know.known.get(seat)
        if role is not None:
            return FRIENDS.get(self.know.role, {}).get(role, 0.0)
        sus = self.know.suspicion[seat]
        if self.aim == "dig":
            return max(-1.0, min(1.0, (sus - 0.8) / 1.5))
        if self.aim == "block":
            return max(-1.0, min(1.0, (1.2 - sus) / 1.5))
        return 0.0

    def early(self) -> bool:
        """Early in the round, while the tunnel is far from the goals (hide the role)."""
        return self.maze.distance >= 5 and self.view["deck_size"] > 20


def goal_targets(view: SeatView) -> tuple[list[Cell], bool]:
    """Goal cells the gold may still be under, and whether it is known for sure."""
    goals = view["goals"]
    gold = [(g["x"], g["y"]) for g in goals if g["status"] == "gold"]
    if gold:
        return gold, True
    open_ = [(g["x"], g["y"]) for g in goals if g["status"] == "hidden" and not g["revealed"]]
    return open_, len(open_) == 1


def build(view: SeatView) -> Context:
    know = read(view)
    aim = AIMS.get(know.role, "dig")
    team = TEAM_ROLES.get(know.role)
    targets, sure = goal_targets(view)
    blocked = {"blue": "green", "green": "blue"}.get(team or "")
    return Context(view, know, aim, team, targets, sure, Maze(view, targets, blocked))
