"""The emails the clock's events ask for (games.clock.core.clock_events, wired in
games.wiring): the nudge, the pause proposal to the others who decide, the missed
deadline. Planned in the clock's transaction (sent after its commit)."""

from __future__ import annotations

from games.clock.core.clock_events import DeadlineMissed, PauseProposed, TurnNudged
from games.mail.services import follow_ups, plan


def on_nudged(event: TurnNudged) -> None:
    plan.queue(plan.nudge(event.game, event.actor, event.by))


def on_pause_proposed(event: PauseProposed) -> None:
    """Every other player who decides hears of it as their setting allows, and can answer
    with `pause agree`."""
    plan.queue([spec for other in event.others
                for spec in plan.pause_proposal(event.game, other)])


def on_deadline_missed(event: DeadlineMissed) -> None:
    follow_ups.after_deadline_missed(event.game_id, event.version, event.seat_id)
