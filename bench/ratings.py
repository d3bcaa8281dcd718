"""Ratings on self-play: do the ratings (games.ratings.core.model) find players of known
strength, and how well do they predict a round's result?

Bots of three levels stand in for players whose strength is known: "random" (a legal
move at random: a weak player), "normal" and "strong" (games.bots). A pool of named
players of each level sits down at seeded tables of random sizes (every size the ruleset
allows), each seat drawn from the pool; every round is played to its end and rated in
the order played, exactly as the server rates a rated game's rounds (the sides from the
round_end event, games.ratings.core.sides; the model, games.ratings.core.model). It prints:

1. **Order**: each level's mean rating (and the spread) after all the rounds: the levels
   must come out in order, random < normal < strong, in each ruleset.
2. **Held-out prediction**: each round of the later part (after `--warm-up`, a share of
   the rounds) is predicted before it is rated, from the rounds before it only: the chance
   of each result (base: the gold-diggers or the saboteurs win; Saboteur 2: the blue team,
   the green team or the saboteurs; both door teams winning gives each half the round).
   Three predictors, each learning from the same rounds in the same order: the server's
   softmax over the results; today's pairwise prediction before it (OpenSkill's
   Plackett-Luce update on the sides as they were read then, and each side's chance of
   outplaying every other by the normal model, normalised to sum to one); and the side
   base rates per table size (how often each result happened at the table's size with the
   same sides dealt, before). Per ruleset: the multiclass log loss, the Brier score, and the
   same on the rounds whose table seated a strong player; the bar: the softmax's log loss
   at least 5% below the pairwise prediction's. Two references that are not ratings show
   what knowing each seat's level is worth: a softmax regression on the levels seated on
   each side, fitted on the warm-up's rounds, with a weight per level and side ("per
   side") or one per level whatever the side ("any side": all one rating per player can
   say).
3. **Calibration**: each result's predicted chance against how often it happened, by
   decile of the prediction: within +-5 points in every decile that holds at least
   `--min-decile` predictions.
4. **Side teammates**: per table size, the saboteurs' win rate observed and as the model
   predicts it with the learned side teammates and the final ratings of the players who
   sat there (the side advantage is learned, not set by hand).

The strong level is slow (seconds a table): `--strong-tables` is the share of tables that
seat strong players, at most `--strong-seats` each (the other tables mix random and normal
players only).

    python bench/ratings.py [--tables 1500] [--first-seed 0] [--ruleset base|saboteur2|all]
        [--workers 2] [--rounds 3] [--strong-tables 0.25] [--strong-seats 2] [--warm-up 0.5]
        [--save FILE] [--load FILE] [--seat-noise X] [--door-edge X] [--update-at-prediction]

`--save` keeps the rounds played (JSON) and `--load` rates them again without playing:
the model can be changed and measured on the same games in seconds (`--seat-noise` and
`--door-edge` set the model's constants for one run, `--update-at-prediction` makes the
update use the prediction's temperature instead of OpenSkill's).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from statistics import NormalDist
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce

from games.bots import choose_move
from games.engine import apply, legal_moves, new_game, rules_for, view
from games.ratings.core import model
from games.ratings.core.model import (
    Hand,
    Skill,
    Team,
    predict,
    prior_of,
    rate_round,
    side_key,
    side_of,
    side_prior,
)
from games.ratings.core.sides import ALLIES, SideSeats, round_sides

LEVELS = ("random", "normal", "strong")
POOL = {"random": 6, "normal": 10, "strong": 4}  # players per level
# A job: (ruleset, seed, rounds, strong allowed); its result: the rounds played.
Job = tuple[str, int, int, bool]
# A round played: {"ruleset", "size", "players": [name per seat], "end": the round_end
# event's roles and winners}.
Round = dict[str, Any]
END_KEYS = ("roles", "winners", "winning_seats")
FLOOR = 1e-9  # the least chance a log loss takes the log of


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
    # Every round either reading rates (the pairwise baseline learns from its own).
    return [{"ruleset": ruleset, "size": len(players), "players": players,
             "end": {key: event.get(key) for key in END_KEYS}}
            for event in state.log
            if event["type"] == "round_end" and event["round"] <= rounds
            and (round_sides(ruleset, event) or sides_then(ruleset, event))]


def jobs(rulesets: list[str], tables: int, rounds: int, strong_share: float,
         first_seed: int = 0) -> Iterator[Job]:
    for ruleset in rulesets:
        for seed in range(first_seed, first_seed + tables):
            yield ruleset, seed, rounds, random.Random(-seed - 1).random() < strong_share


def sides_now(played: Round) -> list[SideSeats]:
    """The round's sides as the server reads them today (empty: the round does not rate)."""
    return round_sides(played["ruleset"], played["end"])


def results_of(sides: Sequence[SideSeats]) -> list[SideSeats]:
    """The sides that can win the round, in the model's order (games.ratings.core.model
    .result_weights)."""
    return [s for s in sides if s.side not in ALLIES]


def observed(sides: Sequence[SideSeats]) -> list[float]:
    won = [float(s.won) for s in results_of(sides)]
    return [w / sum(won) for w in won]


class Predictor(Protocol):
    name: str

    def predict(self, played: Round, sides: Sequence[SideSeats]) -> list[float]: ...

    def learn(self, played: Round, sides: Sequence[SideSeats]) -> None: ...


class Ratings:
    """The server's model: every player's and side teammate's skill, updated round by
    round, and its softmax over the results."""

    name = "softmax (the server's)"

    def __init__(self) -> None:
        self.players: dict[str, Skill] = {}
        self.sides: dict[str, Skill] = {}

    def teams(self, played: Round, sides: Sequence[SideSeats]) -> list[Team]:
        teams = []
        for side in sides:
            key = side_key(played["ruleset"], side.side, len(side.seats))
            self.sides.setdefault(key, prior_of(key))
            seats = tuple((Hand(name, self.players.get(name, Skill())),)
                          for name in (played["players"][n] for n in side.seats))
            teams.append(Team(side=key, seats=seats, won=side.won))
        return teams

    def predict(self, played: Round, sides: Sequence[SideSeats]) -> list[float]:
        return predict(self.teams(played, sides), self.sides)

    def learn(self, played: Round, sides: Sequence[SideSeats]) -> None:
        outcome = rate_round(self.teams(played, sides), self.sides)
        self.players.update(outcome.players)
        self.sides.update(outcome.sides)


class Pairwise:
    """Today's prediction before the softmax, whole: its update (OpenSkill's Plackett-Luce,
    winners ranked first, on the sides as they were read then: the Boss and the Profiteer
    with the side they won with, or alone) and its prediction (each side's chance of
    outplaying every other, each pair by the normal model with SEAT_NOISE 6 a seat, the
    door teams not against each other), normalised over the results."""

    name = "pairwise (today's)"
    SEAT_NOISE = 6.0
    MODEL = PlackettLuce(mu=model.DEFAULT_MU, sigma=model.DEFAULT_SIGMA, beta=25.0 / 6.0,
                         tau=0.0)

    def __init__(self) -> None:
        self.players: dict[str, Skill] = {}
        self.sides: dict[str, Skill] = {}

    def _team(self, ruleset: str, side: SideSeats, players: Sequence[str]
              ) -> tuple[str, list[Skill]]:
        key = side_key(ruleset, side.side, len(side.seats))
        self.sides.setdefault(key, side_prior(len(side.seats)))
        return key, [self.players.get(players[n], Skill()) for n in side.seats]

    def predict(self, played: Round, sides: Sequence[SideSeats]) -> list[float]:
        teams = [self._team(played["ruleset"], side, played["players"])
                 for side in results_of(sides)]
        strengths = [(sum(s.mu for s in [*skills, self.sides[key]]),
                      sum(s.sigma ** 2 for s in [*skills, self.sides[key]]), len(skills))
                     for key, skills in teams]
        doors = [side_of(key) in ("blue", "green") for key, _skills in teams]
        chances = []
        for i, (mu, variance, seats) in enumerate(strengths):
            chance = 1.0
            for j, (other_mu, other_variance, other_seats) in enumerate(strengths):
                if j != i and not (doors[i] and doors[j]):
                    spread = math.sqrt((seats + other_seats) * self.SEAT_NOISE ** 2
                                       + variance + other_variance)
                    chance *= NormalDist().cdf((mu - other_mu) / spread)
            chances.append(chance)
        return [chance / sum(chances) for chance in chances]

    def learn(self, played: Round, sides: Sequence[SideSeats]) -> None:
        then = sides_then(played["ruleset"], played["end"])
        if not then:
            return
        teams = [self._team(played["ruleset"], side, played["players"]) for side in then]
        tau = model.TAU
        ratings = [[self.MODEL.rating(mu=s.mu, sigma=math.sqrt(s.sigma ** 2 + tau ** 2))
                    for s in [*skills, self.sides[key]]] for key, skills in teams]
        rated = self.MODEL.rate(ratings, ranks=[1.0 if s.won else 2.0 for s in then])
        for (key, _skills), side, after in zip(teams, then, rated, strict=True):
            self.sides[key] = Skill(after[-1].mu, after[-1].sigma)
            for n, rating in zip(side.seats, after, strict=False):
                self.players[played["players"][n]] = Skill(rating.mu, rating.sigma)


def sides_then(ruleset: str, event: Mapping[str, Any]) -> list[SideSeats]:
    """The sides as the server read them before the softmax: Saboteur 2's Boss and
    Profiteer ranked with the side they won with (the Boss with the door team that won,
    the first of blue and green when both did; the Profiteer with the first winning side),
    alone when they win with no side or lose."""
    if ruleset == "base":
        return round_sides(ruleset, event)
    roles, result = event.get("roles") or [], str(event.get("winners") or "")
    names = {"blue-digger": "blue", "green-digger": "green", "saboteur": "saboteurs"}
    order = ("blue", "green", "saboteurs")
    won = {side: (result == "saboteurs" if side == "saboteurs" else side in result.split("+"))
           for side in order}
    seats: dict[str, list[int]] = {side: [] for side in order}
    for seat, role in enumerate(roles):
        if role in names:
            seats[names[role]].append(seat)
    winners = set(event.get("winning_seats") or [])
    for seat, role in enumerate(roles):
        if role not in ("boss", "profiteer"):
            continue
        joined = next((side for side in (("blue", "green") if role == "boss" else order)
                       if won[side]), None)
        if seat in winners and joined is not None:
            seats[joined].append(seat)
        else:
            seats[role], won[role] = [seat], seat in winners
    sides = [SideSeats(side, tuple(sorted(numbers)), won[side])
             for side, numbers in seats.items() if numbers]
    if len(sides) < 2 or all(s.won for s in sides) or not any(s.won for s in sides):
        return []
    return sides


class BaseRates:
    """How often each result happened before, at tables of the round's size with the same
    sides dealt (half a round to each result to start with)."""

    name = "side base rates per size"

    def __init__(self) -> None:
        self.counts: dict[tuple[Any, ...], list[float]] = {}

    def _cell(self, played: Round, sides: Sequence[SideSeats]) -> list[float]:
        key = (played["ruleset"], played["size"], tuple(s.side for s in results_of(sides)))
        return self.counts.setdefault(key, [0.5] * len(results_of(sides)))

    def predict(self, played: Round, sides: Sequence[SideSeats]) -> list[float]:
        cell = self._cell(played, sides)
        return [count / sum(cell) for count in cell]

    def learn(self, played: Round, sides: Sequence[SideSeats]) -> None:
        cell = self._cell(played, sides)
        for k, got in enumerate(observed(sides)):
            cell[k] += got


class KnownLevels:
    """Not a rating, a reference: it knows each seat's level, which ratings must learn,
    and fits a softmax regression once, on the warm-up's rounds (each result's logit: a
    term per side and team size, and per side the count and the share of random and of
    strong players in its team, the Boss's with the door teams and the other door
    team's), then predicts the held-out rounds with it. Where it beats the softmax, better
    ratings could still win that much, or more (it learns nothing after the warm-up)."""

    name = "levels known, per side"
    STEPS, RATE, L2 = 300, 0.05, 1e-3

    def __init__(self) -> None:
        self.seen: list[tuple[list[dict[str, float]], list[float]]] = []
        self.weights: dict[str, float] | None = None

    def _levels(self, prefix: str, played: Round, seats: Sequence[int]) -> dict[str, float]:
        levels = [level_of(played["players"][n]) for n in seats]
        found = {}
        for level in ("random", "strong"):
            found[f"{prefix}:{level}"] = float(levels.count(level))
            found[f"{prefix}:{level}/"] = levels.count(level) / len(levels)
        return found

    def features(self, played: Round, sides: Sequence[SideSeats]) -> list[dict[str, float]]:
        allies = [s for s in sides if s.side in ALLIES]
        rows = []
        for side in results_of(sides):
            row = {f"{side.side}:{len(side.seats)}": 1.0,
                   **self._levels(side.side, played, side.seats)}
            if side.side in ("blue", "green"):
                for ally in allies:
                    row.update(self._levels(ally.side, played, ally.seats))
                for other in results_of(sides):
                    if other.side in ("blue", "green") and other.side != side.side:
                        row.update(self._levels("other door", played, other.seats))
            rows.append(row)
        return rows

    def _chances(self, rows: list[dict[str, float]]) -> list[float]:
        weights = self.weights or {}
        return model.softmax([sum(weights.get(k, 0.0) * v for k, v in row.items())
                              for row in rows])

    def _fit(self) -> None:
        """Adam's steps on the mean log loss of the warm-up's rounds (with a little L2)."""
        self.weights = defaultdict(float)
        first: dict[str, float] = defaultdict(float)
        second: dict[str, float] = defaultdict(float)
        for step in range(1, self.STEPS + 1):
            gradient: dict[str, float] = defaultdict(float)
            for rows, got in self.seen:
                for row, p, y in zip(rows, self._chances(rows), got, strict=True):
                    for k, v in row.items():
                        gradient[k] += (p - y) * v / len(self.seen)
            for k, g in gradient.items():
                g += self.L2 * self.weights[k]
                first[k] = 0.9 * first[k] + 0.1 * g
                second[k] = 0.999 * second[k] + 0.001 * g * g
                move = first[k] / (1 - 0.9 ** step)
                scale = math.sqrt(second[k] / (1 - 0.999 ** step)) + 1e-8
                self.weights[k] -= self.RATE * move / scale

    def predict(self, played: Round, sides: Sequence[SideSeats]) -> list[float]:
        if self.weights is None:
            self._fit()
        return self._chances(self.features(played, sides))

    def learn(self, played: Round, sides: Sequence[SideSeats]) -> None:
        if self.weights is None:  # the warm-up's rounds only
            self.seen.append((self.features(played, sides), observed(sides)))


class KnownLevelsAnySide(KnownLevels):
    """The same for what one rating per player can say: a level's weight is the same on
    every side (a rating does not know whether its player is better at digging or at
    sabotage), only the Boss's and the other door team's apart."""

    name = "levels known, any side"

    def _levels(self, prefix: str, played: Round, seats: Sequence[int]) -> dict[str, float]:
        own = prefix not in ALLIES and prefix != "other door"
        return super()._levels("team" if own else prefix, played, seats)


# (predicted chances, what each result got, a strong player at the table)
Scored = tuple[list[float], list[float], bool]


def log_loss(scored: Sequence[Scored]) -> float:
    return statistics.mean(-sum(y * math.log(max(p, FLOOR)) for p, y in zip(ps, ys, strict=True))
                           for ps, ys, _strong in scored)


def brier(scored: Sequence[Scored]) -> float:
    return statistics.mean(sum((p - y) ** 2 for p, y in zip(ps, ys, strict=True))
                           for ps, ys, _strong in scored)


def deciles(scored: Sequence[Scored]) -> dict[int, tuple[int, float, float]]:
    """Per decile of the predicted chance: predictions, mean predicted %, observed %."""
    buckets: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for ps, ys, _strong in scored:
        for p, y in zip(ps, ys, strict=True):
            buckets[min(9, int(p * 10))].append((p, y))
    return {decile: (len(found), 100 * statistics.mean(p for p, _ in found),
                     100 * statistics.mean(y for _, y in found))
            for decile, found in sorted(buckets.items())}


def calibrated(scored: Sequence[Scored], min_decile: int) -> tuple[int, int]:
    """(deciles within 5 points, deciles judged: holding at least `min_decile`)."""
    judged = [(n, predicted, seen) for n, predicted, seen in deciles(scored).values()
              if n >= min_decile]
    return sum(1 for _n, predicted, seen in judged if abs(seen - predicted) <= 5), len(judged)


def order(ratings: Ratings, today: Pairwise, ruleset: str) -> tuple[list[str], bool]:
    """Each level's ratings (the server's model) and its mean in today's model before the
    softmax; whether the levels come out in order."""
    lines, means = [], []
    for level in LEVELS:
        shown = [skill.shown for name, skill in ratings.players.items()
                 if level_of(name) == level]
        if not shown:
            continue
        mean = statistics.mean(shown)
        means.append(mean)
        before = statistics.mean(skill.shown for name, skill in today.players.items()
                                 if level_of(name) == level)
        lines.append(f"| {ruleset} | {level} | {len(shown)} | {mean:.0f} | "
                     f"{min(shown)}-{max(shown)} | {before:.0f} |")
    return lines, means == sorted(means) and len(means) > 1


def saboteur_rates(ratings: Ratings, rounds: list[Round]) -> list[str]:
    """Per ruleset and table size: observed and predicted saboteur win rate."""
    cells: dict[tuple[str, int], list[tuple[float, float]]] = defaultdict(list)
    for played in rounds:
        sides = sides_now(played)
        if not sides:
            continue
        chances = ratings.predict(played, sides)
        for side, chance, got in zip(results_of(sides), chances, observed(sides), strict=True):
            if side.side == "saboteurs":
                cells[played["ruleset"], played["size"]].append((chance, got))
    lines = []
    for (ruleset, size), found in sorted(cells.items()):
        seen = 100 * statistics.mean(y for _, y in found)
        predicted = 100 * statistics.mean(p for p, _ in found)
        lines.append(f"| {ruleset} | {size} | {len(found)} | {seen:.1f} | "
                     f"{predicted:.1f} | {predicted - seen:+.1f} |")
    return lines


def run(rounds: list[Round], warm_up: float
        ) -> tuple[Ratings, Pairwise, dict[str, list[Scored]]]:
    """Every predictor over the rounds in order; the held-out predictions of each."""
    softmax, today = Ratings(), Pairwise()
    predictors: list[Predictor] = [softmax, today, BaseRates(), KnownLevelsAnySide(),
                                   KnownLevels()]
    scored: dict[str, list[Scored]] = {p.name: [] for p in predictors}
    first = math.floor(warm_up * len(rounds))
    for index, played in enumerate(rounds):
        sides = sides_now(played)
        if not sides:  # rates nothing (the pairwise model read some of these as rated)
            today.learn(played, sides)
            continue
        strong = any(level_of(p) == "strong" for p in played["players"])
        got = observed(sides)
        for predictor in predictors:
            if index >= first:
                scored[predictor.name].append((predictor.predict(played, sides), got, strong))
            predictor.learn(played, sides)
    return softmax, today, scored


def report(rounds: list[Round], warm_up: float, min_decile: int) -> int:
    failures = 0
    for ruleset in sorted({r["ruleset"] for r in rounds}):
        mine = [r for r in rounds if r["ruleset"] == ruleset]
        ratings, today, scored = run(mine, warm_up)
        held = len(scored[Ratings.name])
        print(f"\n{ruleset}: {len(mine)} rounds played, {held} held out (after the first "
              f"{warm_up:.0%})\n")
        print("| ruleset | level | players | mean rating | range | mean rating, today's model |\n"
              "|---|---|---:|---:|---|---:|")
        lines, ordered = order(ratings, today, ruleset)
        print("\n".join(lines))
        print(f"levels in order: {'yes' if ordered else 'NO'}")
        failures += not ordered
        pairwise = log_loss(scored[Pairwise.name])
        print("\n| predictor | rounds | log loss | vs pairwise | Brier | deciles within 5 | "
              "strong tables: rounds | log loss | Brier |\n"
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, found in scored.items():
            strong = [s for s in found if s[2]]
            within, judged = calibrated(found, min_decile)
            print(f"| {name} | {len(found)} | {log_loss(found):.4f} | "
                  f"{100 * (log_loss(found) / pairwise - 1):+.1f}% | {brier(found):.4f} | "
                  f"{within} of {judged} | {len(strong)} | "
                  f"{log_loss(strong) if strong else math.nan:.4f} | "
                  f"{brier(strong) if strong else math.nan:.4f} |")
        ours = scored[Ratings.name]
        gain = log_loss(ours) / pairwise - 1
        within, judged = calibrated(ours, min_decile)
        print(f"softmax log loss at least 5% below the pairwise: "
              f"{'yes' if gain <= -0.05 else 'NO'} ({100 * gain:+.1f}%); every decile within "
              f"5 points: {'yes' if within == judged else 'NO'} ({within} of {judged})")
        failures += gain > -0.05 or within < judged
        print(f"\ncalibration of the held-out rounds (each result's predicted chance, by "
              f"decile; judged with at least {min_decile} predictions):\n")
        tables = {name: deciles(scored[name])  # the references left out
                  for name in (Ratings.name, Pairwise.name, BaseRates.name)}
        print("| decile | " + " | ".join(f"{name}: n | predicted / observed"
                                           for name in tables) + " |")
        print("|---|" + "---:|---|" * len(tables))
        for decile in range(10):
            cells = []
            for table in tables.values():
                n, predicted, seen = table.get(decile, (0, math.nan, math.nan))
                mark = "" if n < min_decile or abs(seen - predicted) <= 5 else " OFF"
                cells.append(f"{n} | {predicted:.1f} / {seen:.1f}{mark}")
            print(f"| {decile * 10}-{decile * 10 + 10}% | " + " | ".join(cells) + " |")
        print("\nsaboteurs' win rate per table size, observed and predicted by the learned "
              "side teammates with the final ratings:\n")
        print("| ruleset | players | rounds | observed % | predicted % | difference |\n"
              "|---|---:|---:|---:|---:|---:|")
        print("\n".join(saboteur_rates(ratings, mine)))
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1500, help="seeded games per ruleset")
    parser.add_argument("--first-seed", type=int, default=0, help="the first table's seed")
    parser.add_argument("--ruleset", choices=["base", "saboteur2", "all"], default="all")
    parser.add_argument("--rounds", type=int, choices=[1, 2, 3], default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--strong-tables", type=float, default=0.25,
                        help="share of the tables that seat strong players")
    parser.add_argument("--strong-seats", type=int, default=2,
                        help="strong players at such a table, at most")
    parser.add_argument("--warm-up", type=float, default=0.5,
                        help="share of the rounds rated before the predictions count")
    parser.add_argument("--min-decile", type=int, default=100,
                        help="predictions a decile needs to be judged")
    parser.add_argument("--first", type=float, default=1.0,
                        help="rate only this first share of each ruleset's rounds")
    parser.add_argument("--seat-noise", type=float, help="the model's SEAT_NOISE, this run")
    parser.add_argument("--door-edge", type=float, help="the model's DOOR_EDGE, this run")
    parser.add_argument("--update-at-prediction", action="store_true",
                        help="update at the prediction's temperature, this run")
    parser.add_argument("--save", help="keep the rounds played in this JSON file")
    parser.add_argument("--load", help="rate the rounds of this file instead of playing")
    args = parser.parse_args()
    if args.seat_noise is not None:
        model.SEAT_NOISE = args.seat_noise
    if args.door_edge is not None:
        model.DOOR_EDGE = args.door_edge
    if args.update_at_prediction:
        model.update_temperature = model.prediction_temperature  # type: ignore[assignment]
    started = time.perf_counter()
    if args.load:
        rounds: list[Round] = json.loads(Path(args.load).read_text())
        if args.ruleset != "all":
            rounds = [r for r in rounds if r["ruleset"] == args.ruleset]
    else:
        rulesets = ["base", "saboteur2"] if args.ruleset == "all" else [args.ruleset]
        work = [(job, args.strong_seats) for job in
                jobs(rulesets, args.tables, args.rounds, args.strong_tables, args.first_seed)]
        rounds = []
        with multiprocessing.Pool(args.workers) as workers:
            for played in workers.imap(play, work, chunksize=4):  # in seed order
                rounds.extend(played)
        if args.save:
            Path(args.save).write_text(json.dumps(rounds))
    if args.first < 1:
        rounds = [r for ruleset in ("base", "saboteur2")
                  for mine in [[r for r in rounds if r["ruleset"] == ruleset]]
                  for r in mine[:math.floor(args.first * len(mine))]]
    played_in = time.perf_counter() - started
    failures = report(rounds, args.warm_up, args.min_decile)
    print(f"\n{len(rounds)} rounds; played in {played_in:.0f} s, rated in "
          f"{time.perf_counter() - started - played_in:.1f} s")
    return failures


if __name__ == "__main__":
    sys.exit(main())
