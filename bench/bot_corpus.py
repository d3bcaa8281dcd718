"""A self-play corpus of public actions, for the strong bot's learned evidence model
(bench/bot_model.py trains it; games/bots/strong/evidence.py reads it at play time).

Seeded games of normal bots are played through the engine at every seat count of both
rulesets (seed s plays min_seats + s mod the span of seats); each seat's turn in play
becomes one record, written the moment its round ends:

    {"ruleset", "seed", "seats", "round", "key": the likelihood table's feature,
     "role": the actor's role when it moved, "pool": the round's dwarf cards,
     "deltas": steps the move brought the frontier nearer each goal (null: neither a
     placement nor a rockfall), "mapped": the goals the actor had mapped before,
     "gold": the goal that held the gold}

Resumable: one JSON line per game (its seed and records) is appended to `--out`; a
rerun skips the seeds the file has (a line cut short by a killed run is ignored), so
a larger `--games` extends the corpus. The corpus depends on the seeds alone: the
same seeds always write the same records.

    python bench/bot_corpus.py [--games 400] [--first-seed 50000]
                               [--out bench/results/bot_corpus.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_move
from games.bots.knowledge import round_log
from games.bots.strong.belief import dwarf_pool, keyed
from games.bots.strong.digging import deltas, fixed_cells
from games.engine import State, apply, legal_moves, new_game, rules_for, view

RULESETS = ("base", "saboteur2")
FIRST_SEED = 50_000  # not the table's games (0-599) nor the temperature's (10,000 on)
OUT = Path(__file__).resolve().parent / "results" / "bot_corpus.jsonl"


def seats_for(ruleset: str, seed: int) -> int:
    rules = rules_for(ruleset)
    return rules.min_seats + seed % (rules.max_seats - rules.min_seats + 1)


def game_records(ruleset: str, seed: int, rounds: int = 3) -> list[dict[str, Any]]:
    """Every seat's turn of one all-normal-bot game, as corpus records."""
    seats = seats_for(ruleset, seed)
    state = new_game(seats, seed, ruleset)
    records: list[dict[str, Any]] = []
    roles_at: dict[int, str] = {}  # log index -> the actor's role when it moved
    turn = 0
    while not state.finished and state.round <= rounds:
        actor = state.actor
        assert actor is not None
        before, role, round_ = len(state.log), state.roles[actor], state.round
        gold = state.goal_kinds.index("gold")  # the next round may be dealt by this move
        state = apply(state, choose_move(view(state, actor), legal_moves(state),
                                         seed * 7919 + turn))
        for index in range(before, len(state.log)):
            roles_at[index] = role
        turn += 1
        if any(e.get("type") == "round_end" for e in state.log[before:]):
            records += round_records(state, (ruleset, seats, seed, round_, gold), roles_at)
    return records


def round_records(state: State, deal: tuple[str, int, int, int, int],
                  roles_at: dict[int, str]) -> list[dict[str, Any]]:
    """The records of the round that just ended (the log read as a seat reads it);
    `deal`: the ruleset, seats, seed, round and the goal that held the gold."""
    ruleset, seats, seed, round_, gold = deal
    end = max(i for i, e in enumerate(state.log) if e.get("type") == "round_end")
    start = max(i for i, e in enumerate(state.log[:end]) if e.get("type") == "round_start")
    seen = view(state, 0)
    log = round_log({**seen, "log": (seen["log"] or [])[:end]})
    moved = deltas(log, fixed_cells(seen), ruleset)
    pool = sorted(dwarf_pool(ruleset, seats))
    out = []
    mapped: dict[int, list[int]] = {}
    for offset, (event, key) in enumerate(keyed(log, seats, ruleset)):
        if key is None:
            continue
        actor = int(event["seat"])
        out.append({"ruleset": ruleset, "seed": seed, "seats": seats, "round": round_,
                    "key": key, "role": roles_at.get(start + 1 + offset, ""),
                    "pool": pool, "deltas": None if moved[offset] is None
                    else list(moved[offset] or ()),
                    "mapped": list(mapped.get(actor, [])), "gold": gold})
        if event.get("type") == "map" and isinstance(event.get("goal"), int):
            mapped.setdefault(actor, []).append(int(event["goal"]))
    return out


def done_seeds(path: Path) -> set[tuple[str, int]]:
    if not path.exists():
        return set()
    out = set()
    for text in path.read_text().splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue
        out.add((str(line["ruleset"]), int(line["seed"])))
    return out


def read(path: Path) -> list[dict[str, Any]]:
    """Every record of the corpus (a line cut short is ignored)."""
    records: list[dict[str, Any]] = []
    if not path.exists():
        return records
    for text in path.read_text().splitlines():
        try:
            records += json.loads(text)["records"]
        except (json.JSONDecodeError, KeyError):
            continue
    return records


def write(path: Path, games: int, first_seed: int, rulesets: tuple[str, ...] = RULESETS,
          rounds: int = 3) -> int:
    """Play the seeds `path` lacks; the number of games played."""
    done = done_seeds(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    played = 0
    for seed in range(first_seed, first_seed + games):
        for ruleset in rulesets:
            if (ruleset, seed) in done:
                continue
            line = {"ruleset": ruleset, "seed": seed,
                    "records": game_records(ruleset, seed, rounds)}
            cut = path.exists() and path.stat().st_size > 0 \
                and not path.read_bytes().endswith(b"\n")
            with path.open("a") as out:
                out.write(("\n" if cut else "") + json.dumps(line, sort_keys=True) + "\n")
            played += 1
    return played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="seeds per ruleset")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    played = write(args.out, args.games, args.first_seed)
    print(f"{played} games played; {len(read(args.out))} records in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
