"""What a player would notice the bots doing: digging to the gold, blocking it, mending
their tools, punishing a player who builds dead ends, taking the best gold card."""

from __future__ import annotations

from games.bots import choose_move
from games.engine import Move, SeatView, State, legal_moves, new_game, view

from .play import bot_turn, play

ROW = ["p05", "p06", "p07", "p27", "p28", "p29"]  # three E-W tunnels, three crossroads


def position(ruleset: str, role: str, hand: list[str], seats: int = 4) -> State:
    """Seat 0 to act with `hand` and `role`; a tunnel from the start to (6, 0), one
    step from the middle goal, which seat 0's map showed to be the gold."""
    state = new_game(seats, 5, ruleset)
    state.board = {cell: entry for cell, entry in state.board.items()
                   if entry[0] == "start" or entry[0].startswith("goal-")}
    for x, card in enumerate(ROW, start=1):
        state.board[(x, 0)] = (card, False)
    state.goal_kinds = ["stone-nw", "gold", "stone-ne"]
    state.known_goals[0] = [1]
    used = set(ROW) | set(hand)
    state.deck = [c for c in state.deck if c not in used]
    for s in range(seats):
        state.hands[s] = [c for c in state.hands[s] if c not in used]
    state.hands[0] = list(hand)
    state.roles[0] = role
    state.in_front = [[] for _ in range(seats)]
    state.cache.clear()
    return state


def bot_move(state: State, seed: int = 1) -> Move:
    return choose_move(view(state, 0), legal_moves(state), seed)


def test_a_gold_digger_digs_into_the_gold_it_knows() -> None:
    state = position("base", "gold-digger", ["p33", "p30", "a22", "a10"])
    assert bot_move(state) == {"type": "place", "card": "p30", "x": 7, "y": 0,
                               "rotated": False}


def test_a_saboteur_walls_off_the_tunnel_one_step_from_the_gold() -> None:
    state = position("base", "saboteur", ["p35", "p30", "a22", "a10"])
    move = bot_move(state)
    assert move["type"] == "place" and move["card"] == "p35" and (move["x"], move["y"]) == (
        7, 0)


def test_a_saboteur_with_a_rockfall_cuts_the_tunnel() -> None:
    state = position("base", "saboteur", ["a19", "p30", "a22", "a10"])
    move = bot_move(state)
    assert move["type"] == "rockfall" and move["y"] == 0


def test_a_gold_digger_mends_its_own_broken_pickaxe() -> None:
    state = position("base", "gold-digger", ["a10", "p30", "p33", "a22"])
    state.in_front[0] = ["a01"]
    assert bot_move(state) == {"type": "action", "card": "a10", "target": 0,
                               "tool": "pickaxe"}


def test_a_gold_digger_breaks_the_tools_of_a_player_who_built_dead_ends() -> None:
    state = position("base", "gold-digger", ["a04", "p33", "p34", "p36"])
    for card, x in (("p38", 3), ("p39", 5)):
        state.log.append({"type": "place", "seat": 2, "card": card, "name": "Dead end",
                          "x": x, "y": 2, "rotated": False})
    move = bot_move(state)
    assert move["type"] == "action" and move["target"] == 2


def test_a_trapped_saboteur2_digger_frees_itself() -> None:
    state = position("saboteur2", "blue-digger", ["a44", "p30", "p33", "a22", "a37", "a28"])
    state.in_front[0] = ["a41"]
    assert bot_move(state) == {"type": "action", "card": "a44", "target": 0}


def test_a_blue_digger_puts_its_own_door_on_the_way_to_the_gold() -> None:
    """A blue door on the only way shuts the green team out of the win."""
    state = position("saboteur2", "blue-digger", ["p30", "p53", "a37", "a28", "a32", "a36"])
    move = bot_move(state)
    assert move["type"] == "place" and move["card"] == "p53" and move["x"] == 7


def test_gold_pickers_take_the_best_card_offered() -> None:
    picks = 0
    for seed in range(12):
        def best_pick(state: State, seen: SeatView, moves: list[Move],
                      move: Move) -> None:
            nonlocal picks
            if seen["phase"] == "gold":
                offer = {g["id"]: g["value"] for g in seen["gold_offer"]}
                assert offer[move.get("card") or ""] == max(offer.values())
                picks += 1
        play(4, seed=seed, ruleset="base", rounds=1, check=best_pick)
    assert picks > 5


def test_bot_turn_reads_the_actor_view() -> None:
    state = new_game(3, 2)
    seen, moves, move = bot_turn(state, 1)
    assert seen["seat"] == state.actor and move in moves
