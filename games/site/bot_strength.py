"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.seatview.core.words import team_name

MEASURED_ON = "2026-12-03"
# Seeds 0-58 of `bench/bots.py --duplicate` with the level the server plays (ALGORITHM
# "team"), first rounds. Per ruleset: (players, side, deals, normal-level win rate,
# strong-level win rate, gain in points, the 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [
        ("3-5", "gold-diggers", 59, 0.59, 0.69, 10.2, -0.5, 20.9),
        ("3-5", "saboteurs", 51, 0.47, 0.61, 13.7, -0.3, 27.7),
        ("6-8", "gold-diggers", 59, 0.53, 0.49, -3.4, -18.2, 11.4),
        ("6-8", "saboteurs", 59, 0.47, 0.61, 13.6, -3.1, 30.3),
        ("9-10", "gold-diggers", 59, 0.42, 0.56, 13.6, 0.1, 27.0),
        ("9-10", "saboteurs", 59, 0.58, 0.61, 3.4, -8.7, 15.4),
        ("all", "gold-diggers", 177, 0.51, 0.58, 6.8, -0.5, 14.1),
        ("all", "saboteurs", 169, 0.51, 0.61, 10.1, 2.1, 18.1),
    ],
    "saboteur2": [
        ("2-5", "blue", 36, 0.61, 0.72, 11.1, -6.7, 28.9),
        ("2-5", "green", 41, 0.66, 0.73, 7.3, -9.2, 23.9),
        ("2-5", "saboteurs", 24, 0.33, 0.54, 20.8, -4.3, 45.9),
        ("6-9", "blue", 54, 0.48, 0.35, -13.0, -29.2, 3.3),
        ("6-9", "green", 55, 0.49, 0.47, -1.8, -20.5, 16.9),
        ("6-9", "saboteurs", 49, 0.16, 0.18, 2.0, -11.9, 16.0),
        ("10-12", "blue", 58, 0.60, 0.53, -6.9, -22.7, 8.9),
        ("10-12", "green", 57, 0.51, 0.44, -7.0, -27.4, 13.3),
        ("10-12", "saboteurs", 57, 0.07, 0.16, 8.8, -0.5, 18.0),
        ("all", "blue", 148, 0.56, 0.51, -4.7, -14.0, 4.5),
        ("all", "green", 153, 0.54, 0.53, -1.3, -11.9, 9.3),
        ("all", "saboteurs", 130, 0.15, 0.24, 8.5, 0.7, 16.2),
    ],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum (15,344 moves).
CPU_MS = (108, 258, 480)


@dataclass(frozen=True)
class StrengthRow:
    players: str
    side: str
    deals: int
    normal: str
    strong: str
    gain: str
    interval: str


def strength_rows(ruleset: str) -> list[StrengthRow]:
    """The measured rows of `ruleset`, their side named in the active language."""
    return [StrengthRow(players, team_name(side), deals, f"{normal:.0%}", f"{strong:.0%}",
                        f"{gain:+.0f}", f"{low:+.0f} … {high:+.0f}")
            for players, side, deals, normal, strong, gain, low, high in MEASURED.get(ruleset, [])]

