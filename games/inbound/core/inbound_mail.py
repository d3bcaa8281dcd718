"""The inbound messages seen (docs/playing.md "Playing by email"; the reply tokens are in
`games.seats.core.reply_tokens`, the pipeline in `games.inbound`).

An `InboundMail` row is written once per inbound message for one of our live reply
addresses (the provider's id of it, else the digest of its bytes, is unique; its
Message-ID too, once read), so a message delivered twice is handled once. The webhook
stores the message unread, as the provider posted it (`payload`: the raw RFC 822 bytes,
or the provider's parsed fields, or where Amazon S3 keeps it; `games.inbound.core.providers`)
and a task reads and acts on it (`games.inbound.services.process`), which empties the payload
again: the row then keeps only the outcome, for moderators (a reply whose From is not the
seat's address is flagged).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField
from games.seats.core.seat import Seat


class InboundMail(KeepsMailboxKeys):
    """One inbound email, recorded before it is acted on."""

    class Outcome(models.TextChoices):
        RECEIVED = "received", _("received")
        PROCESSING = "processing", _("being handled")
        MOVED = "moved", _("move made")
        TALK = "talk", _("table talk")
        REFUSED = "refused", _("refused")
        STALE = "stale", _("game moved on")
        UNKNOWN_TOKEN = "unknown", _("unknown token")
        EMPTY = "empty", _("no command")
        TOO_LARGE = "too_large", _("too large")
        MALFORMED = "malformed", _("unreadable")
        AUTOMATIC = "automatic", _("automatic reply")
        DUPLICATE = "duplicate", _("delivered twice")

    message_id = models.CharField(_("Message-ID"), max_length=250, blank=True)
    event_id = models.CharField(_("provider event id"), max_length=250, blank=True)
    sender = models.CharField(_("from"), max_length=254, blank=True, db_index=True)
    # Whose address the From names (games.people.core.mailboxes), and whose seat the reply
    # address belonged to when the message came (the mailbox key of the seat's address
    # then): only the latter makes a message "received from you" in a data export, since
    # anyone can write any From.
    sender_key = MailboxKeyField(_("sender's mailbox key (hash)"), source="sender")
    seat_key = models.CharField(_("seat's mailbox key (hash)"), max_length=64, blank=True,
                                default="", editable=False)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="inbound_mails")
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                             related_name="inbound_mails")
    outcome = models.CharField(_("outcome"), max_length=10, choices=Outcome.choices,
                               default=Outcome.RECEIVED)
    detail = models.TextField(_("detail"), blank=True)
    # What the task needs: the reply address (its token's hash) and the message as the
    # provider posted it (emptied once the task has acted); the subject (the answer's
    # "Re:") once read.
    token_hash = models.CharField(max_length=64, blank=True, editable=False)
    subject = models.CharField(_("subject"), max_length=300, blank=True)
    payload = models.BinaryField(blank=True, default=b"", editable=False)
    payload_format = models.CharField(max_length=8, blank=True, editable=False)
    size = models.PositiveIntegerField(_("size in bytes"), default=0)
    # The From is not the credential (the token is); a different address is worth a look.
    from_mismatch = models.BooleanField(_("From is not the seat's address"), default=False)
    answered = models.BooleanField(_("answered"), default=False)
    received_at = models.DateTimeField(_("received at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("inbound email")
        verbose_name_plural = _("inbound emails")
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(fields=["message_id"], name="inbound_unique_message_id",
                                    condition=~models.Q(message_id="")),
            models.UniqueConstraint(fields=["event_id"], name="inbound_unique_event_id",
                                    condition=~models.Q(event_id="")),
        ]
        indexes = [models.Index(fields=["sender", "received_at"], name="inbound_sender_time"),
                   models.Index(fields=["sender_key"], name="inbound_sender_key"),
                   models.Index(fields=["seat_key"], name="inbound_seat_key"),
                   models.Index(fields=["outcome", "received_at"], name="inbound_outcome_time")]

    def __str__(self) -> str:
        return f"{self.received_at:%Y-%m-%d %H:%M} {self.sender} {self.outcome}"
