"""'Email me my links' (the home page): one email to an address listing every seat it holds
in a game going on, and in its latest finished games (whose pages keep the replay and the
record), with its own link (games.mail.link_letters). The page answers the same
whatever the address, so it tells nobody who plays; only that mailbox gets the links.
Limited per client address and per asked address (games.ops.limits), and at most one
such email per address and hour (its key)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.mail import plan
from games.models import Game, Seat, SeatKind
from games.models.mailbox_keys import of_mailbox
from games.models.mailboxes import mailbox
from games.ops import limits

OPEN = (Game.Status.SETUP, Game.Status.ACTIVE, Game.Status.PAUSED)
FINISHED_SHOWN = 20  # the latest finished games listed (their replays stay reachable)


def seats_of(address: str) -> list[Seat]:
    """The address's seats: every one in a game going on, then those of its latest
    finished games, newest first."""
    mine = Seat.objects.filter(of_mailbox(address), kind=SeatKind.PERSON)
    going = mine.filter(game__status__in=OPEN).order_by("game_id", "number")
    over = mine.filter(game__status=Game.Status.FINISHED).order_by("-game_id", "number")
    return [*going, *over[:FINISHED_SHOWN]]


def send_links(address: str, client: str | None) -> int:
    """Queue the links email if the address holds seats (in games going on or finished);
    the number of seats (0: no email). Raises limits.Limited. `client` None: the client
    was counted already (a task planning after the page answered, games.home.welcome)."""
    address = address.strip()
    if client is not None:
        limits.hit("links_client", client)
    limits.hit("links_address", mailbox(address))
    seats = seats_of(address)
    if not seats:
        return 0
    hour = timezone.now().strftime("%Y-%m-%dT%H")
    with transaction.atomic():
        plan.queue(plan.own_links(seats[0].email, seats, "asked", hour))
    return len(seats)
