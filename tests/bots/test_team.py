"""Team play for diggers (games/bots/strong/team.py, issue 50 item 4): a digger's
look-ahead scores what its side knows too, its teammates read from the joint belief,
so it does not map the goal a likely teammate has just mapped."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.bots import choose_move
from games.bots.strong import choose_strong
from games.bots.strong.joint import joint_belief
from games.bots.strong.team import line_uncertainty, map_bonus, side, uncertainty
from games.engine import Move, State, apply, legal_moves, new_game, view

MAPPER, ME = 0, 1  # seat 0 plays first, then the bot
DEAD_ENDS = ("p33", "p35")


def give(state: State, seat: int, cards: list[str]) -> None:
    """Put `cards` in `seat`'s hand, swapped with its first cards wherever they lie."""
    hand = state.hands[seat]
    for index, card in enumerate(cards):
        if card in hand:
            continue
        pile = next(p for p in [state.deck, *state.hands] if card in p)
        where = pile.index(card)
        pile[where], hand[index] = hand[index], pile[where]


def pass_last(state: State) -> State:
    return apply(state, {"type": "pass", "card": state.hands[state.actor or 0][-1]})


def position(before: Callable[[State], State]) -> State:
    """Base, 5 seats (4 gold-diggers, 2 saboteurs, one card set aside); the bot (seat 1,
    a gold-digger) holds a map and nothing that digs; `before` plays the moves up to
    its turn."""
    state = new_game(5, 3)
    state.roles = ["gold-digger", "gold-digger", "gold-digger", "saboteur", "gold-digger"]
    state.roles_aside = ["saboteur"]
    give(state, MAPPER, ["a22", *DEAD_ENDS])
    give(state, ME, ["a23", "p38", "p39", "p40", "a10", "a12"])
    state = before(state)
    assert state.actor == ME
    return state


def maps_middle(state: State) -> State:
    return apply(state, {"type": "map", "card": "a22", "goal": 1})


def blocks_then_maps_middle(state: State) -> State:
    """Two dead ends by the start (a lap of passes after each), then the map."""
    for _ in DEAD_ENDS:
        state = apply(state, next(m for m in legal_moves(state)
                                  if m["type"] == "place" and m["card"] in DEAD_ENDS))
        for _ in range(4):
            state = pass_last(state)
    return maps_middle(state)


def looks(state: State) -> tuple[list[Move], float]:
    """The bot's maps and passes, and how likely it believes the mapper a gold-digger."""
    moves = [m for m in legal_moves(state) if m["type"] in ("map", "pass")]
    joint = joint_belief(view(state, ME))
    assert joint is not None
    return moves, joint.marginal(MAPPER)["gold-digger"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_digger_does_not_map_the_goal_a_likely_teammate_just_mapped(seed: int) -> None:
    state = position(maps_middle)
    moves, teammate = looks(state)
    assert teammate > 0.6  # a first map is a digger's move more often than not
    seen = view(state, ME)
    assert choose_move(seen, moves, seed)["goal"] == 1  # the normal bot: the nearest goal
    assert choose_strong(seen, moves, seed, algorithm="joint")["goal"] == 1  # alone
    chosen = choose_strong(seen, moves, seed, algorithm="team")
    assert chosen["type"] == "map" and chosen["goal"] != 1


def test_with_nobody_s_map_before_it_the_team_player_maps_like_the_others() -> None:
    state = position(pass_last)
    moves, _ = looks(state)
    seen = view(state, ME)
    assert choose_strong(seen, moves, 0, algorithm="team")["goal"] \
        == choose_move(seen, moves, 0)["goal"] == 1


def test_a_map_by_a_likely_saboteur_hardly_counts_for_the_side() -> None:
    """How much the bot's map on another goal is preferred to one on the mapped goal
    (score points) follows the belief that the mapper is on its side."""
    gaps = []
    for before, likely in ((maps_middle, True), (blocks_then_maps_middle, False)):
        state = position(before)
        moves, teammate = looks(state)
        assert (teammate > 0.6) if likely else (teammate < 0.1)
        seen = view(state, ME)
        joint = joint_belief(seen)
        assert joint is not None
        bonus = map_bonus(seen, moves, joint, joint.gold())
        on = {int(moves[i]["goal"] or 0): points for i, points in bonus.items()}
        gaps.append(on[0] - on[1])
    assert gaps[0] > 0.8  # twice the normal bot's 0.4 for the nearer goal
    assert 0 < gaps[1] < 0.1 * gaps[0]


def test_what_the_side_knows_of_the_gold() -> None:
    gold = [1 / 3] * 3
    assert uncertainty([], gold) == pytest.approx(1.5849625)  # log2(3) bits
    assert uncertainty([1], gold) == pytest.approx(2 / 3)  # stone there: 1 bit, 2/3 of the time
    assert uncertainty([0, 1], gold) == 0.0  # two goals seen: the side knows
    assert uncertainty([2], [0.0, 0.0, 1.0]) == 0.0


def test_sides() -> None:
    roles = ["blue-digger", "green-digger", "boss", "saboteur", "blue-digger", "profiteer"]
    assert side(roles, 0, "blue-digger") == [0, 2, 4]
    assert side(roles, 2, "boss") == [0, 1, 2, 4]
    assert side(["gold-digger", "saboteur", "gold-digger"], 0, "gold-digger") == [0, 2]


def test_a_teammate_s_map_counts_half_at_a_line_s_end() -> None:
    """What the bot and its side still lack about the gold: a teammate's map of the
    middle goal halves it for the side; a saboteur's counts for nothing."""
    state = new_game(5, 3)
    state.roles = ["gold-digger", "gold-digger", "gold-digger", "saboteur", "gold-digger"]
    gold = [1 / 3] * 3
    alone = line_uncertainty(state, 1, "gold-digger", gold)
    assert alone == pytest.approx(1.5849625)
    state.known_goals[3] = [1]  # the saboteur looked
    assert line_uncertainty(state, 1, "gold-digger", gold) == pytest.approx(alone)
    state.known_goals[0] = [1]  # a gold-digger looked
    assert line_uncertainty(state, 1, "gold-digger", gold) \
        == pytest.approx(alone / 2 + uncertainty([1], gold) / 2)
    state.known_goals[1] = [1]  # the bot looks there too: no better for the side
    assert line_uncertainty(state, 1, "gold-digger", gold) == pytest.approx(2 / 3)
    state.known_goals[1] = [0]  # under another goal instead: the side knows
    assert line_uncertainty(state, 1, "gold-digger", gold) == pytest.approx(1 / 3)
