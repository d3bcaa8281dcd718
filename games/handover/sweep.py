"""The beat's sweep of open seats (every few minutes): close the open seats of ended
games, open absent seats where games allow it, and offer every open seat to the next
volunteers (games.handover.offers: when its round of offers has room, or is over)."""

from __future__ import annotations

from games.handover.offers import offer_to_volunteers
from games.handover.opening import close_ended_games, open_absent_seats
from games.models.handover_rows import OpenSeat


def sweep_open_seats() -> dict[str, int]:
    """Close the open seats of ended games, open absent seats where games allow it, and
    offer every open seat to whoever fits now: a volunteer who confirmed or resumed since
    the last sweep is asked within minutes, a few at a time and within their daily cap."""
    closed = close_ended_games()
    opened = open_absent_seats()
    still_open = OpenSeat.objects.filter(closed_at__isnull=True).values_list("pk", flat=True)
    offered = sum(offer_to_volunteers(pk) for pk in list(still_open))
    return {"closed": closed, "opened": opened, "offered": offered}
