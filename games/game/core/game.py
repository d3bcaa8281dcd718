"""Games as a move log plus a snapshot (docs/DESIGN.md "State and history").

Only the features' services write to these tables (docs/DESIGN.md "The plan").
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine.types import JSON
from games.game.core.choices import BotLevel, EmailMode, SeatKind, TimeoutPolicy, WhileOpen
from games.game.core.clock_fields import GameClockFields
from games.kit.fields import VerbatimJSONField
from games.people.core.mailbox_keys import KeepsMailboxKeys, MailboxKeyField

MAX_HOURS_PER_MOVE = 24 * 14
__all__ = ["MAX_HOURS_PER_MOVE", "BotLevel", "EmailMode", "Game", "Move", "SeatKind",
           "TimeoutPolicy", "WhileOpen", "default_reminders", "new_public_id"]


def new_public_id() -> str:
    return secrets.token_urlsafe(16)


def default_reminders() -> list[int]:
    """Hours before the deadline at which reminders go out (per game)."""
    return [12, 1]


class Game(KeepsMailboxKeys, GameClockFields):
    class Status(models.TextChoices):
        SETUP = "setup", _("waiting for players")
        ACTIVE = "active", _("active")
        PAUSED = "paused", _("paused")
        FINISHED = "finished", _("finished")
        CANCELLED = "cancelled", _("cancelled")

    name = models.CharField(_("name"), max_length=100)
    ruleset = models.CharField(_("ruleset"), max_length=20, default="base")
    options = models.JSONField(_("options"), default=dict, blank=True)
    seed = models.BigIntegerField(_("seed"))
    # Commit and reveal (games.records.core.fairness): published from the start, the salt and
    # the seed are shown once the game is over, so anyone can check the deck was not set.
    salt = models.CharField(_("salt"), max_length=64, default="", editable=False)
    commitment = models.CharField(_("commitment"), max_length=64, default="", editable=False)
    # The hash chain's head after `version` moves (games.engine.chain): the commitment
    # before the first move; every write of a move or an undo sets it with the version.
    chain_head = models.CharField(_("chain head"), max_length=64, default="", editable=False)
    hours_per_move = models.PositiveIntegerField(
        _("hours per move"),
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_HOURS_PER_MOVE)],
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.SETUP
    )
    # Number of Move rows applied; every submission names the version it saw.
    version = models.PositiveIntegerField(_("version"), default=0)
    # engine.State.to_json() after `version` moves, without its log: a cache of replaying
    # the Move rows. The log lives in `opening_log` (the events before move 1) and each
    # Move row's `events`, so a move writes a few KB whatever its number (game.state()
    # puts the whole state together).
    snapshot = models.JSONField(_("snapshot"))
    opening_log = models.JSONField(_("opening events"), default=list, editable=False)
    # Events in the whole log (opening plus every move's): where a table notice sits.
    log_length = models.PositiveIntegerField(_("log length"), default=0, editable=False)
    # Seat whose decision is awaited (copied from the snapshot for queries); None when over.
    actor = models.PositiveSmallIntegerField(_("seat to act"), null=True, blank=True)
    spectators_allowed = models.BooleanField(_("spectators allowed"), default=False)
    # Random public id for the spectator page (game ids are guessable, this is not).
    public_id = models.CharField(max_length=22, editable=False, default=new_public_id)
    reminder_hours = models.JSONField(_("reminders (hours before deadline)"),
                                      default=default_reminders, blank=True)
    timeout_policy = models.CharField(
        _("when a deadline passes"), max_length=12, choices=TimeoutPolicy.choices,
        default=TimeoutPolicy.AUTO_PASS,
    )
    # Time added to the current turn by moderators (capped per turn); reset each turn.
    deadline_extension = models.DurationField(_("deadline extension"), default=timedelta)
    # Time left on the clock when the game was paused; the deadline is restored from it.
    paused_time_left = models.DurationField(_("time left when paused"), null=True, blank=True)
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    # When the reminder sweep next looks at this game
    # (games.clock.services.turn_clock.next_reminder_at): an indexed time, so the sweep never scans
    # every game with a deadline.
    reminder_at = models.DateTimeField(_("next reminder"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now, editable=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    # Set up on the web page (games.setup.services.web_setup): the host's address, confirmed by the
    # link emailed to it (its sha256 here) before any invitation leaves. Empty for games
    # an operator made (creategame, demo).
    host_email = models.EmailField(_("host's email"), blank=True)
    # Whose game it is (games.people.core.mailboxes: the host's mailbox key, kept by the ORM),
    # and the mailbox the confirmation email counts against (the hash the caps count by).
    host_key = MailboxKeyField(_("host's mailbox key (hash)"), source="host_email")
    host_mailbox = models.CharField(_("host's mailbox (hash)"), max_length=64, blank=True,
                                    default="", editable=False)
    # NULL, not "", without one: unique among the games that have one (game_host_token_unique).
    host_token_hash = models.CharField(  # noqa: DJ001
        max_length=64, null=True, blank=True, editable=False)
    host_confirmed_at = models.DateTimeField(_("host confirmed at"), null=True, blank=True)
    # The host asked to start at once: done when they confirm, not before.
    start_when_confirmed = models.BooleanField(default=False, editable=False)
    # When a player leaves (games.handover): list the game's open seats on the public
    # open-seats page; open a seat marked absent by itself; who holds an open seat.
    list_open_seats = models.BooleanField(_("list open seats publicly"), default=False)
    open_absent_seats = models.BooleanField(_("look for a new player for an absent seat"),
                                            default=False)
    while_seat_open = models.CharField(
        _("while a seat looks for a new player"), max_length=4,
        choices=WhileOpen.choices, default=WhileOpen.BOT)
    # "Again, same table" (games.setup.services.rematch): the finished game this one replays with
    # the seats rotated by one; at most one rematch per game (game_one_rematch).
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, db_index=False,
        related_name="rematches", verbose_name=_("rematch of"))
    # How the bots of this game play (their seats, absent players, open seats).
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices,
                                 default=BotLevel.NORMAL)
    # Which rematch this is (0: none; `name` is the first game's, `title` shows both).
    rematch_number = models.PositiveSmallIntegerField(_("rematch number"), default=0)
    # How many times a seat changed hands (games.seats.core.history.PastHolder rows):
    # 0, as in most games, means every line names today's holders without a query.
    holder_changes = models.PositiveIntegerField(_("seats changed hands"), default=0,
                                                 editable=False)
    # Its rounds count for the players' ratings (games.ratings): formed as a rated open
    # table, or set up as rated by its host.
    rated = models.BooleanField(_("rated"), default=False)
    # The open table it was formed at (games.tables; its number, 0: none), kept by its
    # rematches: such a game has no host, and each reader sees its name in their own
    # language ("Open table 7", "Tavolo aperto 7": `title`); `name` keeps the English form.
    table_number = models.PositiveIntegerField(_("open table number"), default=0)
    # A scripted game's first moves, by version (a lesson, games.learn): the move service
    # makes a bot play them and a seat make them (games.moves.core.script). Empty: none.
    script = models.JSONField(_("script"), default=list, blank=True, editable=False)
    # An anonymous table (games.game.core.aliases): each seat's alias, by seat, as its
    # index into ALIASES, drawn when the game is made. Empty: the players' names are shown.
    aliases = models.JSONField(_("anonymous names"), default=list, blank=True,
                               editable=False)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        # Moderation (games.admin, games.moderation.services): the "moderators" group has both.
        permissions = [
            ("view_secrets", _("Can see a game's hidden information")),
            ("moderate_game", _("Can take moderator actions on a game")),
        ]
        # Every move rewrites the game's row, and a row written anew (not HOT: the move
        # changes indexed times) takes a new entry in each index: only the indexes the
        # queries use. Declared here rather than with unique=/db_index= on the fields,
        # for which Django adds on PostgreSQL a second, LIKE-only index (never used).
        constraints = [
            models.UniqueConstraint(fields=["public_id"], name="game_public_id_unique"),
            # Only games set up on the web page have one: the others take no entry.
            models.UniqueConstraint(fields=["host_token_hash"], name="game_host_token_unique",
                                    condition=models.Q(host_token_hash__isnull=False)),
            # One rematch per game, which the unique entry also finds; games that are
            # nobody's rematch take no entry.
            models.UniqueConstraint(fields=["rematch_of"], name="game_one_rematch",
                                    condition=models.Q(rematch_of__isnull=False)),
        ]
        indexes = [
            # A person's hosted games (data export, forget me): only web setups have a host.
            models.Index(fields=["host_key"], name="game_host_key",
                         condition=~models.Q(host_key="")),
            # Confirmation emails of setups not confirmed, per mailbox a day: only those
            # setups take an entry (a move never touches it).
            models.Index(fields=["host_mailbox", "created_at"], name="game_unconfirmed_host",
                         condition=models.Q(host_confirmed_at__isnull=True)
                         & ~models.Q(host_mailbox="")),
            # The sweeps and the admin ask for active games by deadline: no index of
            # deadline_at alone.
            models.Index(fields=["status", "deadline_at"], name="game_status_deadline"),
            models.Index(fields=["status", "-updated_at"], name="game_status_updated"),
            models.Index(fields=["status", "reminder_at"], name="game_status_reminder"),
            # The moderators' game list: newest first within a status, and "waiting since".
            models.Index(fields=["status", "id"], name="game_status_id"),
            models.Index(fields=["status", "turn_started_at"], name="game_status_turn"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """The game's name as the reader sees it, in the language active now (a page's, an
        email's): "Friday table", or "Friday table · rematch 2" for its second rematch; a
        game formed at an open table "Open table 7" ("Tavolo aperto 7" in Italian)."""
        name = self.name
        if self.table_number:
            name = gettext("Open table %(n)s") % {"n": self.table_number}
        if not self.rematch_number:
            return name
        return gettext("%(name)s · rematch %(number)s") % {"name": name,
                                                          "number": self.rematch_number}

    @property
    def anonymous(self) -> bool:
        """An anonymous table: its seats are named by aliases until it is over
        (games.game.core.aliases)."""
        return bool(self.aliases)

    @property
    def found_together(self) -> bool:
        """Formed by its players at an open table: nobody hosts it (its rematches are a
        player's proposal)."""
        return bool(self.table_number) and not self.rematch_number

    def state(self) -> engine.State:
        """The whole engine state after `version` moves, log included."""
        state = self.state_without_log()
        state.log = self.full_log()
        return state

    def state_without_log(self) -> engine.State:
        """The state as stored, its log empty: enough to apply a move (the engine only
        appends to the log) or to read hands, board and turn."""
        state = engine.State.from_json(self.snapshot)
        state.log = []  # stored snapshots hold none; never count events twice
        return state

    def full_log(self) -> list[JSON]:
        """The opening events and every move's, in move order."""
        events = list(self.opening_log)
        if self.version == 0:  # no move yet (version N is N moves made): nothing to read
            return events
        for appended in (Move.objects.filter(game_id=self.pk).order_by("number")
                         .values_list("events", flat=True)):
            events.extend(appended)
        return events

    @property
    def is_playable(self) -> bool:
        return self.status == self.Status.ACTIVE


class Move(models.Model):
    class Actor(models.TextChoices):
        SEAT = "seat", _("player")
        BOT = "bot", _("bot")
        SYSTEM = "system", _("system")
        MODERATOR = "moderator", _("moderator")

    # No index of its own: the unique (game, number) index below serves every lookup by
    # game, and reads a game's moves after a number as one range (a move inserts into one
    # index fewer, and the read of the events since a remembered move touches only them).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves",
                             db_index=False)
    # 1-based: applying move N takes the game from version N-1 to version N.
    number = models.PositiveIntegerField(_("number"))
    actor_kind = models.CharField(_("made by"), max_length=10, choices=Actor.choices)
    seat_number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="moderated_moves",
        db_index=False,  # move_moderator: only the few moves a moderator made
    )
    move = models.JSONField(_("move"))
    # The log events this move appended (Game.snapshot holds no log).
    events = VerbatimJSONField(_("events"), default=list, editable=False)
    created_at = models.DateTimeField(_("made at"), default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="move_unique_number"),
        ]
        indexes = [
            models.Index(fields=["moderator"], name="move_moderator",
                         condition=models.Q(moderator__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.number} {self.move.get('type', '?')}"


# A game going on: set up and waiting for its players, being played, or paused.
GOING_ON = (Game.Status.SETUP, Game.Status.ACTIVE, Game.Status.PAUSED)
