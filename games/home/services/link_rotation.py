"""Replacing every open seat's link at once (`manage.py rotatelinks`): after a link key
leaked or was retired. Each seat gets a new salt under the current LINK_KEY, its old
link dies at once, and its player is emailed the new link (games.mail.doors.link_letters)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction

from games.game.core.game import GOING_ON, SeatKind
from games.kit.link_tokens import current_key_id
from games.mail.services import plan
from games.moves.services.seat_services import rotate_link
from games.seats.core.seat import Seat


@dataclass(frozen=True)
class Rotated:
    seats: int
    emails: int


def rotate_all_links(*, old_keys_only: bool = False) -> Rotated:
    """New links for every person's seat of an open game (or only those made under a key
    other than the current one); one email per seat with its new link."""
    seats = Seat.objects.filter(game__status__in=GOING_ON, kind=SeatKind.PERSON)
    if old_keys_only:
        seats = seats.exclude(link_key_id=current_key_id())
    done = emails = 0
    for seat_id in list(seats.values_list("pk", flat=True)):
        with transaction.atomic():
            rotate_link(seat_id)
            seat = Seat.objects.get(pk=seat_id)
            done += 1
            if seat.email:
                tag = f"seat={seat.pk}:{seat.link_salt[:12]}"
                emails += len(plan.queue(plan.own_links(seat.email, [seat], "rotated", tag)))
    return Rotated(seats=done, emails=emails)
