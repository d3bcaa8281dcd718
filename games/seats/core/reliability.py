"""A player's reliability, by the mailbox that played (not by the seat): a missed deadline
stays with the person who missed it when someone else takes the seat over, and taking a
seat over for others is to the newcomer's credit (players' records, their home page).

Only the hash of the person's mailbox key (games.people.core.mailboxes.mailbox_key_hash) is
kept here, never the address: a player who asks to be forgotten is erased by deleting
their hash's rows. (`left_mailbox` is the counted mailbox of who left, copied from the
open seat: games.handover never offers a seat back to it.)
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.seats.core.seat import Seat


class MissedDeadline(models.Model):
    """One deadline a person's seat missed (the server played for it, or the game waited)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="missed_deadlines")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="missed_deadlines")
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64, db_index=True)
    version = models.PositiveIntegerField(_("at version"))
    created_at = models.DateTimeField(_("missed at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("missed deadline")
        verbose_name_plural = _("missed deadlines")
        constraints = [models.UniqueConstraint(fields=["seat", "version"],
                                               name="missed_deadline_once_per_turn")]

    def __str__(self) -> str:
        return f"seat {self.seat_id} v{self.version}"


class SeatTakeover(models.Model):
    """Someone took over a seat another person (or a bot standing in) played before."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="takeovers")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="takeovers")
    left_mailbox = models.CharField(_("who left (hash)"), max_length=64, blank=True)
    taken_by_mailbox = models.CharField(_("who took over (hash)"), max_length=64,
                                        db_index=True)
    version = models.PositiveIntegerField(_("at version"))
    created_at = models.DateTimeField(_("taken over at"), default=timezone.now,
                                      editable=False)

    class Meta:
        verbose_name = _("seat taken over")
        verbose_name_plural = _("seats taken over")

    def __str__(self) -> str:
        return f"seat {self.seat_id} v{self.version}"
