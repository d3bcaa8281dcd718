"""RULES.md Part 1, "Placing a path card" and "Reaching a goal": legal and illegal sides."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, apply, legal_moves, view

from .helpers import chain_to, position

NS, EW, NE, NW, CROSS = "p01", "p05", "p08", "p13", "p27"
DEAD_EW, DEAD_N = "p35", "p32"
BROKEN_PICKAXE, REPAIR_PICKAXE = "a01", "a10"


def place(state, card, x, y, *, rotated=False):
    return apply(state, {"type": "place", "card": card, "x": x, "y": y, "rotated": rotated})


def refused(state, move) -> IllegalMove:
    before = state.to_json()
    with pytest.raises(IllegalMove) as caught:
        apply(state, move)
    assert state.to_json() == before, "an illegal move changed the state"
    assert move not in legal_moves(state)
    return caught.value


def test_straight_along_axis_fits_east_of_start() -> None:
    state = position(hands={0: [EW]})
    after = place(state, EW, 1, 0)
    assert after.board[(1, 0)] == (EW, False)
    assert after.turn == 1 and len(after.hands[0]) == len(state.hands[0])  # drew one


def test_wall_meeting_tunnel_is_refused_with_a_readable_message() -> None:
    state = position(hands={0: [NS]})
    error = refused(state, {"type": "place", "card": NS, "x": 1, "y": 0, "rotated": False})
    assert error.code == "edges_mismatch"
    assert error.message == ("That card has a wall on its west side, but the card to its west "
                             "has a tunnel there.")
    assert error.params == {"side": "west", "card_has": "wall"}
    assert error.to_json()["params"] == error.params


def test_tunnel_meeting_wall_is_refused() -> None:
    # A N-S tunnel at (0, -1); an E-W tunnel at (1, -1) would push a tunnel into its wall.
    state = position(hands={0: [EW]}, board={(0, -1): (NS, False)})
    error = refused(state, {"type": "place", "card": EW, "x": 1, "y": -1, "rotated": False})
    assert error.code == "edges_mismatch"
    assert "tunnel on its west side" in error.message


def test_rotation_turns_a_card_half_round() -> None:
    state = position(hands={0: [NE]})
    # Curve N-E printed has a wall on W: refused east of the start ...
    assert refused(state, {"type": "place", "card": NE, "x": 1, "y": 0,
                           "rotated": False}).code == "edges_mismatch"
    # ... turned it is S-W, its W meets the start's E tunnel.
    after = place(state, NE, 1, 0, rotated=True)
    cell = next(c for c in view(after, 0)["board"] if (c["x"], c["y"]) == (1, 0))
    assert cell["card"]["exits"] == ["S", "W"] and cell["card"]["rotated"] is True


def test_cell_must_be_empty_and_next_to_the_maze() -> None:
    state = position(hands={0: [CROSS]})
    assert refused(state, {"type": "place", "card": CROSS, "x": 0, "y": 0,
                           "rotated": False}).code == "cell_occupied"
    assert refused(state, {"type": "place", "card": CROSS, "x": 3, "y": 3,
                           "rotated": False}).code == "not_adjacent"


def test_dead_end_exit_meeting_a_live_tunnel_counts_as_connected() -> None:
    state = position(hands={0: [DEAD_EW]})
    assert place(state, DEAD_EW, 1, 0).board[(1, 0)] == (DEAD_EW, False)


def test_card_beyond_a_dead_end_has_no_connection() -> None:
    state = position(hands={0: [EW]}, board={(1, 0): (DEAD_EW, False)})
    error = refused(state, {"type": "place", "card": EW, "x": 2, "y": 0, "rotated": False})
    assert error.code == "no_connection"
    assert "start card" in error.message


def test_card_touching_only_a_cut_off_branch_has_no_connection() -> None:
    # (2, 0) is left over from a rockfall at (1, 0): it touches nothing live.
    state = position(hands={0: [EW]}, board={(2, 0): (CROSS, False)})
    assert refused(state, {"type": "place", "card": EW, "x": 3, "y": 0,
                           "rotated": False}).code == "no_connection"


def test_face_down_goal_needs_no_agreement() -> None:
    chain = {(x, 0): (f"p{26 + x:02d}", False) for x in range(1, 6)}  # crosses p27..p31
    chain.update({(5, -1): (NW, True), (6, -1): ("p06", False), (7, -1): ("p07", False)})
    # Two gold crosses: were agreement checked, the walls of E-W would clash with them.
    state = position(board=chain, hands={0: [EW]}, goals=["gold", "gold", "stone-ne"])
    # E-W tunnel at (8, -1): walls face the gold crosses above and below it.
    after = place(state, EW, 8, -1)
    assert after.goal_revealed == [False, False, False]
    assert after.phase == "play"


def test_broken_tool_forbids_path_cards_but_not_other_plays() -> None:
    state = position(hands={0: [EW, REPAIR_PICKAXE]}, in_front={0: [BROKEN_PICKAXE]})
    error = refused(state, {"type": "place", "card": EW, "x": 1, "y": 0, "rotated": False})
    assert error.code == "tool_broken" and "pickaxe" in error.message
    kinds = {m["type"] for m in legal_moves(state)}
    assert "place" not in kinds and {"action", "pass"} <= kinds
    # Repairing yourself takes the turn: building waits for the next one.
    after = apply(state, {"type": "action", "card": REPAIR_PICKAXE, "target": 0,
                          "tool": "pickaxe"})
    assert after.in_front[0] == [] and after.turn == 1


def test_only_path_cards_from_your_hand_can_be_placed() -> None:
    state = position(hands={0: [REPAIR_PICKAXE]})
    assert refused(state, {"type": "place", "card": REPAIR_PICKAXE, "x": 1, "y": 0,
                           "rotated": False}).code == "wrong_card"
    assert refused(state, {"type": "place", "card": "p31", "x": 1, "y": 0,
                           "rotated": False}).code == "card_not_in_hand"


@pytest.mark.parametrize(("stone", "rotated"), [("stone-nw", False), ("stone-ne", True)])
def test_stone_turns_to_meet_a_tunnel_from_the_west(stone: str, *, rotated: bool) -> None:
    state = position(board=chain_to(6), hands={0: [EW]}, goals=["gold", stone, "stone-nw"])
    after = place(state, EW, 7, 0)
    assert after.goal_revealed == [False, True, False]
    assert after.board[(8, 0)] == ("goal-1", rotated)
    goal = next(c for c in view(after, 2)["board"] if (c["x"], c["y"]) == (8, 0))["card"]
    assert goal["goal"] == "stone" and "W" in goal["exits"]
    assert after.phase == "play" and after.turn == 1


@pytest.mark.parametrize("stone", ["stone-nw", "stone-ne"])
@pytest.mark.parametrize("from_north", [True, False])
def test_stone_reached_from_north_or_south_turns_to_meet_the_tunnel(stone: str,
                                                                     *, from_north: bool) -> None:
    side = -1 if from_north else 1
    state = position(board=chain_to(7, y=side), hands={0: ["p09", "p14"]},
                     goals=["gold" if not from_north else "stone-nw", stone,
                            "gold" if from_north else "stone-ne"])
    # From above: curve N-E turned (S-W) at (8, -1); from below: curve N-W at (8, 1).
    card, rotated = ("p09", True) if from_north else ("p14", False)
    after = place(state, card, 8, side, rotated=rotated)
    assert after.goal_revealed == [False, True, False]
    assert after.board[(8, 0)] == ("goal-1", not from_north)
    goal = next(c for c in view(after, 1)["board"] if (c["x"], c["y"]) == (8, 0))["card"]
    assert ("N" if from_north else "S") in goal["exits"]


@pytest.mark.parametrize(("stone", "arriving", "rotated"), [
    ("stone-nw", "W", False), ("stone-nw", "N", False), ("stone-nw", "E", True),
    ("stone-nw", "S", True), ("stone-ne", "E", False), ("stone-ne", "N", False),
    ("stone-ne", "W", True), ("stone-ne", "S", True),
])
def test_stone_orientation_table(stone: str, arriving: str, *, rotated: bool) -> None:
    from games.engine.geometry import BY_NAME, DELTA
    from games.engine.rules.base import BaseRules

    direction = BY_NAME[arriving]
    dx, dy = DELTA[direction]
    placed = (8 + dx, 0 + dy)
    assert BaseRules.stone_rotation(stone, direction, placed, (8, 0)) is rotated


def test_card_not_next_to_the_goal_can_reveal_it_by_reconnecting_a_branch() -> None:
    board = chain_to(7, gap=3)  # what a rockfall at (3, 0) leaves behind
    state = position(board=board, hands={0: [EW]}, goals=["stone-nw", "stone-ne", "gold"])
    after = place(state, EW, 3, 0)
    assert after.goal_revealed == [False, True, False]
    assert after.log[-1]["type"] == "reveal" and after.log[-1]["goal"] == 1


def test_one_card_can_turn_two_goals_and_gold_ends_the_round() -> None:
    board = chain_to(7, y=-1)
    state = position(board=board, hands={0: ["p20"]}, goals=["stone-ne", "gold", "stone-nw"],
                     roles=["gold-digger", "saboteur", "gold-digger", "gold-digger"])
    after = place(state, "p20", 8, -1, rotated=True)  # T turned: N, S and W
    reveals = [e["goal"] for e in after.log if e["type"] == "reveal"]
    assert sorted(reveals) == [0, 1]
    assert after.phase == "gold" and after.finder == 0 and after.picker == 0
    end = after.log[-1]
    assert end["type"] == "round_end" and end["winners"] == "gold-diggers"
    assert end["roles"] == after.roles


def test_revealed_stone_is_an_ordinary_face_up_card_for_later_placements() -> None:
    state = position(board=chain_to(6), hands={0: [EW], 1: [NS]},
                     goals=["gold", "stone-nw", "stone-ne"])
    after = place(state, EW, 7, 0)  # stone N-W turned as printed: exits N and W
    # South of it is (8, 1): a N-S tunnel there would push a tunnel into its wall.
    moves = legal_moves(after)
    assert {"type": "place", "card": NS, "x": 8, "y": 1, "rotated": False} not in moves
    error = refused(after, {"type": "place", "card": NS, "x": 8, "y": 1, "rotated": False})
    assert error.code == "edges_mismatch" and "north" in error.message


def test_revealed_stone_may_mismatch_old_neighbours() -> None:
    board = chain_to(6)
    board[(8, -1)] = ("p01", False)  # N-S tunnel above the middle goal, cut off
    state = position(board=board, hands={0: [EW]}, goals=["gold", "stone-ne", "stone-nw"])
    after = place(state, EW, 7, 0)  # stone N-E turned: S-W; its wall faces the N-S tunnel
    assert after.board[(8, 0)] == ("goal-1", True)
    assert after.phase == "play"
