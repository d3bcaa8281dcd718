"""Duplicate play of the bot levels (`python bench/bots.py --duplicate`).

Each deal (a seed: the player count, the cards, the roles) is played twice with the
same cards and the same bot seeds turn by turn: once with the strong level in the seats
of the side under test, once with the normal level there; everyone else is the normal
level both times. The luck of the deal is the same in both games, so the per-deal
difference of round wins (+1, 0 or -1) measures the level alone, and its mean (the
gain) has a 95% interval from the paired differences (mean ± t standard errors)
far narrower than two independent win rates would give for the same games.

The strong level plays with its work budget but without its wall-clock net
(`games.bots.strong.budget`): a long run niced on a shared machine waits for the CPU
far beyond the net's 1.5 s and would otherwise measure the machine's load, each search
dropped for the normal move. The server plays the same moves whenever the net does not
fire; each strong move's wall-clock and CPU time are kept and summed up under the table.

The all-normal game of a deal is the same whichever side is under test, so it is played
once per deal. A deal in which the side holds no seat (Saboteur 2 sets dwarf cards
aside) is not counted for that side.

Resumable: every game played is appended to `--results` as one JSON line (the deal, who
played strong, the round results, the time of each strong move); a rerun reads the file,
skips the games already there and plays the rest, so a long run can be stopped and
continued across sessions (`--games` larger than before extends it). `--table` prints
the table from the file without playing. The table depends only on the results, so the
same seeds always give the same table.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import statistics
import time
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

from bots import RANGES, SIDES, side_won

from games.bots import Budget, choose_move
from games.bots import strong as strong_level
from games.engine import apply, legal_moves, new_game, view

NORMAL = "normal"  # the job with normal bots everywhere
# A job: (ruleset, low, high, seed, who: NORMAL or the side playing strong, rounds).
Job = tuple[str, int, int, int, str, int]
# Student's t at 97.5% by degrees of freedom (a few deals need a wider interval than
# the normal 1.96); beyond the table, 1.96.
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26,
        10: 2.23, 12: 2.18, 15: 2.13, 20: 2.09, 30: 2.04, 60: 2.00, 120: 1.98}
NO_NET = Budget(seconds=math.inf)  # the work budget alone decides


def seats_of(low: int, high: int, seed: int) -> int:
    return low + seed % (high - low + 1)


def side_seated(ruleset: str, low: int, high: int, seed: int, side: str) -> bool:
    """Whether the side holds a seat in this deal (its first round)."""
    state = new_game(seats_of(low, high, seed), seed, ruleset)
    return any(role in SIDES[ruleset][side] for role in state.roles)


def play(job: Job) -> dict[str, Any]:
    """One game of a deal to the end of its first `rounds` rounds: the results line."""
    ruleset, low, high, seed, who, rounds = job
    strong = SIDES[ruleset].get(who, frozenset())
    state = new_game(seats_of(low, high, seed), seed, ruleset)
    turn = 0
    wall: list[float] = []
    cpu: list[float] = []
    while not state.finished and state.round <= rounds:
        actor = state.actor
        assert actor is not None
        level = "strong" if state.roles[actor] in strong else "normal"
        started, used = time.perf_counter(), time.process_time()
        move = choose_move(view(state, actor), legal_moves(state), seed * 7919 + turn,
                           level=level, budget=NO_NET if level == "strong" else None)
        if level == "strong":
            wall.append(round((time.perf_counter() - started) * 1000, 1))
            cpu.append(round((time.process_time() - used) * 1000, 1))
        state = apply(state, move)
        turn += 1
    results = [str(e["winners"]) for e in state.log if e["type"] == "round_end"][:rounds]
    return {"ruleset": ruleset, "low": low, "high": high, "seed": seed, "who": who,
            "algorithm": strong_level.ALGORITHM if who != NORMAL else None,
            "rounds": rounds, "results": results, "wall_ms": wall, "cpu_ms": cpu,
            "maps": maps(state.log, ruleset)}


def maps(log: list[Any], ruleset: str) -> dict[str, list[int]]:
    """Per side: the maps its seats played, and how many of them were under a goal a
    seat of the same side had mapped before in the round (the referee reads the roles
    from each round's end)."""
    out = {side: [0, 0] for side in SIDES[ruleset]}
    start = 0
    for index, event in enumerate(log):
        if event["type"] == "round_start":
            start = index
        if event["type"] != "round_end":
            continue
        roles = [str(r) for r in event["roles"]]
        seen: dict[str, set[int]] = {side: set() for side in SIDES[ruleset]}
        for made in log[start:index]:
            if made["type"] != "map":
                continue
            for side, members in SIDES[ruleset].items():
                if roles[int(made["seat"])] in members:
                    out[side][0] += 1
                    out[side][1] += int(made["goal"]) in seen[side]
                    seen[side].add(int(made["goal"]))
    return out


def key(line: dict[str, Any]) -> Job:
    return (str(line["ruleset"]), int(line["low"]), int(line["high"]), int(line["seed"]),
            str(line["who"]), int(line["rounds"]))


def read(path: Path) -> list[dict[str, Any]]:
    """The games already played (a line cut short by a killed run is ignored)."""
    if not path.exists():
        return []
    lines = []
    for text in path.read_text().splitlines():
        try:
            lines.append(json.loads(text))
        except json.JSONDecodeError:
            continue
    return lines


def jobs(rulesets: list[str], seeds: Iterable[int], rounds: int,
         done: set[Job], sides: Collection[str] | None = None) -> Iterator[Job]:
    """The games still to play, deal by deal (every cell fills at the same pace);
    `sides`: only these sides' strong games (None: every side)."""
    for seed in seeds:
        for ruleset in rulesets:
            for low, high in RANGES[ruleset]:
                for who in [NORMAL, *SIDES[ruleset]]:
                    job = (ruleset, low, high, seed, who, rounds)
                    if job in done or (who != NORMAL and sides is not None
                                       and who not in sides):
                        continue
                    if who != NORMAL and not side_seated(ruleset, low, high, seed, who):
                        continue
                    yield job


def append(path: Path, line: dict[str, Any]) -> None:
    """One line, whole (a file cut mid-line by a killed run gets a fresh line first)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    cut = path.exists() and path.stat().st_size > 0 and not path.read_bytes().endswith(b"\n")
    with path.open("a") as out:
        out.write(("\n" if cut else "") + json.dumps(line, sort_keys=True) + "\n")
        out.flush()


def of(algorithm: str, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The all-normal games and the strong games of `algorithm` (a file may hold the
    strong games of several; lines from before the field was kept are "rollout")."""
    return [line for line in lines if line["who"] == NORMAL
            or (line.get("algorithm") or "rollout") == algorithm]


def versus(rulesets: list[str], lines: list[dict[str, Any]], new: str, old: str,
           rounds: int = 1) -> str:
    """The strong level's two algorithms on the same deals: per side, the mean per-deal
    difference of round wins between the side played by `new` and by `old` (the deals
    both played), as the duplicate table's gain against the normal level."""
    def algorithm(line: dict[str, Any]) -> str:
        return str(line.get("algorithm") or "rollout")

    out: list[str] = []
    for ruleset in rulesets:
        for side in SIDES[ruleset]:
            # `old`'s games of this side stand in for the all-normal game of the deal.
            paired = [line for line in lines if line["who"] == side
                      and algorithm(line) == new] + [
                {**line, "who": NORMAL} for line in lines
                if line["who"] == side and algorithm(line) == old]
            rows = table([ruleset], paired, rounds).splitlines()
            out += [row for row in rows[2:] if row.split(" | ")[2] == side]
    header = table([], [], rounds).splitlines()
    header[0] = header[0].replace("normal wins", f"{old} wins").replace(
        "strong wins", f"{new} wins")
    return "\n".join([*header, *sorted(out, key=lambda row: order(rulesets, row))])


def order(rulesets: list[str], row: str) -> tuple[int, int, int]:
    """A versus row's place: the duplicate table's order (ruleset, band, side)."""
    ruleset, players, side = row.strip("| ").split(" | ")[:3]
    bands = [f"{low}-{high}" for low, high in RANGES[ruleset]] + ["all"]
    return rulesets.index(ruleset), bands.index(players), list(SIDES[ruleset]).index(side)


def duplicate(rulesets: list[str], games: int, workers: int, rounds: int, first_seed: int,
              results: Path, table_only: bool = False, algorithm: str | None = None,
              against: str | None = None, sides: Collection[str] | None = None) -> int:
    """Play what `results` lacks of seeds first_seed..first_seed+games-1, then the table.
    `algorithm`: the strong level's (games.bots.strong.ALGORITHMS; its default if None);
    `against`: another algorithm, to print the two compared on the deals both played;
    `sides`: play only these sides' strong games (a side whose play did not change)."""
    started = time.perf_counter()
    strong_level.ALGORITHM = algorithm or strong_level.ALGORITHM  # forked workers inherit it
    if not table_only:
        done = {key(line) for line in of(strong_level.ALGORITHM, read(results))}
        work = jobs(rulesets, range(first_seed, first_seed + games), rounds, done, sides)
        played = 0
        if workers > 1:
            with multiprocessing.Pool(workers) as pool:
                for line in pool.imap(play, work, chunksize=1):
                    append(results, line)
                    played += 1
        else:
            for line in map(play, work):
                append(results, line)
                played += 1
        print(f"{played} games played in {time.perf_counter() - started:.0f} s "
              f"with {workers} worker(s); results in {results}.\n")
    lines = [line for line in of(strong_level.ALGORITHM, read(results))
             if line["ruleset"] in rulesets and line["rounds"] == rounds
             and first_seed <= line["seed"] < first_seed + games]
    print(table(rulesets, lines, rounds))
    print(times(lines))
    print(remaps(rulesets, lines))
    print(outcomes(rulesets, lines))
    if against:
        both = [line for line in read(results) if line["ruleset"] in rulesets
                and line["rounds"] == rounds
                and first_seed <= line["seed"] < first_seed + games]
        print(f"\n{strong_level.ALGORITHM} against {against}, the same deals:\n")
        print(versus(rulesets, both, strong_level.ALGORITHM, against, rounds))
    return 0


def played_both_ways(lines: list[dict[str, Any]], ruleset: str, side: str,
                     band: tuple[int, int] | None = None) -> list[dict[str, list[str]]]:
    """Per deal played both ways (in deal order): the round results with the side at
    the normal level (NORMAL) and at the strong level (`side`)."""
    games: dict[tuple[int, int, int], dict[str, list[str]]] = defaultdict(dict)
    for line in lines:
        if line["ruleset"] == ruleset and line["who"] in (NORMAL, side) and (
                band is None or (line["low"], line["high"]) == band):
            games[(line["low"], line["high"], line["seed"])][line["who"]] = line["results"]
    return [games[deal] for deal in sorted(games)
            if NORMAL in games[deal] and side in games[deal]]


def pairs(lines: list[dict[str, Any]], ruleset: str, band: tuple[int, int] | None,
          side: str) -> list[tuple[int, int]]:
    """Per deal: the side's round wins with the strong level and with the normal one."""
    return [(sum(side_won(ruleset, side, r) for r in pair[side]),
             sum(side_won(ruleset, side, r) for r in pair[NORMAL]))
            for pair in played_both_ways(lines, ruleset, side, band)]


def t975(freedom: int) -> float:
    """Student's t quantile for a two-sided 95% interval (the next smaller tabled degrees
    of freedom: a slightly wider interval)."""
    return next((T975[d] for d in sorted(T975, reverse=True) if d <= freedom), 12.71) \
        if freedom <= 120 else 1.96


def interval(diffs: list[int], bound: int = 1) -> tuple[float, float, float]:
    """The mean difference and its 95% interval (Student's t on the paired differences,
    within ±bound, the most a deal can differ by; all differences equal gives a
    zero-width interval: too few deals to say more)."""
    if not diffs:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(diffs)
    half = math.inf if len(diffs) < 2 else \
        t975(len(diffs) - 1) * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return mean, max(-bound, mean - half), min(bound, mean + half)


def table(rulesets: list[str], lines: list[dict[str, Any]], rounds: int = 1) -> str:
    """The duplicate table: per ruleset, band (and all bands pooled) and side; rates and
    gains are per round (a deal of `rounds` rounds counts each)."""
    rows = ["| ruleset | players | side | deals | normal wins | strong wins | gain "
            "| 95% interval |", "|---|---|---|---:|---:|---:|---:|---|"]
    for ruleset in rulesets:
        for band in [*RANGES[ruleset], None]:
            for side in SIDES[ruleset]:
                deals = pairs(lines, ruleset, band, side)
                count = max(1, len(deals)) * rounds
                strong = sum(s for s, _ in deals) / count
                normal = sum(n for _, n in deals) / count
                mean, low, high = (v / rounds for v in interval([s - n for s, n in deals],
                                                                 rounds))
                players = "all" if band is None else f"{band[0]}-{band[1]}"
                rows.append(f"| {ruleset} | {players} | {side} | {len(deals)} | "
                            f"{normal:.0%} | {strong:.0%} | {mean * 100:+.1f} | "
                            f"{low * 100:+.1f} to {high * 100:+.1f} |")
    return "\n".join(rows)


def remaps(rulesets: list[str], lines: list[dict[str, Any]]) -> str:
    """Per side: of the maps its seats played, the share under a goal the side had
    mapped before, with the normal level and with the strong one playing the side
    (the games that kept the count)."""
    rows = ["", "| ruleset | side | normal: maps | under a goal the side mapped | "
            "strong: maps | under a goal the side mapped |", "|---|---|---:|---:|---:|---:|"]
    for ruleset in rulesets:
        for side in SIDES[ruleset]:
            cells = []
            for who in (NORMAL, side):
                counts = [line["maps"][side] for line in lines if "maps" in line
                          and line["ruleset"] == ruleset and line["who"] == who]
                made, repeated = sum(c[0] for c in counts), sum(c[1] for c in counts)
                cells += [str(made), f"{repeated / max(1, made):.0%}"]
            rows.append(f"| {ruleset} | {side} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def outcomes(rulesets: list[str], lines: list[dict[str, Any]]) -> str:
    """Per side: how the rounds ended on the deals played both ways, with the side at
    the normal level and at the strong level: each result's share (where a gain comes
    from, or goes: in Saboteur 2 a door team can take rounds from the rival team and
    lose as many to the saboteurs, for no gain of its own)."""
    rows = []
    for ruleset in rulesets:
        ended = sorted({result for line in lines if line["ruleset"] == ruleset
                        for result in line["results"]})
        rows += ["", f"| {ruleset}: side | deals | played by | " + " | ".join(ended) + " |",
                 "|---|---:|---|" + "---:|" * len(ended)]
        for side in SIDES[ruleset]:
            both = played_both_ways(lines, ruleset, side)
            for who, level in ((NORMAL, "normal"), (side, "strong")):
                results = [result for pair in both for result in pair[who]]
                shares = [f"{results.count(r) / max(1, len(results)):.0%}" for r in ended]
                rows.append(f"| {side} | {len(both)} | {level} | " + " | ".join(shares)
                            + " |")
    return "\n".join(rows)


def times(lines: list[dict[str, Any]]) -> str:
    """The time per strong move: wall clock and CPU, median, p95 and max."""
    parts = []
    for field, name in (("wall_ms", "wall"), ("cpu_ms", "CPU")):
        spent = sorted(t for line in lines for t in line.get(field, []))
        if not spent:
            return "No strong move timed."
        p95 = spent[min(len(spent) - 1, int(0.95 * len(spent)))]
        parts.append(f"{name} median {statistics.median(spent):.0f} ms, p95 {p95:.0f} ms, "
                     f"max {spent[-1]:.0f} ms")
    count = sum(len(line.get("wall_ms", [])) for line in lines)
    return f"\nTime per strong move ({count} moves): " + "; ".join(parts) + "."
