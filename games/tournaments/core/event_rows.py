"""A tournament's rows (games.tournaments; docs/playing.md "Tournaments").

- Tournament: the event's settings (ruleset, table sizes, rounds, pace and clock, language, rated,
  duplicate deals, cap, sign-up window, the share of tables that ends a round early, how
  long a round lasts at most, the pairing seed) and its state: open for sign-up, running,
  finished, or cancelled (too few players when sign-up closed, by its host while open
  for sign-up, or by the moderators).
- Entry: one person in one event, by address and mailbox key (unique per event and
  person); dropped after two no-shows.
- EventRound: a round, its deadline, and in duplicate mode the deal's commitment
  (published when the round is paired; the salt and seed shown once the round has ended).
- EventTable: one table of a round: its game (an ordinary game) and when it ended.
- EventSeat: who of the members holds which seat of the table.
- EventRequest: an event a host asked for on the web (/tournaments/new/), waiting for the
  host to confirm their address through the emailed link; its settings as the form gave
  them, the host's address and the sha256 of the link's token (never the token). It
  lasts a day unconfirmed; confirmed, it points at the event it made (once).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField


class Tournament(KeepsMailboxKeys):
    class Status(models.TextChoices):
        OPEN = "open", _("open for sign-up")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(_("name"), max_length=100)
    ruleset = models.CharField(_("ruleset"), max_length=20, default="base")
    min_size = models.PositiveSmallIntegerField(_("fewest players at a table"))
    max_size = models.PositiveSmallIntegerField(_("most players at a table"))
    rounds = models.PositiveSmallIntegerField(_("rounds"))
    hours_per_move = models.PositiveIntegerField(_("hours per move"))
    # The games' clock beside the pace (games.clock.core.clock_setup.clock_fields): a time
    # bank, its increment and cap, days off; {} for the fixed time per move.
    clock = models.JSONField(_("clock"), default=dict, blank=True)
    language = models.CharField(_("language"), max_length=8)
    rated = models.BooleanField(_("rated"), default=False)
    duplicate = models.BooleanField(_("the same deal at every table"), default=False)
    cap = models.PositiveIntegerField(_("most players"))
    signup_closes_at = models.DateTimeField(_("sign-up closes at"))
    round_days = models.PositiveSmallIntegerField(_("days a round lasts at most"))
    advance_share = models.FloatField(_("share of tables that ends a round"), default=0.75)
    seed = models.BigIntegerField(_("pairing seed"))
    host_email = models.EmailField(_("host's email"), blank=True)
    host_mailbox = MailboxKeyField(_("host's mailbox key (hash)"), source="host_email")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices,
                              default=Status.OPEN)
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["signup_closes_at", "id"]
        indexes = [models.Index(fields=["status", "signup_closes_at"],
                                name="tournament_status"),
                   models.Index(fields=["host_mailbox"], name="tournament_host")]

    def __str__(self) -> str:
        return f"tournament {self.pk}"


class Entry(KeepsMailboxKeys):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="entries")
    address = models.EmailField(_("email"))
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="address")
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)
    no_shows = models.PositiveSmallIntegerField(_("no-shows"), default=0)
    dropped_at = models.DateTimeField(_("dropped at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament player")
        verbose_name_plural = _("tournament players")
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "mailbox_key"],
                                               name="tournament_entry_once")]
        indexes = [models.Index(fields=["mailbox_key"], name="tournament_entry_key")]

    def __str__(self) -> str:
        return f"player {self.pk} of tournament {self.tournament_id}"


class EventRound(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE,
                                   related_name="event_rounds")
    number = models.PositiveSmallIntegerField(_("round"))
    started_at = models.DateTimeField(_("started at"), default=timezone.now)
    deadline_at = models.DateTimeField(_("deadline"))
    pairing_cost = models.FloatField(_("pairing cost"), default=0.0)
    deal_commitment = models.CharField(_("deal commitment"), max_length=64, blank=True)
    deal_salt = models.CharField(_("deal salt"), max_length=64, blank=True, editable=False)
    deal_seed = models.BigIntegerField(_("deal seed"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("tournament round")
        verbose_name_plural = _("tournament rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"],
                                               name="tournament_round_once")]

    def __str__(self) -> str:
        return f"round {self.number} of tournament {self.tournament_id}"


class EventTable(models.Model):
    event_round = models.ForeignKey(EventRound, on_delete=models.CASCADE,
                                    related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.PositiveSmallIntegerField(_("seats"))  # bots included
    game = models.OneToOneField(Game, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="event_table", verbose_name=_("game"))
    ended_at = models.DateTimeField(_("ended at"), null=True, blank=True)
    nuggets = models.JSONField(_("nuggets per seat"), default=list, blank=True)

    class Meta:
        verbose_name = _("tournament table")
        verbose_name_plural = _("tournament tables")
        ordering = ["event_round", "number"]

    def __str__(self) -> str:
        return f"table {self.number} of {self.event_round}"


class EventSeat(models.Model):
    table = models.ForeignKey(EventTable, on_delete=models.CASCADE, related_name="holders")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        verbose_name = _("tournament seat")
        verbose_name_plural = _("tournament seats")
        constraints = [models.UniqueConstraint(fields=["table", "seat"],
                                               name="tournament_seat_once")]

    def __str__(self) -> str:
        return f"seat {self.seat} of {self.table}"


class EventRequest(KeepsMailboxKeys):
    # The form's settings as text (games.tournaments.doors.event_form), read again when
    # the host confirms: a sign-up window that has closed by then is refused.
    settings = models.JSONField(_("settings"), default=dict)
    address = models.EmailField(_("host's email"))
    mailbox_key = MailboxKeyField(_("mailbox key (hash)"), source="address")
    salt = models.CharField(max_length=32)
    token_hash = models.CharField(max_length=64, unique=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    tournament = models.OneToOneField(Tournament, on_delete=models.SET_NULL, null=True,
                                      blank=True, related_name="request",
                                      verbose_name=_("tournament"))

    class Meta:
        verbose_name = _("tournament asked for")
        verbose_name_plural = _("tournaments asked for")
        indexes = [models.Index(fields=["mailbox_key", "created_at"],
                                name="event_request_key")]

    def __str__(self) -> str:
        return f"tournament request {self.pk}"
