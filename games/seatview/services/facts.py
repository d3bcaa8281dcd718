"""What an email says about a game, taken only from `engine.view(state, that seat)`.

Every function here gets a view (and the public seat names, with who held each seat
when: games.seatview.services.holders); none reads the state,
so an email can only tell a player what their own view tells them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from games.engine.types import JSON, LogEvent, RoundResult, SeatView
from games.seatview.core import describe, maze_drawing
from games.seatview.core.recent import view_log
from games.seatview.core.words import Names
from games.seatview.services.holders import names_at_log, names_at_round_end

MAX_LINES = 40


@dataclass(frozen=True)
class HandCard:
    name: str
    picture: SafeString | None


@dataclass(frozen=True)
class PlayerLine:
    name: str
    hand_size: int
    in_front: list[str]
    is_me: bool
    is_actor: bool












def since_last_turn(view: SeatView, names: Names) -> tuple[list[str], int]:
    """Log sentences after the seat's own last move, and the log index they start at.

    The seat's moves are the events carrying its seat number (a payout is not a move).
    At most MAX_LINES sentences, the latest ones.
    """
    start = turn_start(view)
    lines = [describe.event_sentence(e, names_at_log(names, start + i), view["ruleset"],
                                     view.get("seat"))
             for i, e in enumerate(view_log(view)[start:])]
    return lines, start


def turn_start(view: SeatView) -> int:
    """Where `since_last_turn`'s sentences start in the log (without making them)."""
    me = view.get("seat")
    log = view_log(view)
    start = 0
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event.get("seat") == me and event.get("type") != "payout":
            start = index + 1
            break
    return max(start, len(log) - MAX_LINES)


def hand(view: SeatView) -> list[HandCard]:
    cards = []
    for card in view.get("hand", []):
        cards.append(HandCard(name=describe.card_name(card),
                              picture=maze_drawing.hand_picture(card)))
    return cards


def players(view: SeatView, names: Names) -> list[PlayerLine]:
    return [PlayerLine(name=describe.seat_name(p["seat"], names), hand_size=p["hand_size"],
                       in_front=[describe.card_name(c) for c in p["in_front"]],
                       is_me=p["seat"] == view.get("seat"), is_actor=p["seat"] == view["actor"])
            for p in view["players"]]


def my_gold(view: SeatView) -> int | None:
    for player in view["players"]:
        if player["seat"] == view.get("seat"):
            gold = player.get("gold")
            return int(gold) if gold is not None else None
    return None


def gold_offer(view: SeatView) -> list[int]:
    """Values of the gold cards offered to this seat (only the picker sees an offer)."""
    return sorted((int(g["value"]) for g in view.get("gold_offer", [])), reverse=True)


def round_gold(view: SeatView, round_number: int) -> int:
    """Gold this seat won in one round: its own picks and payouts after that round ended."""
    me = view.get("seat")
    total, inside = 0, False
    for event in view_log(view):
        kind = event.get("type")
        if kind == "round_end":
            inside = event.get("round") == round_number
        elif kind == "round_start":
            inside = False
        elif inside and kind in ("gold_pick", "payout") and event.get("seat") == me:
            total += int(event.get("value", 0))
    return total


# The base game's round_end names the winning side; Saboteur 2's lists the seats paid.
SIDE_ROLES = {"gold-diggers": "gold-digger", "saboteurs": "saboteur"}


def round_winners(event: Mapping[str, Any]) -> list[int]:
    """The seats that won the round a round_end event ends (public once it is over)."""
    if "winning_seats" in event:  # Saboteur 2
        return [int(seat) for seat in event["winning_seats"]]
    role = SIDE_ROLES.get(str(event.get("winners")))
    return [seat for seat, held in enumerate(event.get("roles", [])) if held == role]


def described_result(result: RoundResult, names: Names) -> JSON:
    """One ended round in words, as pages and emails both show it."""
    return {
        "round": result["round"],
        "gold_found": result["reason"] == "gold",
        "finder": describe.seat_name(result.get("finder"), names),
        "winners": describe.team_name(str(result["winners"])),
        "roles": describe.dwarf_cards(result, names),
        # Where the gold lay (every goal is shown at the end of a round), when nobody
        # reached it; "" for rounds logged before goals were recorded.
        "gold_at": describe.goal_name(result["goals"].index("gold"))
        if result["reason"] != "gold" and "gold" in (result.get("goals") or []) else "",
    }


def round_result(view: SeatView, round_number: int, names: Names) -> JSON | None:
    """The round in words, naming those who held the seats when it ended."""
    for result in view["round_results"]:
        if result["round"] == round_number:
            seat = view.get("seat")
            return {**described_result(result, names_at_round_end(view, round_number, names)),
                    "my_role": describe.role_name(result["roles"][seat])
                    if seat is not None else None}
    return None


def last_own_timeout_move(view: SeatView) -> LogEvent | None:
    """The seat's latest pass, gold pick or theft (Saboteur 2): what the server did when
    its deadline passed."""
    me = view.get("seat")
    for event in reversed(view_log(view)):
        if event.get("seat") == me and event.get("type") in ("pass", "gold_pick", "steal"):
            return event
        if event.get("seat") == me and event.get("type") != "payout":
            return None
    return None


def discarded_name(event: LogEvent, ruleset: str) -> str | None:
    """The card the seat itself discarded in a pass (its own view shows it); Saboteur 2
    passes list their cards."""
    if event.get("type") == "pass" and event.get("cards"):
        return describe.card_list(list(event["cards"]), ruleset)
    if event.get("type") != "pass" or "card" not in event:
        return None
    return describe.played_card_name(event, "card", "name", ruleset)
