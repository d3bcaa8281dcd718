"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.seatview.core.words import team_name

MEASURED_ON = "2026-12-06"
# Seeds 0-355 (base) and 0-610 (Saboteur 2) of `bench/bots.py --duplicate` with the level
# the server plays (ALGORITHM "team"), first rounds: at least 300 deals a cell. Per ruleset:
# (players, side, deals, normal-level win rate, strong-level win rate, gain in points, the
# 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [
        ("3-5", "gold-diggers", 356, 0.63, 0.68, 5.1, 1.2, 8.9),
        ("3-5", "saboteurs", 307, 0.42, 0.51, 9.1, 4.2, 14.1),
        ("6-8", "gold-diggers", 356, 0.50, 0.53, 3.7, -1.6, 8.9),
        ("6-8", "saboteurs", 356, 0.50, 0.61, 11.0, 5.5, 16.4),
        ("9-10", "gold-diggers", 356, 0.50, 0.61, 10.4, 5.1, 15.7),
        ("9-10", "saboteurs", 356, 0.50, 0.63, 12.9, 7.4, 18.4),
        ("all", "gold-diggers", 1068, 0.54, 0.61, 6.4, 3.6, 9.2),
        ("all", "saboteurs", 1019, 0.48, 0.59, 11.1, 8.0, 14.2),
    ],
    "saboteur2": [
        ("2-5", "blue", 430, 0.56, 0.59, 2.3, -2.9, 7.5),
        ("2-5", "green", 437, 0.54, 0.62, 8.2, 3.5, 13.0),
        ("2-5", "saboteurs", 321, 0.42, 0.49, 6.9, 1.7, 12.0),
        ("6-9", "blue", 576, 0.50, 0.54, 3.8, -1.2, 8.9),
        ("6-9", "green", 591, 0.51, 0.55, 3.9, -1.0, 8.8),
        ("6-9", "saboteurs", 534, 0.16, 0.22, 5.6, 2.1, 9.1),
        ("10-12", "blue", 609, 0.53, 0.54, 1.1, -4.0, 6.3),
        ("10-12", "green", 610, 0.56, 0.55, -1.3, -6.5, 3.9),
        ("10-12", "saboteurs", 607, 0.08, 0.12, 4.4, 1.6, 7.3),
        ("all", "blue", 1615, 0.53, 0.55, 2.4, -0.6, 5.4),
        ("all", "green", 1638, 0.54, 0.57, 3.1, 0.2, 6.0),
        ("all", "saboteurs", 1462, 0.18, 0.24, 5.4, 3.3, 7.5),
    ],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum (118,900 moves).
CPU_MS = (94, 275, 684)


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

