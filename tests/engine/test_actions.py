"""RULES.md Part 1 "Action cards", passing, turn order and the two kinds of error."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, MalformedMove, apply, legal_moves, new_game, view

from .helpers import position, seen_log

BROKEN = {"pickaxe": "a01", "lantern": "a04", "cart": "a07"}
REPAIR = {"pickaxe": "a10", "lantern": "a12", "cart": "a14"}
REPAIR_PICK_OR_LANTERN = "a16"
ROCKFALL, MAP = "a19", "a22"


def refused(state, move, code: str) -> IllegalMove:
    before = state.to_json()
    with pytest.raises(IllegalMove) as caught:
        apply(state, move)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message and caught.value.message[0].isupper()
    assert state.to_json() == before
    return caught.value


def action(card: str, target: int, tool: str | None = None) -> dict:
    move = {"type": "action", "card": card, "target": target}
    if tool:
        move["tool"] = tool
    return move


@pytest.mark.parametrize("target", [0, 2])
def test_broken_tool_can_be_played_on_anyone_including_yourself(target: int) -> None:
    state = position(hands={0: [BROKEN["lantern"]]})
    after = apply(state, action(BROKEN["lantern"], target))
    assert after.in_front[target] == [BROKEN["lantern"]]
    assert view(after, 3)["players"][target]["in_front"][0]["name"] == "Broken lantern"


def test_second_broken_tool_of_the_same_kind_is_refused_other_kinds_allowed() -> None:
    state = position(hands={0: ["a02", BROKEN["cart"]]}, in_front={1: [BROKEN["pickaxe"]]})
    refused(state, action("a02", 1), "already_broken")
    assert action("a02", 1) | {"tool": "pickaxe"} not in legal_moves(state)
    after = apply(state, action(BROKEN["cart"], 1))
    assert sorted(after.in_front[1]) == sorted([BROKEN["pickaxe"], BROKEN["cart"]])


def test_repair_discards_both_cards() -> None:
    state = position(hands={0: [REPAIR["cart"]]}, in_front={2: [BROKEN["cart"]]})
    after = apply(state, action(REPAIR["cart"], 2))
    assert after.in_front[2] == []
    assert after.discard[-2:] == [REPAIR["cart"], BROKEN["cart"]]


def test_repair_needs_the_matching_broken_tool() -> None:
    state = position(hands={0: [REPAIR["cart"]]}, in_front={2: [BROKEN["lantern"]]})
    refused(state, action(REPAIR["cart"], 2), "nothing_to_repair")
    refused(state, action(REPAIR["cart"], 1), "nothing_to_repair")
    assert not [m for m in legal_moves(state) if m["type"] == "action"]


def test_double_repair_fixes_exactly_the_chosen_tool() -> None:
    state = position(hands={0: [REPAIR_PICK_OR_LANTERN]},
                     in_front={1: [BROKEN["pickaxe"], BROKEN["lantern"]]})
    refused(state, action(REPAIR_PICK_OR_LANTERN, 1), "tool_required")
    refused(state, action(REPAIR_PICK_OR_LANTERN, 1, "cart"), "tool_mismatch")
    after = apply(state, action(REPAIR_PICK_OR_LANTERN, 1, "lantern"))
    assert after.in_front[1] == [BROKEN["pickaxe"]]
    options = [m for m in legal_moves(state) if m["type"] == "action"]
    assert {m["tool"] for m in options} == {"pickaxe", "lantern"}


def test_double_repair_infers_the_only_fixable_tool() -> None:
    state = position(hands={0: [REPAIR_PICK_OR_LANTERN]}, in_front={1: [BROKEN["pickaxe"]]})
    assert apply(state, action(REPAIR_PICK_OR_LANTERN, 1)).in_front[1] == []


def test_action_on_a_seat_that_does_not_exist() -> None:
    state = position(hands={0: [BROKEN["cart"]]})
    refused(state, action(BROKEN["cart"], 4), "bad_target")


def test_rockfall_removes_a_path_card_and_leaves_cut_off_cards() -> None:
    state = position(hands={0: [ROCKFALL]}, board={(1, 0): ("p27", False),
                                                   (2, 0): ("p28", False)})
    after = apply(state, {"type": "rockfall", "card": ROCKFALL, "x": 1, "y": 0})
    assert (1, 0) not in after.board and after.board[(2, 0)] == ("p28", False)
    assert after.discard[-2:] == [ROCKFALL, "p27"]
    assert after.log[-1]["removed"] == "p27"


def test_rockfall_cannot_remove_start_goals_or_empty_cells() -> None:
    state = position(hands={0: [ROCKFALL]})
    refused(state, {"type": "rockfall", "card": ROCKFALL, "x": 0, "y": 0}, "not_removable")
    refused(state, {"type": "rockfall", "card": ROCKFALL, "x": 8, "y": 0}, "not_removable")
    refused(state, {"type": "rockfall", "card": ROCKFALL, "x": 3, "y": 3}, "nothing_there")
    assert not [m for m in legal_moves(state) if m["type"] == "rockfall"]


def test_rockfall_cannot_remove_a_revealed_stone() -> None:
    state = position(hands={0: [ROCKFALL]}, goals=["gold", "stone-nw", "stone-ne"])
    state.goal_revealed[1] = True
    refused(state, {"type": "rockfall", "card": ROCKFALL, "x": 8, "y": 0}, "not_removable")


def test_map_result_is_private_and_lasts_the_round() -> None:
    state = position(hands={0: [MAP]}, goals=["stone-ne", "gold", "stone-nw"])
    after = apply(state, {"type": "map", "card": MAP, "goal": 1})
    mine, theirs = view(after, 0), view(after, 1)
    assert mine["log"] is not None and theirs["log"] is not None  # asked for with their logs
    assert mine["goals"][1]["status"] == "gold" and theirs["goals"][1]["status"] == "hidden"
    assert mine["log"][-1]["result"] == "gold" and "result" not in theirs["log"][-1]
    assert theirs["log"][-1]["goal"] == 1  # everyone sees which goal was looked at
    cell = next(c for c in mine["board"] if (c["x"], c["y"]) == (8, 0))
    assert cell["card"]["goal"] == "gold" and cell["card"]["exits"] == []
    assert MAP in after.discard


def test_map_only_on_face_down_goals() -> None:
    state = position(hands={0: [MAP]})
    state.goal_revealed[2] = True
    refused(state, {"type": "map", "card": MAP, "goal": 2}, "goal_revealed")
    refused(state, {"type": "map", "card": MAP, "goal": 3}, "bad_goal")
    assert {m["goal"] for m in legal_moves(state) if m["type"] == "map"} == {0, 1}


def test_pass_is_face_down_and_draws() -> None:
    state = position(hands={0: ["p05", "a22"]})
    top = state.deck[-1]
    after = apply(state, {"type": "pass", "card": "a22"})
    assert after.hands[0] == ["p05", top] and after.discard[-1] == "a22"
    assert seen_log(after, 0)[-1]["card"] == "a22"
    assert "card" not in seen_log(after, 1)[-1] and "card" not in seen_log(after, None)[-1]


def test_pass_needs_a_card_unless_the_hand_is_empty() -> None:
    state = position(hands={0: ["p05"]})
    refused(state, {"type": "pass", "card": None}, "must_discard")
    refused(state, {"type": "pass"}, "must_discard")
    empty = position(hands={0: []}, deck=[])
    empty.deck.clear()
    assert legal_moves(empty) == [{"type": "pass", "card": None}]
    assert apply(empty, {"type": "pass", "card": None}).turn == 1


def test_no_draw_when_the_deck_is_empty() -> None:
    state = position(hands={0: ["p05", "a22"]})
    state.deck.clear()
    after = apply(state, {"type": "pass", "card": "a22"})
    assert after.hands[0] == ["p05"]


def test_turns_go_in_seat_order_and_wrap() -> None:
    state = new_game(3, 5)
    seen = []
    for _ in range(4):
        seen.append(state.turn)
        state = apply(state, {"type": "pass", "card": state.hands[state.turn][0]})
    assert seen == [0, 1, 2, 0]


def test_move_naming_another_seat_is_not_your_turn() -> None:
    state = new_game(3, 5)
    error = refused(state, {"type": "pass", "card": state.hands[1][0], "seat": 1},
                    "not_your_turn")
    assert "seat 0" in error.message


def test_pick_gold_outside_the_gold_phase_is_the_wrong_phase() -> None:
    refused(new_game(3, 5), {"type": "pick_gold", "card": "gold-01"}, "wrong_phase")


@pytest.mark.parametrize(("move", "code"), [
    ("pass", "not_an_object"),
    ({}, "missing_type"),
    ({"type": 3}, "missing_type"),
    ({"type": "dance"}, "unknown_move_type"),
    ({"type": "place", "card": "p01", "x": 1}, "missing_field"),
    ({"type": "place", "card": "p01", "x": 1, "y": "0"}, "bad_field"),
    ({"type": "place", "card": "p01", "x": True, "y": 0}, "bad_field"),
    ({"type": "place", "card": "p01", "x": 1, "y": 0, "rotated": 1}, "bad_field"),
    ({"type": "place", "card": "p01", "x": 1, "y": 0, "rotate": True}, "unknown_field"),
    ({"type": "place", "card": "p99", "x": 1, "y": 0}, "unknown_card"),
    ({"type": "pass", "card": 7}, "bad_field"),
])
def test_malformed_moves_are_refused_with_a_stable_code(move: object, code: str) -> None:
    state = new_game(4, 1)
    before = state.to_json()
    with pytest.raises(MalformedMove) as caught:
        apply(state, move)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert state.to_json() == before


def test_apply_never_changes_its_input() -> None:
    state = new_game(5, 9)
    before = state.to_json()
    for move in legal_moves(state):
        apply(state, move)
    assert state.to_json() == before
