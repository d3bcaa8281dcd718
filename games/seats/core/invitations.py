"""What the daily invitation caps count, per recipient's mailbox and per host's mailbox:
one Invitation row per seat link sent to an address (a setup's, a rematch's, an open
seat's offer), whether still waiting for its host's confirmation or sent (only those sent
count: naming a stranger in a setup never confirmed takes nothing from them). Addresses
are kept as hashes of the mailbox they reach (games.people.core.mailboxes)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.people.core.mailboxes import mailbox_hash
from games.seats.core.seat import Seat


class Invitation(models.Model):
    """One invitation to one mailbox: written when a host asks for it on the setup page
    (`waiting` until they confirm) or when one is sent otherwise (creategame, a moderator),
    dated when it leaves or is asked for. Kept when its game or seat is deleted: the
    mailbox did get it (one still waiting is deleted with its expired setup)."""

    recipient_hash = models.CharField(_("recipient's mailbox (hash)"), max_length=64)
    # Empty for invitations no web host asked for (creategame, moderators).
    host_hash = models.CharField(_("host's mailbox (hash)"), max_length=64, blank=True)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="+")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    waiting = models.BooleanField(_("waits for its host's confirmation"), default=False)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [models.UniqueConstraint(fields=["seat", "recipient_hash"],
                                               name="invitation_once_per_seat_mailbox")]
        indexes = [
            models.Index(fields=["recipient_hash", "created_at"], name="invitation_recipient"),
            models.Index(fields=["host_hash", "created_at"], name="invitation_host"),
        ]

    def __str__(self) -> str:
        return f"invitation to {self.recipient_hash[:8]}"


def record_invitations(seats: Iterable[Seat], *, host_email: str = "",
                       at: datetime | None = None, waiting: bool = False) -> None:
    """Count one invitation per seat's mailbox (once per seat and mailbox: a seat's link
    sent again is the same invitation); `waiting`: not before its host confirms."""
    at = at or timezone.now()
    host = mailbox_hash(host_email) if host_email else ""
    Invitation.objects.bulk_create(
        [Invitation(recipient_hash=mailbox_hash(seat.email), host_hash=host, game_id=seat.game_id,
                    seat=seat, created_at=at, waiting=waiting) for seat in seats if seat.email],
        ignore_conflicts=True)


class CapsTurn(models.Model):
    """One row that setups and confirmations lock in turn (`select_for_update`), so two at
    once cannot both pass just below a cap (games.setup.services.web_setup)."""

    name = models.CharField(max_length=20, unique=True, default="setup")

    class Meta:
        verbose_name = _("setup caps turn")
        verbose_name_plural = _("setup caps turns")

    def __str__(self) -> str:
        return self.name


def one_at_a_time() -> None:
    """Setups and confirmations check the caps one at a time, so that two at once cannot
    both pass just below a cap: each locks the one CapsTurn row until its transaction ends
    (SQLite's transactions take the write lock when they begin anyway: settings,
    transaction_mode IMMEDIATE)."""
    CapsTurn.objects.get_or_create(name="setup")
    CapsTurn.objects.select_for_update().get(name="setup")
