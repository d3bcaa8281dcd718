"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.seatview.core.words import team_name

MEASURED_ON = "2026-12-03"
# Seeds 0-197 of `bench/bots.py --duplicate` with the level the server plays (ALGORITHM
# "team"), first rounds. Per ruleset: (players, side, deals, normal-level win rate,
# strong-level win rate, gain in points, the 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [
        ("3-5", "gold-diggers", 198, 0.62, 0.68, 6.6, 1.3, 11.8),
        ("3-5", "saboteurs", 169, 0.45, 0.55, 10.1, 3.1, 17.0),
        ("6-8", "gold-diggers", 198, 0.45, 0.46, 1.0, -6.0, 8.0),
        ("6-8", "saboteurs", 198, 0.55, 0.63, 8.1, 0.7, 15.4),
        ("9-10", "gold-diggers", 198, 0.48, 0.61, 12.6, 5.9, 19.3),
        ("9-10", "saboteurs", 198, 0.52, 0.63, 10.6, 3.7, 17.5),
        ("all", "gold-diggers", 594, 0.52, 0.58, 6.7, 3.0, 10.4),
        ("all", "saboteurs", 565, 0.51, 0.60, 9.6, 5.5, 13.6),
    ],
    "saboteur2": [
        ("2-5", "blue", 133, 0.53, 0.58, 4.5, -5.0, 14.1),
        ("2-5", "green", 144, 0.62, 0.65, 2.8, -5.4, 11.0),
        ("2-5", "saboteurs", 94, 0.40, 0.51, 10.6, -0.0, 21.3),
        ("6-9", "blue", 188, 0.48, 0.48, 0.5, -7.9, 9.0),
        ("6-9", "green", 191, 0.53, 0.52, -1.6, -10.7, 7.6),
        ("6-9", "saboteurs", 171, 0.16, 0.19, 2.9, -3.5, 9.3),
        ("10-12", "blue", 198, 0.57, 0.46, -10.1, -18.8, -1.5),
        ("10-12", "green", 197, 0.52, 0.52, 0.0, -9.5, 9.5),
        ("10-12", "saboteurs", 196, 0.09, 0.14, 4.6, -0.6, 9.8),
        ("all", "blue", 519, 0.53, 0.50, -2.5, -7.6, 2.6),
        ("all", "green", 532, 0.55, 0.55, 0.2, -5.1, 5.5),
        ("all", "saboteurs", 461, 0.18, 0.23, 5.2, 1.3, 9.1),
    ],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum (51,670 moves).
CPU_MS = (97, 234, 507)


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

