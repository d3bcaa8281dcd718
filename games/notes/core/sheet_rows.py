"""One note of a suspicion sheet: what the player of seat `seat` thinks of seat `about`
in round `round`: a mark and a line of their own words.

A note belongs to a person, not to a seat: `mailbox` keeps the writer's mailbox key hash,
and a seat shows only the notes of whoever holds it now (a newcomer who takes a seat over
starts with a blank sheet; the leaver's notes stay theirs, for "forget me" and their data
export). Nobody else ever reads them: no other seat's page, email, API or replay, no
spectator, no moderator page.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.seats.core.seat import Seat

MAX_NOTE_LENGTH = 200


class Mark(models.TextChoices):
    NONE = "", _("no mark")
    TRUSTED = "trusted", _("trusted")
    UNSURE = "unsure", _("unsure")
    SUSPECTED = "suspected", _("suspected")


class SeatNote(models.Model):
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="notes_kept")
    mailbox = models.CharField(max_length=64)  # the writer's mailbox key hash
    about = models.PositiveSmallIntegerField()  # the other seat's number
    round = models.PositiveSmallIntegerField()
    mark = models.CharField(max_length=12, choices=Mark.choices, blank=True, default="")
    text = models.CharField(max_length=MAX_NOTE_LENGTH, blank=True, default="")
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "mailbox", "about", "round"],
                                               name="seat_note_once_a_round")]

    def __str__(self) -> str:  # never the text: it is the writer's alone
        return f"note of seat {self.seat_id} on seat {self.about}, round {self.round}"
