"""A seat of a game: who plays it (a person by their address, or a bot), its links, its
settings, its clock's rows. Accepting a seat is games.seats.services.acceptance's alone
(it publishes SeatAccepted); who holds a seat, its kind and its links are still also
written where a seat is taken over, opened or handed to a bot (games.handover,
games.moderation), each writing the seat's history (games.seats.core.history).
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.choices import EmailMode, SeatKind
from games.game.core.clock_fields import SeatClockFields
from games.game.core.game import GOING_ON, Game
from games.kit.seat_numbers import shown_seat
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField, of_mailbox


def default_vacation() -> timedelta:
    return timedelta(days=7)


class Seat(KeepsMailboxKeys, SeatClockFields):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat number"))
    player_name = models.CharField(_("player name"), max_length=60)
    # A bot seat set up as one has no address; a person's seat handed to a bot keeps theirs.
    email = models.EmailField(_("email"), blank=True)
    # Whose seat it is (games.people.core.mailboxes): every match of an address goes by it.
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="email")
    kind = models.CharField(_("played by"), max_length=8, choices=SeatKind.choices,
                            default=SeatKind.PERSON)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, default="en"
    )
    # The link token is HMAC(link key, link_salt) (games.seats.core.links); only its sha256
    # is stored, so a database dump alone cannot rebuild a link.
    link_salt = models.CharField(max_length=32, editable=False, default="")
    secret_hash = models.CharField(max_length=64, unique=True, editable=False)
    # Which link key made the link (games.kit.link_tokens.key_id; "" before link keys
    # existed): emails rebuild the link with that key first (any configured key whose
    # link matches secret_hash will do; none: the seat gets a new link).
    link_key_id = models.CharField(max_length=12, editable=False, default="", blank=True)
    # sha256 of the invitation link shown to the host; it works until the seat accepts.
    invite_hash = models.CharField(max_length=64, unique=True, null=True, blank=True,
                                   editable=False)
    email_mode = models.CharField(
        _("emails"), max_length=12, choices=EmailMode.choices, default=EmailMode.EACH_TURN
    )
    # Deadlines missed in a row; at 3 the seat is marked absent and moderators alerted.
    missed_turns = models.PositiveSmallIntegerField(_("missed turns in a row"), default=0)
    absent_since = models.DateTimeField(_("absent since"), null=True, blank=True)
    vacation_left = models.DurationField(_("vacation left"), default=default_vacation)
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    # Set by the provider's webhook on a bounce or complaint: moderators look at it.
    email_problem_at = models.DateTimeField(_("email problem at"), null=True, blank=True)
    link_rotated_at = models.DateTimeField(_("link last rotated"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    # Looking for a new player since (games.handover): while it is, its player gets no
    # turn emails, and a missed deadline is nobody's (the game waits or a bot plays).
    open_since = models.DateTimeField(_("looking for a new player since"), null=True,
                                      blank=True)
    # Email choices beside email_mode (games.mail.services.table_talk, games.mail.core.seen_turns).
    talk_in_emails = models.BooleanField(_("table talk in emails"), default=True)
    skip_seen_turns = models.BooleanField(_("no email for a turn seen on the page"),
                                          default=True)
    # The open page's bookkeeping (games.mail.core.seen_turns.note_seen): nothing anyone sees.
    seen_at = models.DateTimeField(_("page last seen open at"), null=True, blank=True,
                                   editable=False)
    seen_version = models.PositiveIntegerField(_("version the page last showed"), null=True,
                                               blank=True, editable=False)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_unique_number"),
        ]
        indexes = [
            models.Index(fields=["mailbox_key"], name="seat_mailbox_key"),
            # The moderators' filters: the few seats absent or with an email problem.
            models.Index(fields=["absent_since"], name="seat_absent",
                         condition=models.Q(absent_since__isnull=False)),
            models.Index(fields=["email_problem_at"], name="seat_email_problem",
                         condition=models.Q(email_problem_at__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.player_name} (seat {self.shown_number})"

    # Set by games.seats.core.links.find_seat: the request came through the invitation link.
    via_invitation = False

    @property
    def shown_number(self) -> int:
        """The seat's number as pages and emails show it, from 1 (games.kit.seat_numbers)."""
        return shown_seat(self.number)

    @property
    def is_bot(self) -> bool:
        return self.kind == SeatKind.BOT

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")


def accept_seats(seats: models.QuerySet[Seat], now: datetime) -> int:
    """Mark `seats` accepted: the first acceptance time stays, and an invitation link still
    open dies. The one way a seat is accepted, on its first move (games.moves.services.moves) or by
    its accept button (games.setup.services.game_setup); the number of seats changed (of two accepts
    at once on a condition the caller put in `seats`, one changes the row)."""
    return seats.update(accepted_at=Coalesce(F("accepted_at"), now), invite_hash=None)


def seats_of(address: str) -> models.QuerySet[Seat]:
    """The person's seats (by mailbox key: games.people.core.mailboxes), with their games."""
    return (Seat.objects.filter(of_mailbox(address), kind=SeatKind.PERSON)
            .select_related("game"))


def going_on_seats(address: str) -> models.QuerySet[Seat]:
    """The person's seats in games going on (set up, played or paused)."""
    return seats_of(address).filter(game__status__in=GOING_ON)
