"""RULES.md Part 2 (Saboteur 2): a test for every rule and ruling, legal and illegal side."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, apply, legal_moves, new_game, rules_for, view

from .helpers import chain_to, position, seen_log

BLUE, GREEN, BOSS, PROF, GEO, SAB = ("blue-digger", "green-digger", "boss", "profiteer",
                                     "geologist", "saboteur")
BRIDGE, LADDER_S, LADDER_W = "p41", "p45", "p46"
GREEN_DOOR_EW, BLUE_DOOR_EW, BLUE_DOOR_NS = "p50", "p53", "p52"
CRYSTAL_DEAD_W, CRYSTAL_CROSS = "p61", "p69"
THEFT, HANDS_OFF, SWAP_HAND, INSPECT, SWAP_HATS, TRAPPED, FREE_AT_LAST = (
    "a28", "a32", "a35", "a37", "a39", "a41", "a44")
S2 = "saboteur2"


def s2(**kwargs):
    kwargs.setdefault("seats", 5)
    return position(ruleset=S2, **kwargs)


def refused(state, move, code: str) -> IllegalMove:
    before = state.to_json()
    with pytest.raises(IllegalMove) as caught:
        apply(state, move)
    assert caught.value.code == code, caught.value.message
    assert state.to_json() == before and move not in legal_moves(state)
    return caught.value


def place(state, card, x, y, *, rotated=False):
    return apply(state, {"type": "place", "card": card, "x": x, "y": y, "rotated": rotated})


def act(state, card, target):
    return apply(state, {"type": "action", "card": card, "target": target})


# ---- cards and setup -----------------------------------------------------------------


def test_box_holds_base_and_expansion_cards_and_fifteen_dwarves() -> None:
    rules = rules_for(S2)
    kinds = [rules.cards[c].kind for c in rules.deck_cards]
    assert kinds.count("path") == 70 and kinds.count("action") == 48
    assert sorted(rules.dwarf_cards(5)) == sorted(
        [BLUE] * 4 + [GREEN] * 4 + [BOSS, PROF] + [GEO] * 2 + [SAB] * 3)
    assert sum(rules.cards[c].crystals for c in rules.deck_cards) == 10


@pytest.mark.parametrize("seats", range(2, 13))
def test_setup_sets_ten_cards_aside_and_deals_six(seats: int) -> None:
    state = new_game(seats, 4, S2)
    assert len(state.set_aside) == 10 and all(len(h) == 6 for h in state.hands)
    assert len(state.deck) == 118 - 10 - 6 * seats
    assert len(state.roles) == seats and len(state.roles_aside) == 15 - seats
    assert state.actor == 0


@pytest.mark.parametrize("seats", [1, 13])
def test_two_to_twelve_players(seats: int) -> None:
    with pytest.raises(ValueError, match="2 to 12"):
        new_game(seats, 1, S2)


# ---- path cards ------------------------------------------------------------------------


def test_door_only_for_a_gold_digger_of_its_colour() -> None:
    roles = [GREEN, BLUE, SAB, BOSS, GEO]
    state = s2(roles=roles, hands={0: [BLUE_DOOR_EW], 1: [BLUE_DOOR_NS]})
    error = refused(state, {"type": "place", "card": BLUE_DOOR_EW, "x": 1, "y": 0,
                            "rotated": False}, "wrong_team")
    assert "blue gold-digger" in error.message
    state.turn = 1
    assert {"type": "place", "card": BLUE_DOOR_NS, "x": 0, "y": 1, "rotated": False} in \
        legal_moves(state)


def test_bridge_tunnels_never_connect_to_each_other() -> None:
    state = s2(hands={0: ["p01"]}, board={(1, 0): (BRIDGE, False)})
    # The bridge's E-W tunnel is joined to the start; its N-S tunnel is not.
    refused(state, {"type": "place", "card": "p01", "x": 1, "y": -1, "rotated": False},
            "no_connection")
    state2 = s2(hands={0: ["p05"]}, board={(1, 0): (BRIDGE, False)})
    assert place(state2, "p05", 2, 0).board[(2, 0)] == ("p05", False)


def test_ladder_joins_its_tunnels_to_the_start_wherever_it_lies() -> None:
    # A lone ladder far from the start: a card meeting its tunnel is connected.
    state = s2(hands={0: ["p01"]}, board={(3, 4): (LADDER_S, False)})
    after = place(state, "p01", 3, 5)
    assert after.board[(3, 5)] == ("p01", False)


def test_ladder_must_meet_a_tunnel_and_keeps_away_from_goals() -> None:
    # Under the start, a W-only ladder has a wall where the start has a tunnel.
    lonely = s2(hands={0: [LADDER_W]})
    refused(lonely, {"type": "place", "card": LADDER_W, "x": 0, "y": 1, "rotated": False},
            "edges_mismatch")
    # Edges agree (walls meet walls) but no tunnel meets its tunnel: refused.
    wall = s2(hands={0: [LADDER_W]}, board={(0, 1): ("p05", False)})
    refused(wall, {"type": "place", "card": LADDER_W, "x": 0, "y": 2, "rotated": True},
            "ladder_unconnected")
    # Meeting the E-W tunnel at (0, 1) from the east: legal.
    ok = s2(hands={0: [LADDER_W]}, board={(0, 1): ("p05", False)})
    assert place(ok, LADDER_W, 1, 1).board[(1, 1)] == (LADDER_W, False)
    # Next to the top goal at (8, -2), meeting an E-W tunnel at (6, -2): refused.
    near = s2(hands={0: [LADDER_W]}, board={(6, -2): ("p57", False)})
    refused(near, {"type": "place", "card": LADDER_W, "x": 7, "y": -2, "rotated": False},
            "ladder_near_goal")


def test_trapped_players_cannot_dig_or_steal_and_free_at_last_frees_them() -> None:
    state = s2(hands={0: ["p05", THEFT], 1: [FREE_AT_LAST]}, in_front={0: [TRAPPED]})
    refused(state, {"type": "place", "card": "p05", "x": 1, "y": 0, "rotated": False},
            "trapped")
    refused(state, {"type": "action", "card": THEFT, "target": 0}, "bad_target")
    state.turn = 1
    after = act(state, FREE_AT_LAST, 0)
    assert after.in_front[0] == [] and TRAPPED in after.discard


# ---- action cards ----------------------------------------------------------------------


def test_no_two_cards_of_a_kind_in_front_of_a_player() -> None:
    state = s2(hands={0: ["a29", "a42"]}, in_front={0: [THEFT], 2: [TRAPPED]})
    refused(state, {"type": "action", "card": "a29", "target": 0}, "bad_target")
    refused(state, {"type": "action", "card": "a42", "target": 2}, "bad_target")
    assert act(state, "a42", 3).in_front[3] == ["a42"]


def test_theft_goes_in_front_of_yourself() -> None:
    state = s2(hands={0: [THEFT]})
    refused(state, {"type": "action", "card": THEFT, "target": 1}, "bad_target")
    after = act(state, THEFT, 0)
    assert after.in_front[0] == [THEFT] and after.extra["theft_order"] == [0]


def test_hands_off_discards_a_theft() -> None:
    state = s2(hands={0: [HANDS_OFF]}, in_front={2: [THEFT]})
    state.extra["theft_order"] = [2]
    refused(state, {"type": "action", "card": HANDS_OFF, "target": 1}, "bad_target")
    after = act(state, HANDS_OFF, 2)
    assert after.in_front[2] == [] and after.extra["theft_order"] == []
    assert after.discard[-2:] == [THEFT, HANDS_OFF]


def test_swap_your_hand_and_only_the_other_player_draws() -> None:
    state = s2(hands={0: [SWAP_HAND, "p01", "p02"], 1: ["p03", "p04"]})
    top = state.deck[-1]
    refused(state, {"type": "action", "card": SWAP_HAND, "target": 0}, "bad_target")
    after = act(state, SWAP_HAND, 1)
    assert after.hands[0] == ["p03", "p04"]  # ruling: no draw for the player of the card
    assert after.hands[1] == ["p01", "p02", top]


def test_inspection_is_seen_only_by_the_inspector() -> None:
    state = s2(roles=[BLUE, SAB, GREEN, GEO, BOSS], hands={0: [INSPECT]})
    refused(state, {"type": "action", "card": INSPECT, "target": 0}, "bad_target")
    after = act(state, INSPECT, 1)
    assert view(after, 0)["inspected"] == {"1": SAB}
    assert seen_log(after, 0)[-1]["role"] == SAB
    for seat in (1, 2, None):
        assert "role" not in seen_log(after, seat)[-1]
        assert view(after, seat)["inspected"] == {}


def test_swap_your_hats_takes_a_set_aside_dwarf_card() -> None:
    state = s2(roles=[BLUE, SAB, GREEN, GEO, BOSS], hands={0: [SWAP_HATS]})
    new_hat = state.roles_aside[-1]
    aside = len(state.roles_aside)
    after = act(state, SWAP_HATS, 1)
    assert after.roles[1] == new_hat and len(after.roles_aside) == aside - 1
    assert after.extra["hats_discarded"] == [SAB]
    assert view(after, 1)["role"] == new_hat and seen_log(after, 1)[-1]["role"] == new_hat
    assert "role" not in seen_log(after, 0)[-1]
    empty = s2(hands={0: [SWAP_HATS]})
    empty.roles_aside.clear()
    refused(empty, {"type": "action", "card": SWAP_HATS, "target": 0}, "bad_target")


def test_round_end_shows_every_dwarf_card_set_aside_and_discarded_only_then() -> None:
    state = s2(roles=[BLUE, SAB, GREEN, GEO, BOSS], hands={0: [SWAP_HATS]})
    swapped = act(state, SWAP_HATS, 1)
    aside = list(swapped.roles_aside)
    for seat in (None, 0, 1, 2, 3, 4):  # no view showed them before the end
        shown = view(swapped, seat)
        assert shown["round_results"] == []
        assert "set_aside_roles" not in str(shown) and "discarded_roles" not in str(shown)
    swapped.deck.clear()
    for seat in range(5):
        swapped.hands[seat] = []
    swapped.hands[swapped.turn] = ["p05"]
    ended = apply(swapped, {"type": "pass", "cards": ["p05"]})
    for seat in (None, 0, 1, 4):
        results = view(ended, seat)["round_results"]
        assert results[0]["roles"] == list(swapped.roles)
        assert results[0]["set_aside_roles"] == aside and len(aside) == 9
        assert results[0]["discarded_roles"] == [SAB]
        end = next(e for e in seen_log(ended, seat) if e["type"] == "round_end")
        assert end["discarded_roles"] == [SAB] and end["set_aside_roles"] == aside


def test_swap_your_hats_on_yourself() -> None:
    state = s2(hands={0: [SWAP_HATS]})
    new_hat = state.roles_aside[-1]
    assert act(state, SWAP_HATS, 0).roles[0] == new_hat


# ---- the four turn options -------------------------------------------------------------


def test_discard_two_to_free_yourself_draws_only_one() -> None:
    state = s2(hands={0: ["p01", "p02", "p03"]}, in_front={0: ["a01"]})
    after = apply(state, {"type": "free", "cards": ["p01", "p02"], "remove": "a01"})
    assert after.in_front[0] == [] and len(after.hands[0]) == 2  # shrinks for good
    assert "cards" not in seen_log(after, 1)[-1] and seen_log(after, 1)[-1]["count"] == 2
    refused(state, {"type": "free", "cards": ["p01"], "remove": "a01"}, "card_count")
    refused(state, {"type": "free", "cards": ["p01", "p02"], "remove": "a02"}, "not_in_front")


def test_pass_one_to_three_cards_and_draw_as_many() -> None:
    state = s2(hands={0: ["p01", "p02", "p03", "p04"]})
    after = apply(state, {"type": "pass", "cards": ["p01", "p02", "p03"]})
    assert len(after.hands[0]) == 4 and after.discard[-3:] == ["p01", "p02", "p03"]
    assert seen_log(after, 2)[-1] == {"type": "pass", "seat": 0, "count": 3}
    refused(state, {"type": "pass", "cards": ["p01", "p02", "p03", "p04"]}, "card_count")
    refused(state, {"type": "pass", "cards": []}, "card_count")
    assert apply(state, {"type": "pass", "card": "p01"}).discard[-1] == "p01"


def test_with_the_deck_empty_nobody_draws_and_empty_hands_pass() -> None:
    state = s2(hands={0: ["p01", "p02"], 1: [], 2: ["p03"], 3: [], 4: []})
    state.deck.clear()
    after = apply(state, {"type": "pass", "cards": ["p01"]})
    assert after.hands[0] == ["p02"] and after.turn == 1
    assert legal_moves(after) == [{"type": "pass", "cards": []}]


# ---- end of the round ------------------------------------------------------------------


def gold_by(finder: int, roles: list[str], board_extra: dict | None = None,
            in_front: dict | None = None):
    """Seat `finder` lays an E-W tunnel at (7, 0), next to the gold in the middle."""
    board = chain_to(6)
    board.update(board_extra or {})
    state = s2(seats=len(roles), roles=roles, turn=finder, board=board,
               hands={finder: ["p05"]}, goals=["stone-nw", "gold", "stone-ne"],
               in_front=in_front)
    return place(state, "p05", 7, 0)


def result(state) -> dict:
    return next(e for e in state.log if e["type"] == "round_end")


ROLES = [BLUE, BLUE, GREEN, GREEN, BOSS, PROF, GEO, SAB]


def test_blue_finder_with_an_open_way_wins_for_blue() -> None:
    after = gold_by(0, ROLES)
    end = result(after)
    assert end["winners"] == "blue" and end["winning_seats"] == [0, 1, 4, 5]
    # 4 winners: 2 each; the boss 1 less, the profiteer 2 less.
    assert after.nuggets[:6] == [2, 2, 0, 0, 1, 0]


def test_mixed_doors_on_the_only_route_give_it_to_the_other_team() -> None:
    doors = {(2, 0): (BLUE_DOOR_EW, False), (4, 0): (GREEN_DOOR_EW, False)}
    blue_found = result(gold_by(0, ROLES, doors))
    assert blue_found["winners"] == "green" and blue_found["winning_seats"] == [2, 3, 4, 5]
    green_found = result(gold_by(2, ROLES, doors))
    assert green_found["winners"] == "blue"
    saboteur_found = result(gold_by(7, ROLES, doors))  # ruling: shut for both, no team
    assert saboteur_found["winners"] == "nobody" and saboteur_found["winning_seats"] == [5]


def test_boss_finding_it_through_doors_of_both_colours_makes_both_teams_win() -> None:
    """RULES.md Part 2 (the Italian note): boss or profiteer finder, every route through
    doors of both colours: both teams win; 6 winners get 1 nugget, boss and profiteer 0."""
    doors = {(2, 0): (BLUE_DOOR_EW, False), (4, 0): (GREEN_DOOR_EW, False)}
    after = gold_by(4, ROLES, doors)
    end = result(after)
    assert end["winners"] == "blue+green" and end["winning_seats"] == [0, 1, 2, 3, 4, 5]
    assert after.nuggets[:8] == [1, 1, 1, 1, 0, 0, 0, 0]


def test_profiteer_finding_it_through_doors_of_both_colours_makes_both_teams_win() -> None:
    doors = {(2, 0): (GREEN_DOOR_EW, False), (4, 0): (BLUE_DOOR_EW, False)}
    roles = [BLUE, GREEN, PROF, BOSS, SAB]
    after = gold_by(2, roles, doors)
    end = result(after)
    assert end["winners"] == "blue+green" and end["winning_seats"] == [0, 1, 2, 3]
    # 4 winners: 2 each; the boss 1 less, the profiteer 2 less; the saboteur nothing.
    assert after.nuggets == [2, 2, 0, 1, 0]


def test_boss_finding_it_through_a_door_wins_with_that_team() -> None:
    after = gold_by(4, ROLES, {(2, 0): (BLUE_DOOR_EW, False)})
    end = result(after)
    assert end["winners"] == "blue" and end["winning_seats"] == [0, 1, 4, 5]


def test_several_routes_one_without_doors_opens_the_way() -> None:
    """Row 0 passes a green door; row 1 passes none and climbs into (7, 0) from below."""
    board = {**chain_to(6), (2, 0): (GREEN_DOOR_EW, False), (0, 1): ("p17", False),
             (1, 1): ("p07", False), (2, 1): ("p05", False), (3, 1): ("p41", False),
             (4, 1): ("p42", False), (5, 1): ("p57", False), (6, 1): ("p70", False),
             (7, 1): ("p14", False)}
    state = s2(seats=8, roles=ROLES, turn=0, board=board, hands={0: ["p28"]},
               goals=["stone-nw", "gold", "stone-ne"])
    end = result(place(state, "p28", 7, 0))
    assert end["winners"] == "blue" and end["winning_seats"] == [0, 1, 4, 5]
    del state.board[(6, 1)]  # without the clean route, a blue finder hands it to green
    assert result(place(state, "p28", 7, 0))["winners"] == "green"


def test_saboteur_finding_the_gold_wins_for_every_open_team() -> None:
    end = result(gold_by(7, ROLES))
    assert end["winners"] == "blue+green"
    assert end["winning_seats"] == [0, 1, 2, 3, 4, 5]  # 6 winners: 1 each (boss, prof 0)


def test_geologist_finding_the_gold_makes_both_teams_lose() -> None:
    after = gold_by(6, ROLES, {(3, 0): (CRYSTAL_CROSS, False)})
    end = result(after)
    assert end["winners"] == "nobody" and end["winning_seats"] == [5]
    assert after.nuggets[5] == 3  # the profiteer alone: 5 - 2
    assert after.nuggets[6] == 1  # one crystal on the table


def test_trapped_winner_gets_nothing_and_does_not_count() -> None:
    after = gold_by(0, ROLES, in_front={1: [TRAPPED]})
    end = result(after)
    assert end["winning_seats"] == [0, 4, 5]  # 3 winners: 3 each
    assert after.nuggets[:6] == [3, 0, 0, 0, 2, 1]


def test_two_geologists_split_the_crystals_rounded_down() -> None:
    roles = [BLUE, GEO, GEO, SAB]
    crystals = {(2, 0): (CRYSTAL_CROSS, False), (0, 1): (CRYSTAL_DEAD_W, True),
                (0, -1): ("p62", True)}  # three crystals
    after = gold_by(0, roles, crystals)
    assert after.nuggets[1] == 1 and after.nuggets[2] == 1
    trapped = gold_by(0, roles, crystals, in_front={2: [TRAPPED]})
    assert trapped.nuggets[1] == 3 and trapped.nuggets[2] == 0  # ruling: untrapped split


def test_exhaustion_pays_saboteurs_and_the_profiteer() -> None:
    roles = [SAB, SAB, SAB, PROF, BLUE]
    state = s2(roles=roles, hands={0: ["p01"], 1: [], 2: [], 3: [], 4: []})
    state.deck.clear()
    after = apply(state, {"type": "pass", "cards": ["p01"]})
    end = result(after)
    assert end["reason"] == "exhausted" and end["winners"] == "saboteurs"
    assert after.nuggets == [2, 2, 2, 0, 0]  # 4 winners: 2 each, the profiteer 2 less
    assert after.round == 2 and after.actor == 1


@pytest.mark.parametrize(("winners", "each"), [(1, 5), (2, 4), (3, 3), (4, 2), (5, 1),
                                               (7, 1)])
def test_share_by_number_of_winners(winners: int, each: int) -> None:
    roles = [SAB] * min(winners, 3) + [BLUE] * (8 - min(winners, 3))
    roles = roles[:8]
    state = s2(seats=len(roles), roles=roles, hands={s: [] for s in range(len(roles))})
    state.hands[0] = ["p01"]
    state.deck.clear()
    if winners > 3:
        for seat in range(3, winners):
            roles[seat] = SAB
        state.roles = roles
    after = apply(state, {"type": "pass", "cards": ["p01"]})
    assert [n for n in after.nuggets if n] == [each] * winners


def test_thefts_last_played_first_and_hands_off_cancels_one() -> None:
    roles = [SAB, SAB, SAB, BLUE, GREEN]
    state = s2(roles=roles, turn=3, hands={0: [], 1: [], 2: [], 3: [HANDS_OFF], 4: []},
               in_front={0: [THEFT], 1: ["a29"], 2: ["a30"]})
    state.extra["theft_order"] = [0, 1, 2]
    state.nuggets = [0, 0, 0, 4, 3]
    state.deck.clear()
    after = act(state, HANDS_OFF, 1)  # last card of the round: exhaustion follows
    assert after.phase == "theft" and after.actor == 2  # the last theft played steals first
    assert legal_moves(after) == [{"type": "steal", "target": 0}, {"type": "steal", "target": 1},
                                  {"type": "steal", "target": 3}, {"type": "steal", "target": 4}]
    refused(after, {"type": "steal", "target": 2}, "bad_target")
    after = apply(after, {"type": "steal", "target": 4})
    assert after.actor == 0 and after.nuggets[4] == 2
    after = apply(after, {"type": "steal", "target": 3})
    assert after.phase == "play" and after.round == 2
    assert after.nuggets[:2] == [4, 3]  # 3 each as saboteurs, + 1 stolen by seat 0
    steals = [e for e in after.log if e["type"] == "steal"]
    assert [(e["seat"], e["target"]) for e in steals] == [(2, 4), (0, 3)]


def test_trapped_thief_does_not_steal() -> None:
    state = s2(roles=[SAB, BLUE, BLUE, GREEN, GREEN], hands={0: ["p01"], 1: [], 2: [],
                                                             3: [], 4: []},
               in_front={1: [THEFT, TRAPPED]})
    state.extra["theft_order"] = [1]
    state.nuggets = [1, 1, 1, 1, 1]
    state.deck.clear()
    after = apply(state, {"type": "pass", "cards": ["p01"]})
    assert after.phase == "play" and after.round == 2


def test_roles_are_reshuffled_every_round_and_cards_set_aside_again() -> None:
    state = s2(hands={0: ["p01"], 1: [], 2: [], 3: [], 4: []})
    state.deck.clear()
    after = apply(state, {"type": "pass", "cards": ["p01"]})
    assert after.round == 2 and len(after.set_aside) == 10
    assert len(after.roles) == 5 and len(after.roles_aside) == 10
    assert sorted(after.roles + after.roles_aside) == sorted(rules_for(S2).dwarf_cards(5))
