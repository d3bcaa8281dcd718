"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.present.words import team_name

MEASURED_ON = "2026-11-28"
# Seeds 0-19 and 5000-5002 of `bench/bots.py --duplicate`, first rounds.
# Per ruleset: (players, side, deals, normal-level win rate, strong-level win rate,
# gain in points, the 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [
        ("3-5", "gold-diggers", 23, 0.522, 0.652, 13.0, -2.0, 28.1),
        ("3-5", "saboteurs", 19, 0.579, 0.632, 5.3, -14.5, 25.0),
        ("6-8", "gold-diggers", 23, 0.696, 0.565, -13.0, -43.3, 17.2),
        ("6-8", "saboteurs", 23, 0.304, 0.609, 30.4, 6.1, 54.8),
        ("9-10", "gold-diggers", 23, 0.565, 0.565, 0.0, -22.8, 22.8),
        ("9-10", "saboteurs", 22, 0.409, 0.636, 22.7, 3.6, 41.8),
        ("all", "gold-diggers", 69, 0.594, 0.594, 0.0, -13.1, 13.1),
        ("all", "saboteurs", 64, 0.422, 0.625, 20.3, 8.4, 32.2),
    ],
    "saboteur2": [
        ("2-5", "blue", 12, 0.667, 0.750, 8.3, -24.8, 41.5),
        ("2-5", "green", 16, 0.625, 0.812, 18.8, -2.7, 40.2),
        ("2-5", "saboteurs", 7, 0.429, 0.714, 28.6, -16.6, 73.8),
        ("6-9", "blue", 20, 0.450, 0.500, 5.0, -19.3, 29.3),
        ("6-9", "green", 22, 0.636, 0.591, -4.5, -26.2, 17.1),
        ("6-9", "saboteurs", 15, 0.133, 0.200, 6.7, -7.9, 21.2),
        ("10-12", "blue", 22, 0.727, 0.545, -18.2, -40.5, 4.1),
        ("10-12", "green", 22, 0.318, 0.682, 36.4, 4.0, 68.7),
        ("10-12", "saboteurs", 22, 0.045, 0.136, 9.1, -9.9, 28.1),
        ("all", "blue", 54, 0.611, 0.574, -3.7, -17.9, 10.5),
        ("all", "green", 60, 0.517, 0.683, 16.7, 1.2, 32.1),
        ("all", "saboteurs", 44, 0.136, 0.250, 11.4, -0.5, 23.3),
    ],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum (5,858 moves).
CPU_MS = (154, 303, 530)


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

