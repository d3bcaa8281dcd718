"""The home's "Tournaments" part (templates/games/_tournaments.html): the events the player
is in (with their place in the standings once rounds have ended), the events they host,
and the events open for sign-up they may join; and what /api/me/<token>/ adds about them.
The games of an event are on the home like any game, each with the player's own link.
"""

from __future__ import annotations

from typing import Any

from games.people.core.mailbox_keys import of_mailbox
from games.tournaments.core.event_rows import Tournament
from games.tournaments.services.entries import events_of
from games.tournaments.services.event_list import EventShown, listed
from games.tournaments.services.hosting import hosted_by
from games.tournaments.services.results import standings


def _place(event: Tournament, address: str) -> int | None:
    """The player's rank in the event's standings; None before any table ended."""
    entry = event.entries.filter(of_mailbox(address)).first()
    for row in standings(event):
        if entry is not None and row.standing.member == entry.pk and row.standing.played:
            return row.standing.rank
    return None


def tournaments_section(address: str) -> dict[str, Any]:
    mine = events_of(address)
    mine_ids = {event.pk for event in mine}
    places = {event.pk: _place(event, address) for event in mine
              if event.status != Tournament.Status.OPEN}
    joinable: list[EventShown] = [
        event for event in listed() if event.status == Tournament.Status.OPEN
        and event.id not in mine_ids and event.players < event.cap]
    return {"my_events": [(event, places.get(event.id)) for event in listed(mine)],
            "hosted_events": listed(hosted_by(address)), "joinable_events": joinable}


def tournaments_json(address: str) -> dict[str, Any]:
    return {"tournaments": [event.as_json() for event in listed(events_of(address))],
            "hosted_tournaments": [event.as_json() for event in listed(hosted_by(address))]}
