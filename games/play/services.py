"""The only code that changes a game. One transaction per operation.

Views, commands, (later) Celery tasks and admin actions call these functions and
nothing else writes Game, Seat, Move or Message rows of a game. A move is applied
with the Game row locked (`select_for_update`, real on PostgreSQL), conditional on
the version the player saw; the Move row, the new snapshot and the version are
written together, and follow-up work goes through `games.play.hooks` on commit.
"""

from __future__ import annotations

import secrets
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.models import (
    MAX_HOURS_PER_MOVE,
    EmailMode,
    Game,
    GameNotice,
    Message,
    Move,
    Seat,
    TimeoutPolicy,
)
from games.models.links import new_secret, seat_link
from games.play import clock, hooks
from games.play.clock import ABSENT_AFTER_MISSES

MAX_MESSAGE_LENGTH = 1000
SEED_BITS = 62


class ServiceError(Exception):
    """A refused operation: a stable `code` and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class StaleVersion(ServiceError):
    """The submission was made against an older version of the game."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            "stale_version",
            _(
                "The game has moved on since you loaded it (you saw version %(expected)s, "
                "it is now at version %(current)s). Nothing was changed: look again "
                "and choose your move."
            )
            % {"expected": expected, "current": current},
        )
        self.expected = expected
        self.current = current


class GameNotPlayable(ServiceError):
    """The game is not accepting moves (not started, paused, over, cancelled)."""


class SetupError(ServiceError):
    """A game could not be created as asked; nothing was created."""


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str
    time_zone: str = "UTC"
    language: str = "en"


@dataclass(frozen=True)
class CreatedGame:
    game: Game
    seats: list[tuple[Seat, str]]  # each seat with its absolute private link (shown once)


# ---- creating and starting ----------------------------------------------------------


def create_game(
    *,
    name: str,
    players: Sequence[PlayerSpec],
    ruleset: str = "base",
    options: dict[str, Any] | None = None,
    hours_per_move: int | None = None,
    seed: int | None = None,
    shuffle_seats: bool = False,
    start: bool = False,
    spectators_allowed: bool = False,
) -> CreatedGame:
    """Create a game with one seat per player and invite them; optionally start at once."""
    name = name.strip()
    hours = settings.DEFAULT_HOURS_PER_MOVE if hours_per_move is None else hours_per_move
    _check_setup(name, players, hours)
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    order = list(players)
    if shuffle_seats:
        secrets.SystemRandom().shuffle(order)
    try:
        state = engine.new_game(len(order), seed, ruleset, options)
    except ValueError as error:
        raise SetupError("bad_setup", str(error)) from None
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            name=name, ruleset=ruleset, options=state.options, seed=seed,
            hours_per_move=hours, snapshot=state.to_json(), actor=state.actor,
            spectators_allowed=spectators_allowed, created_at=now,
        )
        created = []
        for number, player in enumerate(order):
            salt, token, digest = new_secret()
            seat = Seat.objects.create(
                game=game, number=number, player_name=player.name.strip(),
                email=player.email.strip(), time_zone=player.time_zone,
                language=player.language, link_salt=salt, secret_hash=digest, created_at=now,
            )
            link = seat_link(token)
            created.append((seat, link))
            invite_seat(seat, link)
        if start:
            _start(game, now)
    return CreatedGame(game=game, seats=created)


def _check_setup(name: str, players: Sequence[PlayerSpec], hours: int) -> None:
    if not name:
        raise SetupError("bad_setup", _("The game needs a name."))
    if not 1 <= hours <= MAX_HOURS_PER_MOVE:
        raise SetupError(
            "bad_setup",
            _("The pace must be between 1 and %(max)s hours per move.")
            % {"max": MAX_HOURS_PER_MOVE},
        )
    emails = [p.email.strip().lower() for p in players]
    if len(set(emails)) != len(emails):
        raise SetupError("bad_setup", _("Each player needs a different email address."))
    languages = {code for code, _label in settings.LANGUAGES}
    for player in players:
        if not player.name.strip() or not player.email.strip():
            raise SetupError("bad_setup", _("Every player needs a name and an email address."))
        if not valid_time_zone(player.time_zone):
            raise SetupError(
                "bad_setup", _("Unknown time zone %(zone)s.") % {"zone": player.time_zone}
            )
        if player.language not in languages:
            raise SetupError(
                "bad_setup", _("Unknown language %(code)s.") % {"code": player.language}
            )


def valid_time_zone(name: str) -> bool:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


def invite_seat(seat: Seat, link: str) -> None:
    """Queue the invitation carrying `link` for after the commit (see hooks.send_invitation)."""
    seat_id = seat.pk
    transaction.on_commit(lambda: hooks.send_invitation(seat_id, link))


def start_game(game_id: int) -> Game:
    """Start a game still in setup now, whoever has accepted. No-op otherwise."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status == Game.Status.SETUP:
            _start(game, timezone.now())
    return game


def _start(game: Game, now: datetime) -> None:
    game.status = Game.Status.ACTIVE
    _set_clock(game, now)
    game.save(update_fields=["status", "turn_started_at", "deadline_at", "deadline_extension",
                             "reminder_at", "updated_at"])
    game_id = game.pk
    transaction.on_commit(lambda: hooks.after_game_started(game_id))


def _set_clock(game: Game, now: datetime) -> None:
    game.deadline_extension = timedelta()  # moderators' extensions are per turn
    if game.actor is None or game.status != Game.Status.ACTIVE:
        game.turn_started_at = game.deadline_at = None
    else:
        game.turn_started_at = now
        # A seat on vacation: its clock starts when the vacation ends (games.play.clock).
        game.deadline_at = (now + timedelta(hours=game.hours_per_move)
                            + clock.vacation_delay(game, now))
    game.reminder_at = clock.next_reminder_at(game.deadline_at, game.reminder_hours, now)


def accept_seat(seat_id: int) -> Seat:
    """Record that the seat's player accepted; start the game once every seat has."""
    now = timezone.now()
    with transaction.atomic():
        seat = Seat.objects.select_related("game").get(pk=seat_id)
        game = Game.objects.select_for_update().get(pk=seat.game_id)
        if seat.accepted_at is None:
            seat.accepted_at = now
            seat.save(update_fields=["accepted_at"])
        waiting = game.seats.filter(accepted_at__isnull=True).exists()
        if game.status == Game.Status.SETUP and not waiting:
            _start(game, now)
        seat.game = game
    return seat


# ---- moves --------------------------------------------------------------------------


def submit_move(seat: Seat, version: int, move: object) -> Game:
    """A seat's move made against `version`, with the seat taken from its link."""
    if not isinstance(move, dict):
        raise engine.MalformedMove("not_an_object", _("A move must be a JSON object."))
    return apply_move(
        seat.game_id, version, {**move, "seat": seat.number},
        actor_kind=Move.Actor.SEAT, seat_number=seat.number,
    )


def apply_move(
    game_id: int,
    version: int,
    move: dict[str, Any],
    *,
    actor_kind: str,
    seat_number: int | None = None,
    moderator: User | None = None,
) -> Game:
    """Apply one move to the game if it is still at `version`; the one write path.

    Raises StaleVersion, GameNotPlayable, or the engine's MalformedMove/IllegalMove;
    in every such case nothing is written.
    """
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        _check_playable(game)
        if game.version != version:
            raise StaleVersion(version, game.version)
        state = engine.apply(game.state(), move)
        number = version + 1
        Move.objects.create(
            game=game, number=number, actor_kind=actor_kind, seat_number=seat_number,
            moderator=moderator, move=move, created_at=now,
        )
        game.version = number
        game.snapshot = state.to_json()
        game.actor = state.actor
        if state.finished:
            game.status = Game.Status.FINISHED
        _set_clock(game, now)
        # Conditional on the version read above: belt and braces where the row lock
        # is not real (SQLite serialises writers instead).
        written = Game.objects.filter(pk=game.pk, version=version).update(
            version=game.version, snapshot=game.snapshot, actor=game.actor,
            status=game.status, turn_started_at=game.turn_started_at,
            deadline_at=game.deadline_at, deadline_extension=game.deadline_extension,
            reminder_at=game.reminder_at, updated_at=now,
        )
        if written != 1:
            raise StaleVersion(version, version + 1)
        if actor_kind == Move.Actor.SEAT and seat_number is not None:
            _back_in_play(game_id, seat_number)
        transaction.on_commit(lambda: hooks.after_move_committed(game_id, number))
    return game


def _back_in_play(game_id: int, seat_number: int) -> None:
    """The seat moved by itself: its run of missed deadlines is over."""
    Seat.objects.filter(game_id=game_id, number=seat_number).exclude(
        missed_turns=0, absent_since=None).update(missed_turns=0, absent_since=None)


def _check_playable(game: Game) -> None:
    messages = {
        Game.Status.SETUP: _("The game has not started yet: it starts when every player "
                             "has accepted."),
        Game.Status.PAUSED: _("The game is paused by a moderator."),
        Game.Status.FINISHED: _("The game is over; no more moves can be made."),
        Game.Status.CANCELLED: _("The game was cancelled."),
    }
    if game.status != Game.Status.ACTIVE:
        code = "game_finished" if game.status == Game.Status.FINISHED else "game_not_active"
        raise GameNotPlayable(code, messages[Game.Status(game.status)])


# ---- seats and table talk -------------------------------------------------------------


def rotate_link(seat_id: int) -> str:
    """Give the seat a new private link; the old one stops working at once."""
    salt, token, digest = new_secret()
    Seat.objects.filter(pk=seat_id).update(
        link_salt=salt, secret_hash=digest, link_rotated_at=timezone.now()
    )
    return token


def update_preferences(seat_id: int, *, time_zone: str, language: str) -> None:
    if not valid_time_zone(time_zone):
        raise ServiceError("bad_time_zone", _("Unknown time zone %(zone)s.") % {"zone": time_zone})
    if language not in {code for code, _label in settings.LANGUAGES}:
        raise ServiceError("bad_language", _("Unknown language %(code)s.") % {"code": language})
    Seat.objects.filter(pk=seat_id).update(time_zone=time_zone, language=language)


def post_message(seat: Seat, text: str) -> Message:
    """Table talk, seen by every seat of the game."""
    text = text.strip()
    if not text:
        raise ServiceError("empty_message", _("Write something first."))
    if len(text) > MAX_MESSAGE_LENGTH:
        raise ServiceError(
            "message_too_long",
            _("A message can be at most %(max)s characters long.") % {"max": MAX_MESSAGE_LENGTH},
        )
    if seat.game.status == Game.Status.CANCELLED:
        raise ServiceError("game_not_active", _("The game was cancelled."))
    return Message.objects.create(game_id=seat.game_id, seat=seat, text=text)


# ---- deadlines and email settings (games.play.clock.sweeps runs the sweeps, vacations) -------


def miss_deadline(game_id: int, version: int, claimed_deadline: datetime) -> str:
    """Apply the game's timeout policy to turn `version`, whose deadline passed.

    `claimed_deadline` is what the sweep wrote into `deadline_at` when it claimed the
    game; if the game moved on or a moderator changed the deadline since, nothing
    happens. Returns "passed", "waiting" or "" (nothing done). Exactly once per turn:
    the version check makes a second run a no-op.
    """
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if (game.status != Game.Status.ACTIVE or game.version != version
                or game.deadline_at != claimed_deadline or game.actor is None):
            return ""
        seat = Seat.objects.select_for_update().get(game=game, number=game.actor)
        if game.timeout_policy == TimeoutPolicy.AUTO_PASS:
            state = game.state()
            move = clock.timeout_move(engine.view(state, seat.number), engine.legal_moves(state))
            game = apply_move(game_id, version, {**move, "seat": seat.number},
                              actor_kind=Move.Actor.SYSTEM, seat_number=seat.number)
            seat.missed_turns += 1
            outcome = "passed"
        else:
            # "wait": the turn stays open, without a deadline; people are told. Conditional
            # like every write of a turn (the lock is not real on SQLite).
            if not Game.objects.filter(pk=game_id, version=version,
                                       deadline_at=claimed_deadline).update(
                    deadline_at=None, reminder_at=None):
                return ""
            outcome = "waiting"
        # log_at: where the line sits among the game log's events.
        public = {"seat": seat.number, "log_at": len(game.snapshot.get("log", []))}
        GameNotice.objects.create(game=game, version=game.version, kind=GameNotice.Kind.TIMEOUT,
                                  params={**public, "policy": game.timeout_policy})
        if seat.missed_turns >= ABSENT_AFTER_MISSES and seat.absent_since is None:
            seat.absent_since = now
            GameNotice.objects.create(game=game, version=game.version,
                                      kind=GameNotice.Kind.ABSENT,
                                      params={**public, "missed": seat.missed_turns})
        seat.save(update_fields=["missed_turns", "absent_since"])
        seat_id = seat.pk
        transaction.on_commit(lambda: hooks.after_deadline_missed(game_id, version, seat_id))
    return outcome


def set_email_mode(seat_ids: Sequence[int], mode: str) -> None:
    """Choose the seats' emails (each turn, daily digest, links only).

    Saving also clears a bounce flag: the player says their mailbox works again.
    """
    if mode not in EmailMode.values:
        raise ServiceError("bad_email_mode", _("Unknown email setting."))
    Seat.objects.filter(pk__in=seat_ids).update(email_mode=mode, email_problem_at=None)
