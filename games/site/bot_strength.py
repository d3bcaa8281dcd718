"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.seatview.core.words import team_name

MEASURED_ON = "2026-12-06"
# Seeds 0-299 of `bench/bots.py --duplicate` with the level the server plays (ALGORITHM
# "team"), first rounds. Per ruleset: (players, side, deals, normal-level win rate,
# strong-level win rate, gain in points, the 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [
        ("3-5", "gold-diggers", 300, 0.62, 0.67, 4.7, 0.5, 8.9),
        ("3-5", "saboteurs", 259, 0.44, 0.52, 8.1, 2.7, 13.5),
        ("6-8", "gold-diggers", 300, 0.49, 0.52, 2.3, -3.4, 8.1),
        ("6-8", "saboteurs", 300, 0.51, 0.63, 12.7, 6.6, 18.8),
        ("9-10", "gold-diggers", 300, 0.50, 0.61, 11.3, 5.5, 17.2),
        ("9-10", "saboteurs", 300, 0.50, 0.61, 11.0, 5.0, 17.0),
        ("all", "gold-diggers", 900, 0.54, 0.60, 6.1, 3.0, 9.2),
        ("all", "saboteurs", 859, 0.48, 0.59, 10.7, 7.3, 14.1),
    ],
    "saboteur2": [
        ("2-5", "blue", 202, 0.55, 0.59, 4.0, -3.7, 11.6),
        ("2-5", "green", 216, 0.57, 0.62, 5.1, -1.5, 11.7),
        ("2-5", "saboteurs", 150, 0.42, 0.49, 7.3, -0.1, 14.8),
        ("6-9", "blue", 285, 0.46, 0.49, 3.5, -3.2, 10.2),
        ("6-9", "green", 290, 0.53, 0.51, -2.4, -9.5, 4.6),
        ("6-9", "saboteurs", 261, 0.18, 0.23, 5.7, 0.6, 10.9),
        ("10-12", "blue", 300, 0.55, 0.47, -8.0, -15.3, -0.7),
        ("10-12", "green", 299, 0.52, 0.53, 0.7, -6.9, 8.3),
        ("10-12", "saboteurs", 298, 0.09, 0.13, 4.0, -0.1, 8.2),
        ("all", "blue", 787, 0.52, 0.51, -0.8, -5.0, 3.4),
        ("all", "green", 805, 0.54, 0.55, 0.7, -3.4, 4.9),
        ("all", "saboteurs", 709, 0.19, 0.25, 5.4, 2.4, 8.4),
    ],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum (78,542 moves).
CPU_MS = (78, 177, 456)


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

