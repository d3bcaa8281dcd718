"""When a player leaves: open seats, the offers that fill them, and standby volunteers
(games.handover has the services; docs/playing.md "When a player leaves").

- OpenSeat: a seat looking for a new player, from when it opened (its player asked, a
  moderator opened it, or it was marked absent in a game that allows that) until
  someone took it over or its player stayed. At most one open row per seat.
- SeatOffer: one address asked whether it will take an open seat (a standby volunteer,
  someone a player of the table invited, or someone who asked on the open-seats page).
  Its link opens the offer; the first offer accepted takes the seat, the others die.
- Volunteer: an address on standby for open seats, confirmed through its private link
  (the same link manages it: pause, settings, leave). An address that leaves is never
  offered a seat again (unless it signs up again and confirms anew).

Private links here are HMAC(link key, purpose + a random salt), like a seat's own link
(games.seats.core.links): the database keeps the salt and the token's sha256, never the token.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game, SeatKind, WhileOpen
from games.kit.link_tokens import new_purpose_link, rebuilt_purpose_token, token_digest
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField
from games.seats.core.seat import Seat

# A volunteer is offered at most this many seats a day, whatever they chose.
MAX_OFFERS_PER_DAY = 3
MAX_GAMES_AT_ONCE = 5

# The games whose seats can be open: under way (a paused game resumes).
RUNNING = (Game.Status.ACTIVE, Game.Status.PAUSED)



class OpenSeat(models.Model):
    class Reason(models.TextChoices):
        LEFT = "left", _("its player asked for someone")
        MODERATOR = "moderator", _("a moderator opened it")
        ABSENT = "absent", _("its player was absent")

    class Outcome(models.TextChoices):
        OPEN = "", _("open")
        TAKEN = "taken", _("taken over")
        STAYED = "stayed", _("its player stayed")
        CLOSED = "closed", _("closed with the game")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="open_seats")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="openings")
    reason = models.CharField(_("why"), max_length=10, choices=Reason.choices)
    while_open = models.CharField(_("while open"), max_length=4, choices=WhileOpen.choices,
                                  default=WhileOpen.BOT)
    # Who played the seat when it opened: given back to them if they stay.
    kind_before = models.CharField(max_length=8, choices=SeatKind.choices,
                                   default=SeatKind.PERSON, editable=False)
    left_name = models.CharField(_("who left"), max_length=60)
    left_mailbox = models.CharField(_("who left (hash)"), max_length=64, blank=True)
    version = models.PositiveIntegerField(_("opened at version"))
    opened_at = models.DateTimeField(_("opened at"), default=timezone.now)
    # When the last round of offers to volunteers went out (games.handover.services.offers).
    offered_at = models.DateTimeField(_("last offers at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    outcome = models.CharField(_("outcome"), max_length=8, choices=Outcome.choices,
                               default=Outcome.OPEN, blank=True)

    class Meta:
        verbose_name = _("open seat")
        verbose_name_plural = _("open seats")
        ordering = ["-opened_at"]
        constraints = [models.UniqueConstraint(
            fields=["seat"], condition=models.Q(closed_at__isnull=True),
            name="open_seat_once_per_seat")]
        indexes = [models.Index(fields=["closed_at", "offered_at"], name="open_seat_waiting")]

    def __str__(self) -> str:
        return f"seat {self.seat_id} open since {self.opened_at:%Y-%m-%d}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Volunteer(KeepsMailboxKeys):
    email = models.EmailField(_("email"), blank=True)
    # The mailbox it reaches (games.people.core.mailboxes): one volunteer per mailbox.
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64, unique=True)
    # Whose sign-up it is (games.people.core.mailboxes: the data export, forget me).
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="email")
    name = models.CharField(_("name at the table"), max_length=60)
    languages = models.JSONField(_("languages"), default=list)
    rulesets = models.JSONField(_("rules"), default=list)
    games_at_once = models.PositiveSmallIntegerField(
        _("games at once"), default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_GAMES_AT_ONCE)])
    offers_per_day = models.PositiveSmallIntegerField(
        _("offers a day"), default=1,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_OFFERS_PER_DAY)])
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    link_salt = models.CharField(max_length=32, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("signed up at"), default=timezone.now)
    confirm_sent_at = models.DateTimeField(_("confirmation sent at"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused at"), null=True, blank=True)
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        verbose_name = _("standby volunteer")
        verbose_name_plural = _("standby volunteers")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["mailbox_key"], name="volunteer_mailbox_key")]

    def __str__(self) -> str:
        return self.name

    @property
    def language(self) -> str:
        """The language of their emails when no other fits: the first they play in."""
        return str(self.languages[0]) if self.languages else "en"

    @property
    def on_standby(self) -> bool:
        return (self.confirmed_at is not None and self.paused_at is None
                and self.left_at is None)


class SeatOffer(KeepsMailboxKeys):
    class Source(models.TextChoices):
        STANDBY = "standby", _("a standby volunteer")
        TABLE = "table", _("invited by a player")
        LISTED = "listed", _("asked on the open-seats page")
        MODERATOR = "moderator", _("assigned by a moderator")

    class State(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        TAKEN = "taken", _("took the seat")
        LOST = "lost", _("someone else took the seat")
        VOID = "void", _("the seat closed")

    open_seat = models.ForeignKey(OpenSeat, on_delete=models.CASCADE, related_name="offers")
    volunteer = models.ForeignKey(Volunteer, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="offers")
    to_email = models.EmailField(_("to"))
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64)
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="to_email")
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    invited_by = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    link_salt = models.CharField(max_length=32, editable=False)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    state = models.CharField(_("state"), max_length=8, choices=State.choices,
                             default=State.PENDING)
    created_at = models.DateTimeField(_("offered at"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat offer")
        verbose_name_plural = _("seat offers")
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["open_seat", "mailbox"],
                                               name="offer_once_per_mailbox")]
        indexes = [models.Index(fields=["mailbox", "created_at"], name="offer_mailbox"),
                   models.Index(fields=["mailbox_key"], name="offer_mailbox_key")]

    def __str__(self) -> str:
        return f"offer of seat {self.open_seat_id} ({self.source})"


# ---- their private links ---------------------------------------------------------------

OFFER = "seat-offer"
STANDBY = "standby"


def offer_link_parts() -> tuple[str, str]:
    """(salt, token hash) for a new offer."""
    made = new_purpose_link(OFFER)
    return made.salt, made.digest


def volunteer_link_parts() -> tuple[str, str]:
    made = new_purpose_link(STANDBY)
    return made.salt, made.digest


def _current_token(row: SeatOffer | Volunteer, purpose: str) -> str:
    """The row's token rebuilt under the link key that made it (LINK_KEY or one of its
    fallbacks: the link in the emails already sent keeps working); when no configured key
    made it, the row gets a new salt (the old link dies) so that what is sent opens it."""
    token = rebuilt_purpose_token(purpose, row.link_salt, row.token_hash)
    if token is None:
        made = new_purpose_link(purpose)
        type(row).objects.filter(pk=row.pk).update(link_salt=made.salt, token_hash=made.digest)
        row.link_salt, row.token_hash, token = made.salt, made.digest, made.token
    return token


def offer_token(offer: SeatOffer) -> str:
    return _current_token(offer, OFFER)


def volunteer_token(volunteer: Volunteer) -> str:
    return _current_token(volunteer, STANDBY)


def find_offer(token: str) -> SeatOffer | None:
    digest = token_digest(token)
    if digest is None:
        return None
    return (SeatOffer.objects.select_related("open_seat", "open_seat__game", "volunteer")
            .filter(token_hash=digest).first())


def find_volunteer(token: str) -> Volunteer | None:
    digest = token_digest(token)
    if digest is None:
        return None
    return Volunteer.objects.filter(token_hash=digest).first()
