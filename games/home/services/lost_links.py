"""'Email me my links' (/me/ and the front page): one email to an address with its home
link and every seat it holds in a game going on, and in its latest finished games (whose
pages keep the replay and the record), with its own link (games.mail.doors.link_letters).

The request tells nobody who plays here, neither by its answer nor by its time: it does
the same work whatever the address (the limits, then a task queued after the answer), and
the task looks the address up and plans the email. Limited per client address and per
asked address (games.kit.limits), and at most one such email per address and hour (its
key)."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from games.game.core.game import GOING_ON, Game, SeatKind
from games.kit import limits
from games.kit.after_commit import queue_on_commit
from games.mail.services import plan
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox
from games.seats.core.seat import Seat

FINISHED_SHOWN = 20  # the latest finished games listed (their replays stay reachable)


def seats_with_links(address: str) -> list[Seat]:
    """The address's seats: every one in a game going on, then those of its latest
    finished games, newest first."""
    mine = Seat.objects.filter(of_mailbox(address), kind=SeatKind.PERSON)
    going = mine.filter(game__status__in=GOING_ON).order_by("game_id", "number")
    over = mine.filter(game__status=Game.Status.FINISHED).order_by("-game_id", "number")
    return [*going, *over[:FINISHED_SHOWN]]


def ask_for_links(address: str, client: str) -> None:
    """Count the request against the limits and queue the lookup: the same work whatever
    the address. Raises limits.Limited."""
    address = address.strip()
    limits.hit("links_client", client)
    limits.hit("links_address", mailbox(address))
    # With the broker down, the request does the lookup itself: slower for everyone,
    # and no email is lost.
    queue_on_commit(send_links, address, fallback=lambda: send_links_now(address))


def send_links_now(address: str) -> int:
    """Queue the links email if the address holds seats (in games going on or finished);
    the number of seats (0: no email)."""
    seats = seats_with_links(address)
    if not seats:
        return 0
    hour = timezone.now().strftime("%Y-%m-%dT%H")
    with transaction.atomic():
        plan.queue(plan.own_links(seats[0].email, seats, "asked", hour))
    return len(seats)


@shared_task(name="games.tasks.send_links")
def send_links(address: str) -> int:
    """The worker's half of 'email me my links' (queued by ask_for_links)."""
    return send_links_now(address)
