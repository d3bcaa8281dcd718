"""Creating a tournament, joining it and leaving it before it starts (one transaction
each, the event's row locked, so of two players taking its last place one does and the
other is told it is full). A mailbox joins an event once (games.people.core.mailboxes).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from games.people.core.mailbox_keys import of_mailbox
from games.setup.services.game_setup import SEED_BITS
from games.tournaments.core.event_rows import Entry, Tournament
from games.tournaments.core.event_settings import EventSettings, TournamentError

OPEN = Tournament.Status.OPEN


@dataclass(frozen=True)
class Joined:
    """Where a player stands after joining or leaving: the event, its players of its cap,
    its status, and whether the player is in it."""

    tournament: int
    players: int
    cap: int
    status: str
    member: bool

    def as_json(self) -> dict[str, object]:
        return {"tournament": self.tournament, "players": self.players, "cap": self.cap,
                "status": self.status, "member": self.member}


def create_event(chosen: EventSettings, *, host_email: str = "",
                 seed: int | None = None) -> Tournament:
    """A new event open for sign-up. `seed`: the pairing seed (default: a random one,
    shown on the event's page so anyone can pair its rounds again)."""
    return Tournament.objects.create(
        name=chosen.name, ruleset=chosen.ruleset, min_size=chosen.min_size,
        max_size=chosen.max_size, rounds=chosen.rounds, hours_per_move=chosen.hours_per_move,
        clock=chosen.clock,
        language=chosen.language, rated=chosen.rated, duplicate=chosen.duplicate,
        cap=chosen.cap, signup_closes_at=chosen.signup_closes_at,
        round_days=chosen.round_days, advance_share=chosen.advance_share,
        seed=secrets.randbits(SEED_BITS) if seed is None else seed,
        host_email=host_email.strip())


def _answer(event: Tournament, address: str) -> Joined:
    return Joined(tournament=event.pk, players=event.entries.count(), cap=event.cap,
                  status=event.status,
                  member=event.entries.filter(of_mailbox(address)).exists())


def _locked(event_id: object) -> Tournament:
    if isinstance(event_id, bool) or not isinstance(event_id, int):
        raise TournamentError(404, "no_tournament", _("There is no such tournament."))
    event = Tournament.objects.select_for_update().filter(pk=event_id).first()
    if event is None:
        raise TournamentError(404, "no_tournament", _("There is no such tournament."))
    return event


def join_event(address: str, event_id: object) -> Joined:
    """Join an event open for sign-up. TournamentError: 404 no such event, 409 it has
    started (or ended), it is full, or the player is in it already."""
    with transaction.atomic():
        event = _locked(event_id)
        if event.status != OPEN:
            raise TournamentError(409, "tournament_started", _(
                "This tournament is no longer open for sign-up."))
        if event.entries.filter(of_mailbox(address)).exists():
            raise TournamentError(409, "already_in", _("You are already in this tournament."))
        if event.entries.count() >= event.cap:
            raise TournamentError(409, "tournament_full", _("This tournament is full."))
        Entry.objects.create(tournament=event, address=address.strip())
        return _answer(event, address)


def leave_event(address: str, event_id: object) -> Joined:
    """Leave an event before it starts. TournamentError: 404 not in such an event, 409 it
    has started (a game of it is left from its seat page)."""
    with transaction.atomic():
        event = _locked(event_id)
        mine = event.entries.filter(of_mailbox(address))
        if not mine.exists():
            raise TournamentError(404, "not_in_tournament",
                                  _("You are not in such a tournament."))
        if event.status != OPEN:
            raise TournamentError(409, "tournament_started", _(
                "This tournament has started: you leave a game of it from the game's page."))
        mine.delete()
        return _answer(event, address)


def events_of(address: str) -> list[Tournament]:
    """The events the address is in, the latest sign-up first."""
    return list(Tournament.objects.filter(
        entries__in=Entry.objects.filter(of_mailbox(address)))
        .order_by("-signup_closes_at", "-pk"))
