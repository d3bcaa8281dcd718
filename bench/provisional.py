"""When is a rating settled? Rated rounds until games.ratings.core.model.settled_until says a
rating is no longer provisional, per table size, and how long a settled rating stays
settled without a rated round.

A pool of players of known skill (mu drawn around the newcomer's, spread like
bench/ratings.py's bot levels) sits down at tables of one size; each round's sides are a
real deal's (the engine's roles for a seeded base game of that size; a deal without a
saboteur rates nothing and is dealt again), its result is drawn by a performance noise
per seat (PERFORMANCE_NOISE, around the players' true skills; the sides even on average,
whatever their sizes), and it is
rated in order by the server's model with its learned side teammates, exactly as
games.ratings.services.rounds rates a round of whole seats. It prints, per size, the median and the
10th to 90th percentiles of the rounds a player needed to settle, and the months a
player's rating stays settled after their 40th round (the months away that make a
returning player provisional again).

    python bench/provisional.py [--rounds 4000] [--players 40] [--seed 1]

Pure Python, a few seconds: no database, no bots (the result model stands in for play).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import new_game
from games.ratings.core.model import (
    MONTH_SECONDS,
    Hand,
    Skill,
    Team,
    rate_round,
    settled_until,
    side_key,
    side_prior,
)

BASE_SIDES = {"gold-digger": "gold-diggers", "saboteur": "saboteurs"}
SIZES = (3, 4, 5, 6, 7, 8, 10)
TRUE_SPREAD = 3.0  # mu points: about the spread of the bot levels' learned ratings
# A seat's luck in a round, in mu points (normal): what the model's prediction took before
# its softmax (games.ratings.core.model.SEAT_NOISE is the softmax's, on another scale).
PERFORMANCE_NOISE = 6.0
AT = datetime(2027, 1, 1, tzinfo=UTC)


def sides_of(size: int, rng: random.Random) -> dict[str, list[int]]:
    """The seats of each side of a real deal with a saboteur."""
    while True:
        roles = new_game(size, rng.randrange(1 << 30), "base").roles
        sides: dict[str, list[int]] = {"gold-diggers": [], "saboteurs": []}
        for seat, role in enumerate(roles):
            if role in BASE_SIDES:
                sides[BASE_SIDES[role]].append(seat)
        if all(sides.values()):
            return sides


def run(size: int, rounds: int, players: int, seed: int) -> tuple[list[int], list[float]]:
    """Rounds each player needed to settle, and months settled after their 40th round."""
    rng = random.Random(seed * 100 + size)
    true = {f"p{n}": rng.gauss(25.0, TRUE_SPREAD) for n in range(players)}
    skills = {name: Skill() for name in true}
    played = dict.fromkeys(true, 0)
    settled_at: dict[str, int] = {}
    months: list[float] = []
    side_skills: dict[str, Skill] = {}
    for _ in range(rounds):
        seated = rng.sample(sorted(true), size)
        sides = sides_of(size, rng)
        # Each seat's skill above or below a newcomer's, with its noise: the sides are
        # even on average whatever their sizes (their advantage is the side teammates').
        performance = {side: sum(true[seated[n]] - 25.0 + rng.gauss(0, PERFORMANCE_NOISE)
                                 for n in seats)
                       for side, seats in sides.items()}
        winner = max(performance, key=lambda side: performance[side])
        teams = [Team(side=side_key("base", side, len(seats)), won=side == winner,
                      seats=tuple((Hand(seated[n], skills[seated[n]]),) for n in seats))
                 for side, seats in sides.items()]
        for team in teams:
            side_skills.setdefault(team.side, side_prior(len(team.seats)))
        outcome = rate_round(teams, side_skills)
        side_skills.update(outcome.sides)
        for name, skill in outcome.players.items():
            skills[name] = skill
            played[name] += 1
            until = settled_until(skill, AT)
            if until is not None and name not in settled_at:
                settled_at[name] = played[name]
            if played[name] == 40 and until is not None:
                months.append((until - AT).total_seconds() / MONTH_SECONDS)
    return list(settled_at.values()), months


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.floor(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4000, help="rated rounds per size")
    parser.add_argument("--players", type=int, default=40, help="players in the pool")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("| players at the table | rounds to settle: median | 10th-90th percentile | "
          "players settled | months settled after 40 rounds: median |\n"
          "|---:|---:|---|---:|---:|")
    for size in SIZES:
        needed, months = run(size, args.rounds, args.players, args.seed)
        away = f"{statistics.median(months):.1f}" if months else "-"
        print(f"| {size} | {statistics.median(needed):.0f} | {percentile(needed, 0.1)}-"
              f"{percentile(needed, 0.9)} | {len(needed)} of {args.players} | {away} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
