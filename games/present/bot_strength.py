"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.present.words import team_name

MEASURED_ON = "2026-11-28"
# Seeds 0-27 of `bench/bots.py --duplicate --algorithm rollout`, first rounds.
# Per ruleset: (players, side, deals, normal-level win rate, strong-level win rate,
# gain in points, the 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [
        ("3-5", "gold-diggers", 28, 0.571, 0.679, 10.7, -5.7, 27.2),
        ("3-5", "saboteurs", 23, 0.522, 0.565, 4.3, -11.6, 20.3),
        ("6-8", "gold-diggers", 28, 0.607, 0.571, -3.6, -33.0, 25.8),
        ("6-8", "saboteurs", 28, 0.393, 0.750, 35.7, 13.6, 57.8),
        ("9-10", "gold-diggers", 28, 0.500, 0.607, 10.7, -11.7, 33.1),
        ("9-10", "saboteurs", 28, 0.500, 0.643, 14.3, -3.4, 32.0),
        ("all", "gold-diggers", 84, 0.560, 0.619, 6.0, -6.9, 18.8),
        ("all", "saboteurs", 79, 0.468, 0.658, 19.0, 8.1, 29.8),
    ],
    "saboteur2": [
        ("2-5", "blue", 17, 0.529, 0.706, 17.6, -9.7, 45.0),
        ("2-5", "green", 22, 0.682, 0.591, -9.1, -32.5, 14.4),
        ("2-5", "saboteurs", 11, 0.273, 0.636, 36.4, 2.4, 70.3),
        ("6-9", "blue", 25, 0.440, 0.400, -4.0, -29.5, 21.5),
        ("6-9", "green", 27, 0.556, 0.630, 7.4, -14.7, 29.5),
        ("6-9", "saboteurs", 22, 0.136, 0.091, -4.5, -14.0, 5.0),
        ("10-12", "blue", 28, 0.679, 0.571, -10.7, -35.6, 14.1),
        ("10-12", "green", 27, 0.407, 0.630, 22.2, -8.0, 52.4),
        ("10-12", "saboteurs", 28, 0.107, 0.179, 7.1, -11.3, 25.5),
        ("all", "blue", 70, 0.557, 0.543, -1.4, -15.8, 13.0),
        ("all", "green", 76, 0.539, 0.618, 7.9, -6.5, 22.3),
        ("all", "saboteurs", 61, 0.148, 0.230, 8.2, -2.6, 19.0),
    ],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum (7,249 moves).
CPU_MS = (107, 210, 381)


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

