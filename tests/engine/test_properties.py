"""hypothesis properties of placement and connectivity, against a naive oracle.

The oracle re-derives the rules from RULES.md with exit *names* and a plain search, so
a bug in the engine's bitmask shortcuts cannot hide in both.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import State, apply, legal_moves, new_game, rules_for, view
from games.engine.cards import GOAL_CELLS

OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
TURN = {"N": "S", "S": "N", "E": "W", "W": "E"}


def face_up_cards(state: State) -> dict[tuple[int, int], list[set[str]]]:
    """cell -> segments (sets of exit names), from the spectator view; hidden goals absent."""
    cells = {}
    for cell in view(state, None)["board"]:
        if cell["card"]["goal"] == "hidden":
            continue
        cells[(cell["x"], cell["y"])] = [set(seg) for seg in cell["card"]["segments"]]
    return cells


def oracle_connected(cells: dict[tuple[int, int], list[set[str]]]) -> set[tuple]:
    """(cell, exit) pairs whose tunnel reaches the start, by a naive flood fill."""
    reached: set[tuple] = set()
    todo = [((0, 0), frozenset(seg)) for seg in cells[(0, 0)]]
    seen = set(todo)
    while todo:
        cell, seg = todo.pop()
        for exit_ in seg:
            reached.add((cell, exit_))
            other = (cell[0] + STEP[exit_][0], cell[1] + STEP[exit_][1])
            for seg2 in cells.get(other, []):
                if OPP[exit_] in seg2 and (other, frozenset(seg2)) not in seen:
                    seen.add((other, frozenset(seg2)))
                    todo.append((other, frozenset(seg2)))
    return reached


def oracle_places(state: State) -> set[tuple]:
    seat = state.turn
    rules = rules_for(state.ruleset)
    if any(rules.cards[c].action == "break" for c in state.in_front[seat]):
        return set()
    cells = face_up_cards(state)
    live = oracle_connected(cells)
    occupied = set(state.board)
    out = set()
    for card_id in state.hands[seat]:
        spec = rules.cards[card_id]
        if spec.kind != "path":
            continue
        printed = {e for seg in view_card_segments(spec) for e in seg}
        for rotated in (False, True):
            exits = {TURN[e] for e in printed} if rotated else printed
            for x in range(min(c[0] for c in occupied) - 1, max(c[0] for c in occupied) + 2):
                for y in range(min(c[1] for c in occupied) - 1,
                               max(c[1] for c in occupied) + 2):
                    if (x, y) in occupied:
                        continue
                    touching, agree, joined = False, True, False
                    for d, (dx, dy) in STEP.items():
                        other = (x + dx, y + dy)
                        if other not in occupied:
                            continue
                        touching = True
                        if other not in cells:  # face-down goal: no agreement needed
                            continue
                        has = any(OPP[d] in seg for seg in cells[other])
                        if (d in exits) != has:
                            agree = False
                        if d in exits and (other, OPP[d]) in live:
                            joined = True
                    if touching and agree and joined:
                        out.add((card_id, x, y, rotated))
    return out


def view_card_segments(spec) -> list[list[str]]:
    from games.engine import card_json

    return card_json(spec)["segments"]


def grow(seats: int, seed: int, picks: list[int], ruleset: str = "base") -> State:
    """A reachable position: mostly placements, some rockfalls and other plays."""
    state = new_game(seats, seed, ruleset)
    for pick in picks:
        if state.phase != "play":
            break
        moves = legal_moves(state)
        places = [m for m in moves if m["type"] == "place"]
        pool = places if places and pick % 5 else moves
        state = apply(state, pool[pick % len(pool)])
    return state


positions = st.builds(grow, st.integers(3, 10), st.integers(0, 10**6),
                      st.lists(st.integers(0, 10**6), max_size=45))


@settings(max_examples=120, deadline=None)
@given(positions)
def test_legal_placements_match_the_oracle(state: State) -> None:
    if state.phase != "play":
        return
    engine = {(m["card"], m["x"], m["y"], m["rotated"]) for m in legal_moves(state)
              if m["type"] == "place"}
    assert engine == oracle_places(state)


@settings(max_examples=120, deadline=None)
@given(positions)
def test_every_face_up_card_agrees_with_its_neighbours(state: State) -> None:
    cells = face_up_cards(state)
    goal_cells = set(GOAL_CELLS)
    for (x, y), segments in cells.items():
        if (x, y) in goal_cells:
            continue  # a turned goal may mismatch (RULES.md)
        exits = set().union(*segments)
        for d, (dx, dy) in STEP.items():
            other = (x + dx, y + dy)
            if other in cells and other not in goal_cells:
                assert (d in exits) == any(OPP[d] in s for s in cells[other])


@settings(max_examples=80, deadline=None)
@given(positions, st.integers(0, 10**6))
def test_placing_never_cuts_a_tunnel_and_rockfall_never_joins_one(state: State,
                                                                  pick: int) -> None:
    if state.phase != "play":
        return
    before = oracle_connected(face_up_cards(state))
    moves = legal_moves(state)
    move = moves[pick % len(moves)]
    after = apply(state, move)
    if after.round != state.round:
        return
    now = oracle_connected(face_up_cards(after))
    if move["type"] == "place":
        assert before <= now
        cell = (move["x"], move["y"])
        assert any(c == cell for c, _ in now), "a placed card is joined to the start"
    if move["type"] == "rockfall":
        assert now <= before


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(0, 10**6))
def test_apply_is_pure_and_replay_is_exact(state: State, pick: int) -> None:
    if state.finished:
        return
    before = state.to_json()
    moves = legal_moves(state)
    after = apply(state, moves[pick % len(moves)])
    assert state.to_json() == before
    again = apply(State.from_json(before), moves[pick % len(moves)])
    assert again.to_json() == after.to_json()


@given(st.integers(0, 15))
def test_turning_twice_is_the_identity(mask: int) -> None:
    from games.engine.geometry import rotate180

    assert rotate180(rotate180(mask)) == mask
    assert bin(rotate180(mask)).count("1") == bin(mask).count("1")


@settings(max_examples=80, deadline=None)
@given(st.builds(grow, st.integers(3, 10), st.integers(0, 10**6),
                 st.lists(st.integers(0, 10**6), max_size=60),
                 st.sampled_from(["base", "saboteur2"])))
def test_the_views_board_reads_every_cell_as_the_maze_does(state: State) -> None:
    """The view draws the board from the state, not from the maze: each cell shows the
    card, turn, tunnels and goal status the maze (which the rules use) reads there."""
    from games.engine import moderator_view
    from games.engine.geometry import names_of

    maze = rules_for(state.ruleset).maze(state)
    boards = [(seat, view(state, seat)["board"]) for seat in [*range(state.seats), None]]
    boards.append(("moderator", moderator_view(state)["board"]))
    for seat, board in boards:
        assert {(c["x"], c["y"]) for c in board} == set(maze.cells)
        for cell in board:
            placed, card = maze.cells[(cell["x"], cell["y"])], cell["card"]
            assert card["rotated"] == state.board[(cell["x"], cell["y"])][1]
            if placed.goal is None:
                assert (card["id"], card["goal"]) == (placed.card.id, None)
                assert sorted(card["exits"]) == sorted(names_of(placed.exits))
                continue
            assert card["kind"] == "goal" and card["revealed"] == (not placed.hidden)
            known = seat == "moderator" or not placed.hidden or (
                isinstance(seat, int) and placed.goal in state.known_goals[seat])
            kind = state.goal_kinds[placed.goal]
            assert card["goal"] == (("gold" if kind == "gold" else "stone") if known
                                    else "hidden")
            if not placed.hidden:
                assert sorted(card["exits"]) == sorted(names_of(placed.exits))
