"""The rules pages' "How strong are the bots": the duplicate table as measured.

The figures are copied from a run of `python bench/bots.py --duplicate` (bench/README.md
"Bot strength" has the run, its command and the whole table); they are measurements,
not settings, and change only when a new run is copied in.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.present.words import team_name

MEASURED_ON = "2026-11-28"
# Per ruleset: (players, side, deals, normal-level win rate, strong-level win rate,
# gain in points, the 95% interval's low and high ends in points).
Measured = tuple[str, str, int, float, float, float, float, float]
MEASURED: dict[str, list[Measured]] = {
    "base": [],
    "saboteur2": [],
}
# The CPU time of one strong move, in ms: median, 95th percentile, maximum.
CPU_MS = (0, 0, 0)


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


def deals_played(ruleset: str) -> int:
    """The deals behind the table's pooled rows (each played twice per side)."""
    return max((row[2] for row in MEASURED.get(ruleset, []) if row[0] == "all"), default=0)
