"""Refusals of the handover services: nothing was changed. A module of its own so that
the web views can catch them without importing the handover's services."""

from __future__ import annotations

from games.kit.service_errors import ServiceError


class HandoverError(ServiceError):
    """A refused handover act (a seat that is not open, an offer already answered, a cap
    reached); `code` is stable, `message` is for people."""


class SeatGone(HandoverError):
    """The open seat was taken by someone else, or its player stayed, a moment ago."""
