"""RULES.md Part 1 "End of a round", gold handing-out, payouts, rounds 2-3, game end."""

from __future__ import annotations

from typing import cast

import pytest

from games.engine import IllegalMove, apply, legal_moves, new_game, view
from games.engine.cards import GOLD_VALUES
from games.engine.rules.gold import exact_payment

from .helpers import chain_to, position, seen_log

D, S = "gold-digger", "saboteur"


def gold_found_by(turn: int, roles: list[str], options: dict | None = None,
                  in_front: dict | None = None):
    """Seat `turn` places an E-W tunnel at (7, 0) next to the gold in the middle."""
    state = position(seats=len(roles), turn=turn, board=chain_to(6), hands={turn: ["p05"]},
                     goals=["stone-nw", "gold", "stone-ne"], roles=roles, options=options,
                     in_front=in_front)
    return apply(state, {"type": "place", "card": "p05", "x": 7, "y": 0, "rotated": False})


def pick_all(state) -> list[int]:
    pickers = []
    while state.phase == "gold":
        pickers.append(state.actor)
        state = apply(state, legal_moves(state)[0])
    return pickers


def test_gold_ends_the_round_and_the_finder_picks_first_then_counter_clockwise() -> None:
    state = gold_found_by(0, [D, S, D, D])
    assert state.phase == "gold" and state.round == 1
    assert len(state.gold_offer) == 4  # as many cards as players
    assert [m["type"] for m in legal_moves(state)] == ["pick_gold"] * 4
    # 0 first, then 3, 2 (1 is a saboteur and skipped), then round again to 0.
    assert pick_all(state) == [0, 3, 2, 0]


def test_picker_sees_the_offer_others_do_not() -> None:
    state = gold_found_by(0, [D, S, D, D])
    assert len(view(state, 0)["gold_offer"]) == 4
    assert "gold_offer" not in view(state, 3) and view(state, 3)["gold_offer_size"] == 4


def test_saboteur_finding_the_gold_gives_first_pick_to_the_next_digger_counter_clockwise(
) -> None:
    state = gold_found_by(2, [D, D, S, D])
    assert pick_all(state) == [1, 0, 3, 1]


def test_gold_card_count_can_follow_the_number_of_diggers() -> None:
    state = gold_found_by(0, [D, S, D, D, S], options={"gold_cards": "diggers"})
    assert len(state.gold_offer) == 3


def test_gold_cards_are_at_most_nine() -> None:
    roles = [D, S, D, D, S, D, D, S, D, D]
    state = gold_found_by(0, roles)
    assert len(state.gold_offer) == 9


def test_sabotaged_digger_gets_no_gold_with_the_option() -> None:
    state = gold_found_by(0, [D, S, D, D], options={"sabotaged_get_no_gold": True},
                          in_front={3: ["a07"]})
    assert pick_all(state) == [0, 2, 0, 2]
    default = gold_found_by(0, [D, S, D, D], in_front={3: ["a07"]})
    assert 3 in pick_all(default)


def test_picks_are_kept_and_secret_until_the_end() -> None:
    state = gold_found_by(0, [D, S, D, D])
    card = state.gold_offer[0]
    after = apply(state, {"type": "pick_gold", "card": card})
    assert after.gold_won[0] == [card]
    assert seen_log(after, 0)[-1]["value"] == GOLD_VALUES[card]
    assert "value" not in seen_log(after, 1)[-1]
    assert "gold" not in view(after, 1)["players"][0]
    with pytest.raises(IllegalMove) as caught:
        apply(after, {"type": "pick_gold", "card": card})
    assert caught.value.code == "not_offered"


def exhaust(roles: list[str], round_: int = 1, last: int = 0):
    """The last card of the round is passed by seat `last`: the round ends by exhaustion."""
    state = position(seats=len(roles), turn=last, roles=roles,
                     hands={s: (["p05"] if s == last else []) for s in range(len(roles))})
    state.deck.clear()
    state.round = round_
    return apply(state, {"type": "pass", "card": "p05"})


def test_exhaustion_pays_a_lone_saboteur_four_nuggets_in_fewest_cards() -> None:
    state = exhaust([D, S, D, D])
    assert sum(GOLD_VALUES[c] for c in state.gold_won[1]) == 4
    assert sorted(GOLD_VALUES[c] for c in state.gold_won[1]) == [1, 3]
    assert all(not state.gold_won[s] for s in (0, 2, 3))
    end = next(e for e in state.log if e["type"] == "round_end")
    assert end["reason"] == "exhausted" and end["winners"] == "saboteurs"


@pytest.mark.parametrize(("roles", "each"), [
    ([S, S, D, D, D], 3), ([S, D, S, D, S, D, D], 3),
    ([S, S, S, S, D, D, D, D, D, D], 2),
])
def test_several_saboteurs_share_as_the_table_says(roles: list[str], each: int) -> None:
    state = exhaust(roles)
    for seat, role in enumerate(roles):
        got = sum(GOLD_VALUES[c] for c in state.gold_won[seat])
        assert got == (each if role == S else 0)


def test_round_without_a_saboteur_pays_nobody() -> None:
    state = exhaust([D, D, D, D])
    assert not any(state.gold_won)
    assert next(e for e in state.log if e["type"] == "round_end")["winners"] == "nobody"


def test_exact_payment_rulings() -> None:
    ones, twos, threes = ("gold-01", "gold-02"), ("gold-17", "gold-18"), ("gold-25",)
    assert exact_payment([*ones, *twos, *threes], 4) == ["gold-25", "gold-02"]
    assert exact_payment(list(twos), 4) == ["gold-18", "gold-17"]
    assert exact_payment(list(twos), 3) == ["gold-18"]  # cannot make 3: pays 2
    assert exact_payment([], 4) == []


def test_next_round_starts_after_the_last_turn_with_a_new_deal() -> None:
    state = exhaust([D, S, D, D], last=2)
    assert state.round == 2 and state.phase == "play" and state.actor == 3
    assert state.board == {(0, 0): ("start", False), (8, -2): ("goal-0", False),
                           (8, 0): ("goal-1", False), (8, 2): ("goal-2", False)}
    assert all(len(h) == 6 for h in state.hands) and state.known_goals == [[], [], [], []]
    assert not set(state.gold_pile) & set(state.gold_won[1])
    assert state.log[-1] == {"type": "round_start", "round": 2, "first": 3}


def test_next_round_after_gold_starts_after_the_finder() -> None:
    state = gold_found_by(1, [D, D, S, D])
    while state.phase == "gold":
        state = apply(state, legal_moves(state)[0])
    assert state.round == 2 and state.actor == 2


def test_roles_are_shown_when_the_round_ends() -> None:
    before = position(seats=4, turn=0, roles=[D, S, D, D],
                      hands={0: ["p05"], 1: [], 2: [], 3: []})
    aside = list(before.roles_aside)
    assert aside  # 4 seats are dealt from 5 dwarf cards: one is set aside
    for seat in (None, 0, 1, 2, 3):  # before the end no view holds the set-aside card
        assert "set_aside_roles" not in str(view(before, seat))
        assert view(before, seat)["round_results"] == []
    state = exhaust([D, S, D, D])
    for seat in (None, 0, 1):
        results = view(state, seat)["round_results"]
        assert results == [{"round": 1, "reason": "exhausted", "finder": None,
                            "winners": "saboteurs", "roles": [D, S, D, D],
                            "set_aside_roles": aside, "discarded_roles": [],
                            "goals": results[0]["goals"]}]
        assert sorted(results[0]["goals"]) == ["gold", "stone", "stone"]
    end = next(e for e in seen_log(state, 2) if e["type"] == "round_end")
    assert end["set_aside_roles"] == aside  # the log's round-end line shows them too


def test_game_ends_after_the_third_round_with_scores_and_shared_wins() -> None:
    state = position(seats=4, turn=0, roles=[D, S, D, D],
                     hands={0: ["p05"], 1: [], 2: [], 3: []})
    state.deck.clear()
    state.round = 3
    state.gold_won[0] = ["gold-25", "gold-17"]  # 5
    state.gold_won[2] = ["gold-26", "gold-01", "gold-02"]  # 5
    for card in state.gold_won[0] + state.gold_won[2]:
        state.gold_pile.remove(card)
    after = apply(state, {"type": "pass", "card": "p05"})
    assert after.finished and after.actor is None and legal_moves(after) == []
    assert after.scores == [5, 4, 5, 0]  # the lone saboteur took 4 at the end of round 3
    final = view(after, 3)
    assert final["winners"] == [0, 2] and final["scores"] == [5, 4, 5, 0]
    assert all("gold" in p for p in final["players"])
    assert final["log"] is not None  # asked for with its log
    assert all("value" in e for e in final["log"] if e["type"] in ("payout", "gold_pick"))
    with pytest.raises(IllegalMove) as caught:
        apply(after, {"type": "pass", "card": None})
    assert caught.value.code == "game_finished"


@pytest.mark.parametrize("seats", range(3, 11))
def test_setup_follows_the_table(seats: int) -> None:
    table = {3: (1, 3, 6), 4: (1, 4, 6), 5: (2, 4, 6), 6: (2, 5, 5), 7: (3, 5, 5),
             8: (3, 6, 4), 9: (3, 7, 4), 10: (4, 7, 4)}
    saboteurs, diggers, hand = table[seats]
    state = new_game(seats, 11)
    dealt = state.roles + state.roles_aside
    assert len(state.roles) == seats and len(state.roles_aside) == 1
    assert dealt.count(S) == saboteurs and dealt.count(D) == diggers
    assert all(len(h) == hand for h in state.hands)
    assert len(state.deck) == 67 - seats * hand
    assert state.actor == 0 and state.round == 1
    assert sorted(state.goal_kinds) == ["gold", "stone-ne", "stone-nw"]


def test_goal_order_depends_on_the_seed_and_the_same_seed_repeats() -> None:
    orders = {tuple(new_game(4, seed).goal_kinds) for seed in range(30)}
    assert len(orders) == 6
    assert new_game(4, 3).to_json() == new_game(4, 3).to_json()


@pytest.mark.parametrize(("args", "message"), [
    ((2, 1), "3 to 10"), ((11, 1), "3 to 10"),
    ((4, 1, "base", {"gold_cards": "all"}), "gold_cards"),
    ((4, 1, "base", {"colour": "red"}), "unknown option"),
    ((4, 1, "chess"), "unknown ruleset"),
])
def test_bad_setup_is_refused(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(*args)


def test_every_goal_is_shown_once_the_round_is_over_and_never_before() -> None:
    """docs/RULES.md "End of a round": the goals still face down are shown too, so the
    table sees where the gold was; a goal shown this way is not turned over."""
    before = position(seats=4, turn=0, roles=[D, S, D, D], hands={0: ["p05"], 1: [], 2: [],
                                                                  3: []},
                      goals=["stone-nw", "stone-ne", "gold"])
    for seat in (None, 0, 1):
        assert [g["status"] for g in view(before, seat)["goals"]] == ["hidden"] * 3
    before.deck.clear()
    before.round = 3
    ended = apply(before, {"type": "pass", "card": "p05"})
    assert ended.finished
    for seat in (None, 0, 1, 3):
        shown = view(ended, seat)
        assert [(g["status"], g["revealed"], g.get("shown")) for g in shown["goals"]] == [
            ("stone", False, True), ("stone", False, True), ("gold", False, True)]
        goals = [c["card"] for c in shown["board"] if c["card"]["kind"] == "goal"]
        assert sorted(cast(str, c["goal"]) for c in goals) == ["gold", "stone", "stone"]
        assert all(c["shown"] and not c["revealed"] and c["exits"] for c in goals)
        assert shown["round_results"][-1]["goals"] == ["stone", "stone", "gold"]
    end = next(e for e in ended.log if e["type"] == "round_end")
    assert end["goals"] == ["stone", "stone", "gold"]


def test_the_goals_of_a_round_won_by_the_gold_are_shown_while_the_gold_is_handed_out(
) -> None:
    state = gold_found_by(0, [D, S, D, D])
    assert state.phase == "gold"
    goals = view(state, 1)["goals"]
    assert [(g["status"], g["revealed"], "shown" in g) for g in goals] == [
        ("stone", False, True), ("gold", True, False), ("stone", False, True)]
    after = pick_all_state(state)
    assert after.phase == "play" and after.round == 2  # the new round's goals are hidden
    assert [g["status"] for g in view(after, 1)["goals"]] == ["hidden"] * 3
    assert view(after, 1)["round_results"][0]["goals"] == ["stone", "gold", "stone"]


def pick_all_state(state):
    while state.phase == "gold":
        state = apply(state, legal_moves(state)[0])
    return state
