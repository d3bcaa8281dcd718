"""The beat's sweep of open seats (every few minutes): close the open seats of ended
games, open absent seats where games allow it, and offer every open seat to the next
volunteers when nobody answered in time."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from games.handover.offers import offer_to_volunteers
from games.handover.opening import close_ended_games, open_absent_seats
from games.models.handover_rows import OpenSeat


def sweep_open_seats() -> dict[str, int]:
    """Close the open seats of ended games, open absent seats where games allow it, and
    offer every open seat to the next volunteers when nobody answered in time."""
    closed = close_ended_games()
    opened = open_absent_seats()
    cutoff = timezone.now() - timedelta(hours=settings.HANDOVER_OFFER_HOURS)
    due = OpenSeat.objects.filter(closed_at__isnull=True).filter(
        Q(offered_at__isnull=True) | Q(offered_at__lte=cutoff)).values_list("pk", flat=True)
    offered = sum(offer_to_volunteers(pk) for pk in list(due))
    return {"closed": closed, "opened": opened, "offered": offered}
