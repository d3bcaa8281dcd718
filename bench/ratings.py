"""Ratings on self-play: do the ratings (games.ratings.core.model) find players of known strength?

Bots of three levels stand in for players whose strength is known: "random" (a legal
move at random: a weak player), "normal" and "strong" (games.bots). A pool of named
players of each level sits down at seeded tables of random sizes (every size the ruleset
allows), each seat drawn from the pool; every round is played to its end and rated in
the order played, exactly as the server rates a rated game's rounds (the sides from the
round_end event, games.ratings.core.sides; the model, games.ratings.core.model). It prints:

1. **Order**: each level's mean rating (and the spread) after all the rounds: the levels
   must come out in order, random < normal < strong, in each ruleset.
2. **Calibration**: the model's predicted chance that a side wins, made before each round
   is rated, against how often it won, by decile of the prediction (after a warm-up of
   the first `--warm-up` rounds, while the ratings are still unlearned): within +-5
   points in every decile that holds at least `--min-decile` rounds.
3. **Side teammates**: per table size, the saboteurs' win rate observed and as the model
   predicts it with the learned side teammates and the final ratings of the players who
   sat there (the side advantage is learned, not set by hand).

The strong level is slow (tenths of a second a move): `--strong-tables` is the share of
tables that seat strong players, at most `--strong-seats` each (the other tables mix
random and normal players only).

    python bench/ratings.py [--tables 1500] [--ruleset base|saboteur2|all] [--workers 2]
        [--rounds 3] [--strong-tables 0.25] [--strong-seats 2] [--save FILE] [--load FILE]

`--save` keeps the rounds played (JSON) and `--load` rates them again without playing:
the model can be changed and measured on the same games in seconds.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import choose_move
from games.engine import apply, legal_moves, new_game, rules_for, view
from games.ratings.core.model import Hand, Skill, Team, predict, rate_round, side_key, side_prior
from games.ratings.core.sides import round_sides

LEVELS = ("random", "normal", "strong")
POOL = {"random": 6, "normal": 10, "strong": 4}  # players per level
# A job: (ruleset, seed, rounds, strong allowed); its result: the rounds played.
Job = tuple[str, int, int, bool]
Round = dict[str, Any]  # {"ruleset", "size", "players": [name per seat], "sides": [...]}


def pool() -> list[str]:
    return [f"{level}-{i}" for level in LEVELS for i in range(POOL[level])]


def level_of(player: str) -> str:
    return player.split("-", 1)[0]


def seat_players(ruleset: str, seed: int, *, strong: bool, strong_seats: int) -> list[str]:
    rng = random.Random(seed)
    rules = rules_for(ruleset)
    size = rng.randint(rules.min_seats, rules.max_seats)
    others = [p for p in pool() if level_of(p) != "strong"]
    strongs = [p for p in pool() if level_of(p) == "strong"]
    seats = rng.sample(others, size)
    if strong:
        for index in rng.sample(range(size), min(size, rng.randint(1, strong_seats))):
            seats[index] = rng.choice([s for s in strongs if s not in seats])
    return seats


def play(job: tuple[Job, int]) -> list[Round]:
    """One seeded game's first `rounds` rounds, each with its sides and seats' players."""
    (ruleset, seed, rounds, strong), strong_seats = job
    players = seat_players(ruleset, seed, strong=strong, strong_seats=strong_seats)
    rng = random.Random(seed * 31 + 7)
    state = new_game(len(players), seed, ruleset)
    turn = 0
    while not state.finished and state.round <= rounds:
        moves = legal_moves(state)
        actor = state.actor
        assert actor is not None
        level = level_of(players[actor])
        if level == "random":
            move = moves[rng.randrange(len(moves))]
        else:
            move = choose_move(view(state, actor), moves, seed * 7919 + turn, level)
        state = apply(state, move)
        turn += 1
    played = []
    for event in state.log:
        if event["type"] == "round_end" and event["round"] <= rounds:
            sides = round_sides(ruleset, event)
            if sides:
                played.append({"ruleset": ruleset, "size": len(players), "players": players,
                                "sides": [{"side": s.side, "seats": list(s.seats),
                                           "won": s.won} for s in sides]})
    return played


def jobs(rulesets: list[str], tables: int, rounds: int, strong_share: float) -> Iterator[Job]:
    for ruleset in rulesets:
        for seed in range(tables):
            yield ruleset, seed, rounds, random.Random(-seed - 1).random() < strong_share


class Ratings:
    """Every player's and side teammate's skill, updated round by round."""

    def __init__(self) -> None:
        self.players: dict[str, Skill] = {}
        self.sides: dict[str, Skill] = {}

    def teams(self, played: Round) -> list[Team]:
        teams = []
        for side in played["sides"]:
            key = side_key(played["ruleset"], side["side"], len(side["seats"]))
            self.sides.setdefault(key, side_prior(len(side["seats"])))
            seats = tuple((Hand(name, self.players.get(name, Skill())),)
                          for name in (played["players"][n] for n in side["seats"]))
            teams.append(Team(side=key, seats=seats, won=side["won"]))
        return teams

    def rate(self, played: Round) -> list[float]:
        """Rate the round; the predictions made before it, one per side."""
        outcome = rate_round(self.teams(played), self.sides)
        self.players.update(outcome.players)
        self.sides.update(outcome.sides)
        return outcome.predicted


def order(ratings: Ratings, ruleset: str) -> tuple[list[str], bool]:
    lines, means = [], []
    for level in LEVELS:
        shown = [skill.shown for name, skill in ratings.players.items()
                 if level_of(name) == level]
        if not shown:
            continue
        mean = statistics.mean(shown)
        means.append(mean)
        lines.append(f"| {ruleset} | {level} | {len(shown)} | {mean:.0f} | "
                     f"{min(shown)}-{max(shown)} |")
    return lines, means == sorted(means) and len(means) > 1


def calibration(predictions: list[tuple[float, bool]], min_decile: int
                ) -> tuple[list[str], bool]:
    buckets: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for p, won in predictions:
        buckets[min(9, int(p * 10))].append((p, won))
    lines, good = [], True
    for decile in range(10):
        found = buckets.get(decile, [])
        if not found:
            continue
        predicted = 100 * statistics.mean(p for p, _ in found)
        observed = 100 * sum(1 for _, won in found if won) / len(found)
        judged = len(found) >= min_decile
        ok = abs(predicted - observed) <= 5
        good = good and (ok or not judged)
        verdict = ("ok" if ok else "OFF") if judged else "too few"
        lines.append(f"| {decile * 10}-{decile * 10 + 10}% | {len(found)} | {predicted:.1f} | "
                     f"{observed:.1f} | {observed - predicted:+.1f} | {verdict} |")
    return lines, good


def saboteur_rates(ratings: Ratings, rounds: list[Round]) -> list[str]:
    """Per ruleset and table size: observed and predicted saboteur win rate."""
    cells: dict[tuple[str, int], list[tuple[float, bool]]] = defaultdict(list)
    for played in rounds:
        teams = ratings.teams(played)
        chances = predict(teams, ratings.sides)
        for side, chance in zip(played["sides"], chances, strict=True):
            if side["side"] == "saboteurs":
                cells[played["ruleset"], played["size"]].append((chance, side["won"]))
    lines = []
    for (ruleset, size), found in sorted(cells.items()):
        observed = 100 * sum(1 for _, won in found if won) / len(found)
        predicted = 100 * statistics.mean(p for p, _ in found)
        lines.append(f"| {ruleset} | {size} | {len(found)} | {observed:.1f} | "
                     f"{predicted:.1f} | {predicted - observed:+.1f} |")
    return lines


def report(rounds: list[Round], warm_up: int, min_decile: int) -> int:
    failures = 0
    for ruleset in sorted({r["ruleset"] for r in rounds}):
        mine = [r for r in rounds if r["ruleset"] == ruleset]
        ratings = Ratings()
        predictions: list[tuple[float, bool]] = []
        for index, played in enumerate(mine):
            before = ratings.rate(played)
            if index >= warm_up:
                predictions += [(p, side["won"]) for p, side in
                                zip(before, played["sides"], strict=True)]
        print(f"\n{ruleset}: {len(mine)} rated rounds "
              f"({sum(len(r['players']) for r in mine)} seats)\n")
        print("| ruleset | level | players | mean rating | range |\n|---|---|---:|---:|---|")
        lines, ordered = order(ratings, ruleset)
        print("\n".join(lines))
        print(f"levels in order: {'yes' if ordered else 'NO'}")
        failures += not ordered
        print(f"\ncalibration after the first {warm_up} rounds (each side's predicted chance "
              "of winning, by decile):\n")
        print("| predicted | sides | mean predicted % | observed % | observed - predicted "
              "| within 5 |\n|---|---:|---:|---:|---:|---|")
        lines, calibrated = calibration(predictions, min_decile)
        print("\n".join(lines))
        print(f"calibrated within 5 points: {'yes' if calibrated else 'NO'}")
        failures += not calibrated
        print("\nsaboteurs' win rate per table size, observed and predicted by the learned "
              "side teammates with the final ratings:\n")
        print("| ruleset | players | rounds | observed % | predicted % | difference |\n"
              "|---|---:|---:|---:|---:|---:|")
        print("\n".join(saboteur_rates(ratings, mine)))
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1500, help="seeded games per ruleset")
    parser.add_argument("--ruleset", choices=["base", "saboteur2", "all"], default="all")
    parser.add_argument("--rounds", type=int, choices=[1, 2, 3], default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strong-tables", type=float, default=0.25,
                        help="share of the tables that seat strong players")
    parser.add_argument("--strong-seats", type=int, default=2,
                        help="strong players at such a table, at most")
    parser.add_argument("--warm-up", type=int, default=500,
                        help="rounds rated before the calibration counts")
    parser.add_argument("--min-decile", type=int, default=100,
                        help="predictions a decile needs to be judged")
    parser.add_argument("--save", help="keep the rounds played in this JSON file")
    parser.add_argument("--load", help="rate the rounds of this file instead of playing")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.load:
        rounds: list[Round] = json.loads(Path(args.load).read_text())
    else:
        rulesets = ["base", "saboteur2"] if args.ruleset == "all" else [args.ruleset]
        work = [(job, args.strong_seats) for job in
                jobs(rulesets, args.tables, args.rounds, args.strong_tables)]
        rounds = []
        with multiprocessing.Pool(args.workers) as workers:
            for played in workers.imap(play, work, chunksize=4):  # in seed order
                rounds.extend(played)
        if args.save:
            Path(args.save).write_text(json.dumps(rounds))
    played_in = time.perf_counter() - started
    failures = report(rounds, args.warm_up, args.min_decile)
    print(f"\n{len(rounds)} rounds; played in {played_in:.0f} s, rated in "
          f"{time.perf_counter() - started - played_in:.1f} s")
    return failures


if __name__ == "__main__":
    sys.exit(main())
