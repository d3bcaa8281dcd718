"""Muting another player's table talk for oneself (the seat page; docs/playing.md "Mute
and report"). A mute hides the muted seat's talk from the muting seat's pages and emails,
for nobody else.

A mute is between two people at one table: it names both seats and keeps each one's
mailbox key hash as it was when the mute was made, and holds only while both seats are
still held by those people (a newcomer who takes either seat over starts with no mute).

    muted_seats(seat)          the seat numbers whose talk `seat`'s reader does not see

Every place that shows table talk to a seat's player (the seat page, turn emails, the
digest) filters it through this.
"""

from __future__ import annotations

from typing import TypeVar

from django.db import models
from django.utils import timezone

from games.game.core.game import Game
from games.game.core.talk_and_notices import Message
from games.seats.core.seat import Seat


class TalkMute(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="talk_mutes")
    by_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="mutes_made")
    by_mailbox = models.CharField(max_length=64)
    muted_seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="muted_by")
    muted_mailbox = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["by_seat", "muted_seat"],
                                               name="talk_mute_once")]

    def __str__(self) -> str:
        return f"seat {self.by_seat_id} mutes seat {self.muted_seat_id}"


def muted_seats(seat: Seat | None) -> frozenset[int]:
    """The numbers of the seats whose talk `seat`'s player has muted (none for a
    spectator, None). One query."""
    if seat is None or not seat.pk:
        return frozenset()
    rows = (TalkMute.objects.filter(by_seat=seat, by_mailbox=seat.mailbox_key)
            .values_list("muted_seat__number", "muted_mailbox", "muted_seat__mailbox_key"))
    return frozenset(number for number, kept, now in rows if kept == now)


M = TypeVar("M", bound=Message)
