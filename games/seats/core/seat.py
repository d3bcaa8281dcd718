"""A seat of a game: who plays it (a person by their address, or a bot), its links, its
settings, its clock's rows.

The seat owns its lifecycle. Its acceptance (`accepted_at`), its holder (`player_name`,
`email`, `kind`), whether it looks for a new player (`open_since`) and its links
(`link_salt`, `secret_hash`, `link_key_id`, `link_rotated_at`, `invite_hash`) are
written by the seat's own methods only (`make`, `accept`, `accept_all`, `invite`,
`rotate_link`, `hand_to`, `take_over`, `open`, `stay`, `stop_looking`, `give_to_bot`,
`take_back`, `erase_holder`): tests/play/test_seat_lifecycle.py fails when a module
outside games.seats writes one. Each change of holder writes the seat's history itself
(games.seats.core.history.remember_holder), so the services that call these methods hold
the game's row locked and do nothing more for the history; once the change is written the
method publishes it (games.seats.core.seat_events.HolderChanged). "Accepted" is read through
`accepted` (and `accepted_q`, `invitation_open` and `invitation_open_sql` for queries):
the one rule. Announcing an acceptance (SeatAccepted) is games.seats.services.acceptance's.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.aliases import anonymity, holder_name
from games.game.core.choices import ConfirmMoves, EmailMode, SeatKind
from games.game.core.clock_fields import SeatClockFields
from games.game.core.game import GOING_ON, Game
from games.kit.events import publish
from games.kit.seat_numbers import shown_seat
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField, of_mailbox
from games.people.core.player_data import FORMER_PLAYER
from games.seats.core.history import remember_holder
from games.seats.core.seat_events import HolderChanged
from games.seats.core.seat_secrets import NewSecret, new_invitation, new_link


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
    # Whether the seat page asks "Confirm" before a card is played (a guard against
    # mis-taps): per seat, beside its other page settings (time zone, language).
    confirm_moves = models.CharField(_("confirm my move"), max_length=8,
                                     choices=ConfirmMoves.choices, default=ConfirmMoves.TOUCH)
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
    def name_shown(self) -> str:
        """The seat's name as every reader sees it now, its own player too
        (games.game.core.aliases.holder_name): its alias while its anonymous game goes on,
        never its player's name then. Without a bot's "(bot)"."""
        return holder_name(self.game, self.number, self.player_name, bot=self.is_bot)

    @property
    def alias(self) -> str:
        """The seat's alias at an anonymous table ("" at any other), in the language
        active now."""
        return anonymity(self.game).alias(self.number)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    # ---- accepted: the one rule --------------------------------------------------------

    @property
    def accepted(self) -> bool:
        """Whether the seat's player has taken it (a bot's seat, and a seat of an open
        table, are taken from the start): its invitation link then opens nothing."""
        return self.accepted_at is not None

    @staticmethod
    def accepted_q(*, accepted: bool = True) -> Q:
        """`accepted` as a query: the seats taken (or, `accepted` False, not yet)."""
        return Q(accepted_at__isnull=not accepted)

    @staticmethod
    def invitation_open(digest: str) -> Q:
        """The seat whose invitation link has the hash `digest`, while it is not accepted."""
        return Q(invite_hash=digest) & Seat.accepted_q(accepted=False)

    @staticmethod
    def invitation_open_sql(alias: str) -> str:
        """`invitation_open` in SQL for the seat table's `alias` (one %s: the digest), for
        the fast move store's single statement."""
        return f"({alias}.invite_hash = %s AND {alias}.accepted_at IS NULL)"

    # ---- the lifecycle: the only writers of acceptance, holder, opening and links ------

    @classmethod
    def make(cls, game: Game, number: int, *, name: str, email: str, time_zone: str,
             language: str, bot: bool, accepted: bool, now: datetime) -> tuple[Seat, str]:
        """A new seat of `game` and its invitation token ("" when it needs none): a bot's
        seat, or a person's seat `accepted` from the start (an open table's), is taken
        already; a person's seat otherwise waits for its player with an invitation."""
        own = new_link()
        invitation, invitation_hash = ("", None) if bot or accepted else new_invitation()
        seat = cls.objects.create(
            game=game, number=number, player_name=name, email="" if bot else email,
            time_zone=time_zone, language=language, link_salt=own.salt,
            secret_hash=own.digest, link_key_id=own.key_id, invite_hash=invitation_hash,
            created_at=now, kind=SeatKind.BOT if bot else SeatKind.PERSON,
            email_mode=EmailMode.LINKS_ONLY if bot else EmailMode.EACH_TURN,
            accepted_at=now if bot or accepted else None)
        return seat, invitation

    @staticmethod
    def accept_all(seats: models.QuerySet[Seat], now: datetime) -> int:
        """Mark `seats` accepted: the first acceptance time stays, and an invitation link
        still open dies. The number of seats changed (of two accepts at once on a
        condition the caller put in `seats`, one changes the row)."""
        return seats.update(accepted_at=Coalesce(F("accepted_at"), now), invite_hash=None)

    def accept(self, now: datetime) -> None:
        """The seat's player takes it (its first move through its own link)."""
        Seat.accept_all(Seat.objects.filter(pk=self.pk), now)
        self.accepted_at, self.invite_hash = self.accepted_at or now, None

    def invite(self) -> str:
        """A new invitation link for the seat's player (shown to the host once): its token."""
        token, digest = new_invitation()
        self.invite_hash = digest
        self.save(update_fields=["invite_hash"])
        return token

    @classmethod
    def rotate_link_of(cls, seat_id: int, *, from_hash: str | None = None) -> NewSecret | None:
        """A new own link for the seat, under the current link key: the old one dies.
        With `from_hash`, only if that is still the seat's link's hash (of two rotations
        at once, one happens; the other gets None)."""
        made = new_link()
        seats = cls.objects.filter(pk=seat_id)
        if from_hash is not None:
            seats = seats.filter(secret_hash=from_hash)
        if not seats.update(link_salt=made.salt, secret_hash=made.digest,
                            link_key_id=made.key_id, link_rotated_at=timezone.now()):
            return None
        return made

    def rotate_link(self) -> NewSecret | None:
        """`rotate_link_of` this seat if its link is still the one this row holds."""
        made = Seat.rotate_link_of(self.pk, from_hash=self.secret_hash)
        if made is not None:
            self.link_salt, self.secret_hash, self.link_key_id = (
                made.salt, made.digest, made.key_id)
        return made

    def hand_to(self, game: Game, *, name: str, email: str, time_zone: str,
                language: str) -> None:
        """A moderator gives the seat to another person (a bot's seat too): their moves
        and words stay the old holder's; a new own link, and the old one and any
        invitation die. In a game still in setup nothing was played yet (no history) and
        the new player accepts for themselves; in a game under way the seat stays as
        accepted as it was. A seat looking for a new player has one now: it looks no
        more (games.handover closes its open seat on hearing of the change)."""
        in_setup, before, former = game.status == Game.Status.SETUP, self.kind, self.mailbox_key
        if not in_setup:
            remember_holder(game, self)
        self._give_to_person(name=name, email=email, time_zone=time_zone,
                             language=language, now=timezone.now())
        self.open_since = None
        if in_setup:
            self.accepted_at = None
        self.save()
        self._changed_hands(game, before, former)

    def take_over(self, game: Game, *, name: str, email: str, time_zone: str,
                  language: str) -> None:
        """A newcomer takes the open seat over: accepted by taking it, it looks for
        nobody any more; the lines before are the old holder's."""
        before, former = self.kind, self.mailbox_key
        remember_holder(game, self)
        now = timezone.now()
        self._give_to_person(name=name, email=email, time_zone=time_zone,
                             language=language, now=now)
        self.accepted_at, self.open_since = now, None
        self.save()
        self._changed_hands(game, before, former)

    def _give_to_person(self, *, name: str, email: str, time_zone: str, language: str,
                        now: datetime) -> None:
        """The seat's person, link and run of misses are new; its cards and gold are not.
        Every choice the old person made for themselves goes with them (the new person
        starts from the defaults, as a new seat does): their emails, their page, their
        quiet hours, and what their open page noted. What belongs to the seat stays: its
        bank and deadlines (the game's), and what is left of its vacation budget (the
        time the table agreed to wait for the seat, whoever holds it)."""
        own = new_link()
        self.player_name, self.email = name, email
        self.time_zone, self.language = time_zone, language
        self.link_salt, self.secret_hash, self.link_key_id = own.salt, own.digest, own.key_id
        self.link_rotated_at = now
        self.invite_hash = None  # any invitation link was for someone else
        self.kind = SeatKind.PERSON
        self.missed_turns, self.absent_since = 0, None
        self.email_problem_at = self.vacation_until = None
        self.email_mode = EmailMode.EACH_TURN  # a new person: the old one's choices go
        self.talk_in_emails = self.skip_seen_turns = True
        self.confirm_moves = ConfirmMoves.TOUCH
        # Quiet hours hold the seat's emails and stop its clock from its next turn on:
        # the old person's would hold the new one's; and the new one may set their own
        # at once (games.clock.services.quiet_hours allows a change a day).
        self.quiet_from = self.quiet_to = self.quiet_changed_at = None
        # The old person's open page, not the new one's (games.mail.core.seen_turns).
        self.seen_at, self.seen_version = None, None

    def open(self, game: Game, now: datetime, *, bot_plays: bool) -> None:
        """The seat looks for a new player from `now`; with `bot_plays` a bot holds it
        meanwhile ("Hal (bot)"), its player keeping their link."""
        self.open_since, before = now, self.kind
        if bot_plays and self.kind != SeatKind.BOT:
            remember_holder(game, self)
            self.kind = SeatKind.BOT
        self.save(update_fields=["open_since", "kind"])
        if self.kind != before:
            self._changed_hands(game, before)

    def stay(self, game: Game, kind_before: str) -> None:
        """Its player stays after all: the seat looks for nobody any more, is played as
        before it opened (`kind_before`: the bot's time in it ends), and its player is here."""
        before = self.kind
        if before != kind_before:
            remember_holder(game, self)
        self.kind, self.open_since = kind_before, None
        self.missed_turns, self.absent_since = 0, None
        self.save(update_fields=["kind", "open_since", "missed_turns", "absent_since"])
        if before != kind_before:
            self._changed_hands(game, before)

    @classmethod
    def stop_looking(cls, seat_id: int) -> None:
        """Its game ended: the seat looks for a new player no more (who holds it stays)."""
        cls.objects.filter(pk=seat_id).update(open_since=None)

    def give_to_bot(self, game: Game) -> None:
        """A bot plays the seat from now on (its player is absent and keeps their link).
        A seat looking for a new player goes on looking: a bot holding it meanwhile is how
        an open seat is played while it looks (its game's "a bot plays" choice)."""
        before = self.kind
        remember_holder(game, self)
        self.kind = SeatKind.BOT
        self.missed_turns, self.absent_since = 0, None
        self.save(update_fields=["kind", "missed_turns", "absent_since"])
        self._changed_hands(game, before)

    def take_back(self, game: Game) -> None:
        """The seat's own person plays it again (a bot played it meanwhile), and is here:
        their run of misses and absent mark end. A seat looking for a new player while a
        bot held it looks no more: its player came back, as if they had stayed
        (games.handover closes its open seat on hearing of the change)."""
        before = self.kind
        remember_holder(game, self)
        self.kind, self.open_since = SeatKind.PERSON, None
        self.missed_turns, self.absent_since = 0, None
        self.save(update_fields=["kind", "open_since", "missed_turns", "absent_since"])
        self._changed_hands(game, before)

    def _changed_hands(self, game: Game, before: str, former: str | None = None) -> None:
        """The change of holder is written: the features above hear of it. `former`: the
        mailbox key of the address that held the seat, where the change gave it another
        (a bot or its person again keep the seat's address)."""
        publish(HolderChanged(game=game, seat=self, before=before, after=self.kind,
                              version=game.version,
                              former_mailbox=self.mailbox_key if former is None else former))

    @classmethod
    def erase_holder(cls, seat_id: int) -> None:
        """Forget me: the seat is a former player's: no address, the neutral name, a new
        link nobody is given (the old one and any invitation die), its choices back to
        the defaults. Its history is
        rewritten by the erasure itself (games.home.services.erase)."""
        made = new_link()
        cls.objects.filter(pk=seat_id).update(
            email="", player_name=FORMER_PLAYER, link_salt=made.salt,
            secret_hash=made.digest, link_key_id=made.key_id, invite_hash=None,
            email_problem_at=None, confirm_moves=ConfirmMoves.TOUCH)



def seats_of(address: str) -> models.QuerySet[Seat]:
    """The person's seats (by mailbox key: games.people.core.mailboxes), with their games."""
    return (Seat.objects.filter(of_mailbox(address), kind=SeatKind.PERSON)
            .select_related("game"))


def going_on_seats(address: str) -> models.QuerySet[Seat]:
    """The person's seats in games going on (set up, played or paused)."""
    return seats_of(address).filter(game__status__in=GOING_ON)
