"""The game state: plain data, an exact JSON round trip, and a cheap copy for `apply`.

Log events are append-only: nothing changes an event once it is in the log, so copies
share their nested lists (`to_json` copies each event dict, not its insides; treat the
log in a JSON form as read-only).

Conventions: the draw pile's top is the *end* of `deck` (pop is O(1)); the gold pile's
top is the end of `gold_pile`. `board` maps a cell to (card id, rotated) in placement
order; the goal positions hold `goal-0..2` whose content is `goal_kinds[i]`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .geometry import Cell

Event = dict[str, Any]
from .types import JSON  # noqa: E402

# Keys of the JSON form, in order; bump FORMAT when the shape changes.
FORMAT = 1


def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars); much faster than
    json.loads(json.dumps(...)) on the log, which is copied by every to_json."""
    if isinstance(value, dict):
        return {k: copy_json(v) if isinstance(v, (dict, list)) else v for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) if isinstance(v, (dict, list)) else v for v in value]
    return value


@dataclass
class State:
    ruleset: str
    seats: int
    options: dict[str, Any]
    rng: str
    round: int = 0
    phase: str = "play"  # "play" | "gold" | "finished" (rulesets may add phases)
    turn: int = 0  # seat whose turn it is in phase "play"
    board: dict[Cell, tuple[str, bool]] = field(default_factory=dict)
    goal_kinds: list[str] = field(default_factory=list)
    goal_revealed: list[bool] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)  # path/action cards out of play
    hands: list[list[str]] = field(default_factory=list)
    in_front: list[list[str]] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)
    roles_aside: list[str] = field(default_factory=list)  # dwarf cards dealt to nobody
    known_goals: list[list[int]] = field(default_factory=list)  # per seat, goals mapped
    gold_pile: list[str] = field(default_factory=list)
    gold_won: list[list[str]] = field(default_factory=list)
    nuggets: list[int] = field(default_factory=list)  # loose nuggets (Saboteur 2 payouts)
    gold_offer: list[str] = field(default_factory=list)
    gold_pickers: list[int] = field(default_factory=list)  # eligible seats, in pick order
    picker: int | None = None
    last_turn: int | None = None  # seat that took the last turn (next round starts after it)
    finder: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # ruleset-specific data
    log: list[Event] = field(default_factory=list)
    # Derived data (e.g. the maze) memoised per state object; never copied or saved.
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    # ---- contract properties -------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    @property
    def actor(self) -> int | None:
        """The seat whose decision is awaited; None once the game is over."""
        if self.phase == "finished":
            return None
        if self.phase == "play":
            return self.turn
        return self.picker

    @property
    def scores(self) -> list[int]:
        """Nuggets per seat so far (gold cards won plus loose nuggets)."""
        from .cards import GOLD_VALUES

        return [
            sum(GOLD_VALUES[c] for c in won) + loose
            for won, loose in zip(self.gold_won, self.nuggets, strict=True)
        ]

    def position_key(self) -> tuple[object, ...]:
        """What the maze depends on: the cards on the table and which goals are turned.
        Caches derived from the maze (the maze itself, the board's JSON) are keyed by it."""
        return (tuple(self.board.items()), tuple(self.goal_revealed))

    # ---- copying and JSON ----------------------------------------------------
    def copy(self) -> State:
        """A copy deep enough that mutating the copy never touches self.

        Log events are never mutated after being appended, so they are shared, and so
        are the position-keyed caches (the maze, the board's JSON).
        """
        return State(
            ruleset=self.ruleset,
            seats=self.seats,
            options=dict(self.options),
            rng=self.rng,
            round=self.round,
            phase=self.phase,
            turn=self.turn,
            board=dict(self.board),
            goal_kinds=list(self.goal_kinds),
            goal_revealed=list(self.goal_revealed),
            deck=list(self.deck),
            discard=list(self.discard),
            set_aside=list(self.set_aside),
            hands=[list(h) for h in self.hands],
            in_front=[list(f) for f in self.in_front],
            roles=list(self.roles),
            roles_aside=list(self.roles_aside),
            known_goals=[list(k) for k in self.known_goals],
            gold_pile=list(self.gold_pile),
            gold_won=[list(g) for g in self.gold_won],
            nuggets=list(self.nuggets),
            gold_offer=list(self.gold_offer),
            gold_pickers=list(self.gold_pickers),
            picker=self.picker,
            last_turn=self.last_turn,
            finder=self.finder,
            extra=copy_json(self.extra),
            log=list(self.log),
            # Every cache entry is keyed by what it was derived from (position_key) and
            # checked against it when read: a copy may share them, and a move that leaves
            # the board alone (most of them) does not build the same maze again.
            cache=dict(self.cache),
        )

    def to_json(self, include_log: bool = True) -> JSON:
        """The exact JSON form. `include_log=False` leaves the (append-only, possibly long)
        log out, for callers that only compare or store the rest."""
        return {
            "format": FORMAT,
            "ruleset": self.ruleset,
            "seats": self.seats,
            "options": dict(self.options),
            "rng": self.rng,
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "board": [[x, y, card, rotated] for (x, y), (card, rotated) in self.board.items()],
            "goal_kinds": list(self.goal_kinds),
            "goal_revealed": list(self.goal_revealed),
            "deck": list(self.deck),
            "discard": list(self.discard),
            "set_aside": list(self.set_aside),
            "hands": [list(h) for h in self.hands],
            "in_front": [list(f) for f in self.in_front],
            "roles": list(self.roles),
            "roles_aside": list(self.roles_aside),
            "known_goals": [list(k) for k in self.known_goals],
            "gold_pile": list(self.gold_pile),
            "gold_won": [list(g) for g in self.gold_won],
            "nuggets": list(self.nuggets),
            "gold_offer": list(self.gold_offer),
            "gold_pickers": list(self.gold_pickers),
            "picker": self.picker,
            "last_turn": self.last_turn,
            "finder": self.finder,
            "extra": copy_json(self.extra),
            "log": [dict(event) for event in self.log] if include_log else [],
        }

    @classmethod
    def from_json(cls, data: JSON) -> State:
        if data.get("format") != FORMAT:
            raise ValueError(f"unsupported state format {data.get('format')!r}")
        return cls(
            ruleset=data["ruleset"],
            seats=data["seats"],
            options=dict(data["options"]),
            rng=data["rng"],
            round=data["round"],
            phase=data["phase"],
            turn=data["turn"],
            board={(x, y): (card, rotated) for x, y, card, rotated in data["board"]},
            goal_kinds=list(data["goal_kinds"]),
            goal_revealed=list(data["goal_revealed"]),
            deck=list(data["deck"]),
            discard=list(data["discard"]),
            set_aside=list(data["set_aside"]),
            hands=[list(h) for h in data["hands"]],
            in_front=[list(f) for f in data["in_front"]],
            roles=list(data["roles"]),
            roles_aside=list(data["roles_aside"]),
            known_goals=[list(k) for k in data["known_goals"]],
            gold_pile=list(data["gold_pile"]),
            gold_won=[list(g) for g in data["gold_won"]],
            nuggets=list(data["nuggets"]),
            gold_offer=list(data["gold_offer"]),
            gold_pickers=list(data["gold_pickers"]),
            picker=data["picker"],
            last_turn=data["last_turn"],
            finder=data["finder"],
            extra=copy_json(data["extra"]),
            log=[dict(event) for event in data["log"]],
        )
