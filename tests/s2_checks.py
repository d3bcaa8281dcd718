"""Leak checks for Saboteur 2 views, pages and emails (RULES.md Part 3).

Secrets of the expansion, and who may see them:
- an inspection's result: the inspector only;
- a new hat (swap your hats): its owner only (the target);
- the cards of a pass or of a discard to free yourself: the player only;
- a payout's value: its owner, and everyone at the end;
- other seats' roles: only through the player's own inspections this round, and
  every role at the end of a round.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from games import engine
from tests.support import S2_ROLES

JSON = dict[str, Any]

# Event type -> (the key holding the secret, the seat key of who may see it).
SECRETS = {"inspection": ("role", "seat"), "swap_hats": ("role", "target"),
           "free": ("cards", "seat"), "pass": ("cards", "seat")}


def check_log_secrets(view: JSON, seat: int | None) -> None:
    """Each secret field is in an event exactly when `seat` may see it."""
    for event in view["log"]:
        kind = event["type"]
        if kind in SECRETS:
            key, owner = SECRETS[kind]
            if kind == "pass" and not event.get("count"):
                continue
            entitled = seat is not None and event[owner] == seat
            assert (key in event) == entitled, f"seat {seat} and {event}"
        if kind == "payout":
            assert ("value" in event) == (event["seat"] == seat or view["finished"]), event


def own_inspections(view: JSON, seat: int | None) -> dict[str, str]:
    """What the seat's own inspections of this round showed, from its own log."""
    starts = [i for i, e in enumerate(view["log"]) if e["type"] == "round_start"]
    events = view["log"][starts[-1]:] if starts else view["log"]
    return {str(e["target"]): e["role"] for e in events
            if e["type"] == "inspection" and e["seat"] == seat}


def check_s2_view(view: JSON, state: engine.State, seat: int | None) -> None:
    """A Saboteur 2 view holds no role, card or nugget count the seat may not know."""
    check_log_secrets(view, seat)
    assert view["inspected"] == own_inspections(view, seat)
    assert view["role"] == (None if seat is None else state.roles[seat])
    # Outside the log, the own role and own inspections, no role is named anywhere.
    rest = {k: v for k, v in view.items()
            if k not in ("log", "role", "inspected", "round_results")}
    text = json.dumps(rest)
    for role in S2_ROLES:
        assert f'"{role}"' not in text, f"seat {seat} sees the role {role}"
    for player in view["players"]:
        assert ("gold" in player) == (player["seat"] == seat or state.finished)


def check_s2_page(body: str, truth: Sequence[Mapping[str, Any]], seat: int | None,
                  names: dict[int, str]) -> None:
    """A seat page (or the spectator page) shows inspection results only to the
    inspector and a new hat only to its owner. `truth` is the moderators' log."""
    inspections = [e for e in truth if e["type"] == "inspection"]
    mine = {e["target"] for e in inspections if e["seat"] == seat}
    for event in inspections:
        target = names[event["target"]]
        # Only "You inspected Bob: a saboteur." on the inspector's own page.
        assert f"{names[event['seat']]} inspected {target}: " not in body, (seat, event)
        if event["target"] not in mine:
            assert f"You inspected {target}: " not in body, f"seat {seat}: {event}"
    assert "the new hat:" not in body  # the moderators' wording, with the role
    if not any(e["type"] == "swap_hats" and e["target"] == seat for e in truth):
        assert "you are now" not in body, f"seat {seat} sees someone else's new hat"
