"""Refusals of the clock's acts (a nudge, the table's pause, quiet hours): nothing was
changed; bad input answers 400, what the game does not allow now 409."""

from __future__ import annotations

from typing import ClassVar

from games.kit.service_errors import ServiceError


class ClockRefusal(ServiceError):
    STATUS_OF_CODE: ClassVar[dict[str, int]] = {"bad_pause": 400, "bad_quiet_hours": 400}
