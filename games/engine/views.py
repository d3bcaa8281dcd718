"""What each seat may know (RULES.md Part 3), as JSON-ready dicts.

`seat_view` is the only source of facts for pages, emails, the API and log lines.
`moderator_view` is the explicitly named full truth for moderators.
Log events keep their secret fields under `_secret`, shown only to the seats in
`_to` (and to everyone at game end when `_at_end` is set, for gold).
"""

from __future__ import annotations

import json
from typing import cast

from .cards import GOAL_CELLS, GOAL_CONTENTS, GOLD_VALUES, CardSpec
from .geometry import names_of
from .rules import rules_for
from .state import Event, State
from .types import JSON, CardView, ModeratorView, SeatView


def card_json(spec: CardSpec, rotated: bool = False) -> CardView:
    """A card as a hand or the maze shows it; path exits after `rotated`. A new dict, but
    its lists (exits, segments ...) are shared by every view of that card: read-only."""
    # Keyed by the spec's identity: hashing a CardSpec hashes all its segments. The entry
    # holds the spec, so its id is never reused while the entry lives.
    found = _CARD_DICTS.get((id(spec), rotated))
    if found is None:
        found = _CARD_DICTS[(id(spec), rotated)] = (spec, _card_json(spec, rotated))
    return found[1].copy()


# Each card's dict, built once per card and side: a late maze's 25 cards were rebuilt on
# every view. Bounded by the catalogues (a few hundred specs, two sides each).
_CARD_DICTS: dict[tuple[int, bool], tuple[CardSpec, CardView]] = {}


def _card_json(spec: CardSpec, rotated: bool) -> CardView:
    data: CardView = {"id": spec.id, "kind": spec.kind, "name": spec.name}
    if spec.segments:
        segments = spec.oriented(rotated)
        data["exits"] = names_of(spec.oriented_exits(rotated))
        data["segments"] = [names_of(s.exits) for s in segments]
        data["dead_end"] = spec.dead_end
        doors = sorted({s.door for s in segments if s.door})
        if doors:
            data["door"] = doors[0]
            data["door_segments"] = [names_of(s.exits) for s in segments if s.door]
        if any(s.ladder for s in segments):
            data["ladder"] = True
        if spec.crystals:
            data["crystals"] = spec.crystals
    if spec.kind == "action" and spec.action is not None:  # every action card has one
        data["action"] = spec.action
        data["tools"] = list(spec.tools)
    return data


def _board(state: State, seat: int | None, reveal_all: bool) -> list[JSON]:
    """The maze as `seat` sees it. The public part is rendered once per position (JSON
    text cached on the state), then each seat's mapped goals are filled in.

    A state viewed once (the answer to a move) is only rendered: its text is made, and
    kept, when a second view of the same position asks (emails to every seat)."""
    if reveal_all or round_over(state):
        # The round is over: every goal is shown to everyone (docs/RULES.md "End of a
        # round"), so there is nothing per seat to fill in.
        return _render_board(state, reveal_all=True)
    key = state.position_key()
    cached = state.cache.get("board_text")
    if cached is None or cached[0] != key:
        state.cache["board_text"] = (key, None)
        cells = _render_board(state, reveal_all=False)
    else:
        text = cached[1]
        if text is None:
            text = json.dumps(_render_board(state, reveal_all=False))
            state.cache["board_text"] = (key, text)
        cells = json.loads(text)
    known = [] if seat is None else state.known_goals[seat]
    for cell in cells:
        card = cell["card"]
        if card["goal"] == "hidden":
            index = GOAL_CELLS.index((cell["x"], cell["y"]))
            if index in known:
                card["goal"] = "gold" if state.goal_kinds[index] == "gold" else "stone"
    return cells


def _render_board(state: State, reveal_all: bool) -> list[JSON]:
    # Read from the board itself, not from the maze (board.Maze, the same reading of
    # which cell holds which goal): a move's answer would build the new position's maze
    # for nothing else.
    cards = rules_for(state.ruleset).cards
    cells = []
    for (x, y), (card_id, rotated) in state.board.items():
        goal = _GOAL_INDEX.get((x, y)) if card_id.startswith("goal-") else None
        card: CardView
        if goal is None:
            card = card_json(cards[card_id], rotated)
            card["goal"] = None
        else:
            content = state.goal_kinds[goal]
            result = "gold" if content == "gold" else "stone"
            hidden = not state.goal_revealed[goal]
            if hidden and not reveal_all:
                card = {"id": card_id, "kind": "goal", "name": "Goal", "exits": [],
                        "segments": [], "dead_end": False, "goal": "hidden"}
            else:
                card = card_json(GOAL_CONTENTS[content], rotated)
                card["id"], card["kind"], card["goal"] = card_id, "goal", result
            card["revealed"] = not hidden
            if hidden and round_over(state):
                card["shown"] = True  # face down when the round ended, shown since
        card["rotated"] = rotated
        cells.append({"x": x, "y": y, "card": card})
    return cells


_GOAL_INDEX = {cell: i for i, cell in enumerate(GOAL_CELLS)}


def round_over(state: State) -> bool:
    """Whether the maze on the table is that of a round that has ended (the gold is
    handed out, the thieves steal, or the game is over): its goals are all shown."""
    return state.phase != "play"


# The keys an event keeps its secret under (engine README "Log events"): no other key
# of an event starts with "_" (tests/engine checks every key of self-played logs).
PRIVATE_KEYS = ("_secret", "_to", "_at_end")


def redact(event: Event, seat: int | None, finished: bool) -> Event:
    """The event as `seat` may see it: without its private keys, with its secret fields
    for the seats in `_to` (and for everyone at game end if `_at_end`)."""
    shown = dict(event)
    secret = shown.pop("_secret", None)
    if secret is None:
        return shown
    to = shown.pop("_to", ())
    at_end = shown.pop("_at_end", False)
    if (seat is not None and seat in to) or (finished and at_end):
        shown.update(secret)
    return shown


def seat_event(event: Event, seat: int | None, finished: bool) -> Event:
    """A log event as `seat` sees it: the event itself when it has no secret (read-only,
    README "Views"), else its redacted copy."""
    return event if "_secret" not in event else redact(event, seat, finished)


def seat_view(state: State, seat: int | None, *, log: bool = True) -> SeatView:
    """Everything `seat` may know; `seat=None` is a spectator (no hand, no role).
    `log=False` leaves `log` None, for a caller that writes the log itself (the JSON API
    keeps each seat's log as JSON text: games.seatview.core.log_json)."""
    # The view is built from the state's own JSON data (its log events, the ruleset's
    # extras); SeatView names every key it can have (tests/engine/test_types.py).
    return cast(SeatView, _seat_data(state, seat, log=log))


def _seat_data(state: State, seat: int | None, *, log: bool = True) -> JSON:
    if seat is not None and not 0 <= seat < state.seats:
        raise ValueError(f"there is no seat {seat}")
    rules = rules_for(state.ruleset)
    end = state.finished
    players = []
    for s in range(state.seats):
        player: JSON = {"seat": s, "hand_size": len(state.hands[s]),
                        "in_front": [card_json(rules.cards[c]) for c in state.in_front[s]]}
        if end or s == seat:
            player["gold"] = state.scores[s]
        players.append(player)
    data: JSON = {
        "ruleset": state.ruleset,
        "options": dict(state.options),
        "seats": state.seats,
        "seat": seat,
        "round": state.round,
        "rounds": rules.rounds,
        "phase": state.phase,
        "actor": state.actor,
        "finished": end,
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "board": _board(state, seat, reveal_all=False),
        "goals": [_goal(state, i, seat) for i in range(len(GOAL_CELLS))],
        "hand": [] if seat is None else [card_json(rules.cards[c]) for c in state.hands[seat]],
        "role": None if seat is None else state.roles[seat],
        "players": players,
        "gold_offer_size": len(state.gold_offer),
        # Events without a secret (most of a long log) are the state's own, read-only
        # like every log event (README "Views"): no copy of each on every view.
        "log": [seat_event(e, seat, end) for e in state.log] if log else None,
        "round_results": [
            {**{k: e[k] for k in ("round", "reason", "finder", "winners", "roles")},
             # every dwarf card of the round, shown once it has ended (older logs: none)
             "set_aside_roles": list(e.get("set_aside_roles", [])),
             "discarded_roles": list(e.get("discarded_roles", [])),
             # what lay under each goal, top to bottom (older logs: not recorded)
             "goals": list(e.get("goals", []))}
            for e in state.log if e["type"] == "round_end"
        ],
        "scores": state.scores if end else None,
        "winners": _winners(state) if end else None,
    }
    if seat is not None:
        data["gold_cards"] = [{"id": c, "value": GOLD_VALUES[c]} for c in state.gold_won[seat]]
        if state.phase == "gold" and state.picker == seat:
            data["gold_offer"] = [{"id": c, "value": GOLD_VALUES[c]} for c in state.gold_offer]
    data.update(rules.extra_view(state, seat))
    return data


def _goal(state: State, index: int, seat: int | None) -> JSON:
    x, y = GOAL_CELLS[index]
    result = "gold" if state.goal_kinds[index] == "gold" else "stone"
    revealed = state.goal_revealed[index]
    over = round_over(state)
    known = revealed or over or (seat is not None and index in state.known_goals[seat])
    goal: JSON = {"goal": index, "x": x, "y": y, "revealed": revealed,
                  "status": result if known else "hidden"}
    if over and not revealed:
        goal["shown"] = True  # face down when the round ended, shown since
    return goal


def _winners(state: State) -> list[int]:
    scores = state.scores
    best = max(scores)
    return [s for s, v in enumerate(scores) if v == best]


def _unredacted(event: Event) -> Event:
    """An event with its secret fields shown, and whom they were meant for."""
    shown = redact(event, None, False)
    shown.update(event.get("_secret", {}))
    if "_to" in event:
        shown["secret_to"] = event["_to"]
    return shown


def moderator_view(state: State) -> ModeratorView:
    """The whole truth, for moderators only: every hand, role, goal and the deck order."""
    return cast(ModeratorView, _moderator_data(state))


def _moderator_data(state: State) -> JSON:
    rules = rules_for(state.ruleset)
    data = _seat_data(state, None)
    data["board"] = _board(state, None, reveal_all=True)
    data["goals"] = [dict(_goal(state, i, None), status=(
        "gold" if state.goal_kinds[i] == "gold" else "stone"), content=state.goal_kinds[i])
        for i in range(len(GOAL_CELLS))]
    data["hands"] = [[card_json(rules.cards[c]) for c in hand] for hand in state.hands]
    data["roles"] = list(state.roles)
    data["roles_aside"] = list(state.roles_aside)
    data["deck_top_first"] = [card_json(rules.cards[c]) for c in reversed(state.deck)]
    data["discard"] = [card_json(rules.cards[c]) for c in state.discard]
    data["set_aside"] = [card_json(rules.cards[c]) for c in state.set_aside]
    data["known_goals"] = [list(k) for k in state.known_goals]
    data["gold_pile_top_first"] = [{"id": c, "value": GOLD_VALUES[c]}
                                   for c in reversed(state.gold_pile)]
    data["gold_offer"] = [{"id": c, "value": GOLD_VALUES[c]} for c in state.gold_offer]
    data["gold_won"] = [[{"id": c, "value": GOLD_VALUES[c]} for c in won]
                        for won in state.gold_won]
    data["scores"] = state.scores
    data["log"] = [_unredacted(e) for e in state.log]
    data.update(rules.extra_view(state, None, moderator=True))
    return data
