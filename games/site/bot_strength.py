"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.seatview.core.words import team_name

MEASURED_ON = "2026-11-28"
# Seeds 0-27 of `bench/bots.py --duplicate --algorithm rollout`, first rounds.
# Per ruleset: (players, side, deals, normal-level win rate, strong-level win rate,
# gain in points, the 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [
        ("3-5", "gold-diggers", 56, 0.607, 0.625, 1.8, -11.5, 15.0),
        ("3-5", "saboteurs", 48, 0.458, 0.583, 12.5, -0.6, 25.6),
        ("6-8", "gold-diggers", 56, 0.536, 0.554, 1.8, -12.4, 16.0),
        ("6-8", "saboteurs", 56, 0.464, 0.643, 17.9, 3.1, 32.7),
        ("9-10", "gold-diggers", 56, 0.446, 0.536, 8.9, -6.0, 23.9),
        ("9-10", "saboteurs", 56, 0.554, 0.696, 14.3, 0.1, 28.5),
        ("all", "gold-diggers", 168, 0.530, 0.571, 4.2, -3.7, 12.0),
        ("all", "saboteurs", 160, 0.494, 0.644, 15.0, 7.2, 22.8),
    ],
    "saboteur2": [
        ("2-5", "blue", 34, 0.588, 0.676, 8.8, -12.9, 30.6),
        ("2-5", "green", 40, 0.675, 0.750, 7.5, -5.9, 20.9),
        ("2-5", "saboteurs", 23, 0.348, 0.435, 8.7, -9.5, 26.9),
        ("6-9", "blue", 52, 0.481, 0.519, 3.8, -13.8, 21.5),
        ("6-9", "green", 54, 0.481, 0.537, 5.6, -8.1, 19.2),
        ("6-9", "saboteurs", 48, 0.167, 0.188, 2.1, -9.3, 13.4),
        ("10-12", "blue", 56, 0.589, 0.518, -7.1, -26.5, 12.2),
        ("10-12", "green", 55, 0.527, 0.527, 0.0, -15.9, 15.9),
        ("10-12", "saboteurs", 55, 0.073, 0.109, 3.6, -6.9, 14.2),
        ("all", "blue", 142, 0.549, 0.556, 0.7, -10.1, 11.5),
        ("all", "green", 149, 0.550, 0.591, 4.0, -4.1, 12.1),
        ("all", "saboteurs", 126, 0.159, 0.198, 4.0, -2.8, 10.7),
    ],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum (14,802 moves).
CPU_MS = (114, 233, 529)


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

