"""Who listens to what: every subscription to a feature's events (games.kit.events), in
one list, made when Django starts (games.apps). A feature publishes what happened; the
features above it that care listen here, so a lower feature never imports a higher one."""

from __future__ import annotations

from games.kit.events import subscribe
from games.mail.services import plan
from games.seats.core.seat_events import SeatAccepted
from games.setup.services import game_setup


def wire() -> None:
    # Accepted through an invitation: the own link by email, then the game may start.
    subscribe(SeatAccepted, plan.own_link_after_invitation)
    subscribe(SeatAccepted, game_setup.start_when_every_seat_accepted)
