"""The only code that changes a game. One transaction per operation.

Views, commands, (later) Celery tasks and admin actions call these functions and
nothing else writes Game, Seat, Move or Message rows of a game. A move is applied
with the Game row locked (`select_for_update`, real on PostgreSQL), conditional on
the version the player saw; the Move row, the new snapshot, the version and the head
of the move chain (games.engine.chain) are written together, and follow-up work goes
through `games.play.hooks` on commit.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.engine import chain
from games.models import (
    EmailMode,
    Game,
    GameNotice,
    Message,
    MissedDeadline,
    Move,
    Seat,
    SeatKind,
    TimeoutPolicy,
    reply_tokens,
)
from games.models.links import new_link
from games.models.mailboxes import mailbox_hash
from games.play import clock, hooks, log_cache, move_rows
from games.play.bot_choice import bot_move
from games.play.clock import ABSENT_AFTER_MISSES
from games.play.game_setup import (
    SEED_BITS,
    CreatedGame,
    PlayerSpec,
    accept_seat,
    bot_player,
    bot_players,
    create_game,
    has_accepted,
    invite_seat,
    start_game,
    valid_time_zone,
)
from games.play.service_errors import GameNotPlayable, ServiceError, SetupError, StaleVersion
from games.play.text import is_clean_message

__all__ = [
    "SEED_BITS", "CreatedGame", "GameNotPlayable", "LinkMove", "PlayerSpec", "ServiceError",
    "SetupError", "StaleVersion", "accept_seat", "apply_move", "bot_player", "bot_players",
    "create_game", "has_accepted", "invite_seat", "miss_deadline", "post_message", "rotate_link",
    "seat_move_by_link", "set_email_mode", "start_game", "submit_move",
    "update_preferences", "valid_time_zone",
]

MAX_MESSAGE_LENGTH = 1000


# ---- moves --------------------------------------------------------------------------


def submit_move(seat: Seat, version: int, move: object) -> Game:
    """A seat's move made against `version`, with the seat taken from its link. The game
    returned knows its whole state after the move (`game.state()` reads nothing)."""
    return apply_move(
        seat.game_id, version, _seat_move(seat, move),
        actor_kind=Move.Actor.SEAT, seat_number=seat.number, with_state=True,
    )


def _seat_move(seat: Seat, move: object) -> dict[str, Any]:
    """The move as the engine takes it from this seat (the seat is the link's, always)."""
    if not isinstance(move, dict):
        raise engine.MalformedMove("not_an_object", _("A move must be a JSON object."))
    return {**move, "seat": seat.number}


def apply_move(
    game_id: int,
    version: int,
    move: dict[str, Any],
    *,
    actor_kind: str,
    seat_number: int | None = None,
    moderator: User | None = None,
    with_state: bool = False,
) -> Game:
    """Apply one move to the game if it is still at `version`; the one write path.
    `with_state`: also read the log under the lock and hand the whole state after the
    move over on the game returned (`game.state()`), for an answer that shows it.

    Raises StaleVersion, GameNotPlayable, or the engine's MalformedMove/IllegalMove;
    in every such case nothing is written.
    """
    with transaction.atomic():
        locked = move_rows.lock_game(game_id, with_log=with_state)
        return _apply_locked(locked, version, move, actor_kind=actor_kind,
                             seat_number=seat_number, moderator=moderator)


@dataclass
class LinkMove:
    """A move through a seat's link, its game locked (`seat_move_by_link`)."""
    seat: Seat
    locked: move_rows.Locked

    def submit(self, version: int, move: object) -> Game:
        """The seat's move against `version` (as `submit_move`), in the open transaction;
        the game returned knows its whole state after the move."""
        return _apply_locked(self.locked, version, _seat_move(self.seat, move),
                             actor_kind=Move.Actor.SEAT, seat_number=self.seat.number)


@contextmanager
def seat_move_by_link(token: str) -> Iterator[LinkMove | None]:
    """The transaction of a move through a link (the JSON API): the link's seat and its
    game, locked, with its seats and log (on PostgreSQL one statement: no separate seat
    lookup), or None when no seat has that link. The caller checks the seat (an
    invitation link, a rate limit) and submits; what it returns without submitting
    writes nothing, and the move's follow-up runs once the transaction commits."""
    with transaction.atomic():
        found = move_rows.lock_by_link(token, with_log=True)
        yield None if found is None else LinkMove(*found)


def _apply_locked(locked: move_rows.Locked, version: int, move: dict[str, Any], *,
                  actor_kind: str, seat_number: int | None,
                  moderator: User | None = None) -> Game:
    """apply_move's work on a game its transaction has locked."""
    now = timezone.now()
    game, seats = locked.game, locked.seats
    game_id = game.pk
    _check_playable(game)
    if game.version != version:
        raise StaleVersion(version, game.version)
    # The engine only appends to the log: applied to the stored state (no log), the
    # state's log afterwards is exactly what this move added (its Move row keeps it).
    state = engine.apply(game.state_without_log(), move)
    number = version + 1
    game.version = number
    game.chain_head = chain.extend(game.chain_head, game.salt, move)  # the Move row's move
    game.snapshot = state.to_json(include_log=False)
    game.log_length += len(state.log)
    game.actor = state.actor
    if state.finished:
        game.status = Game.Status.FINISHED
    clock.set_clock(game, now, {n: s.vacation_until for n, s in seats.items()})
    game.updated_at = now
    # Conditional on the version read above: belt and braces where the row lock
    # is not real (SQLite serialises writers instead).
    written = move_rows.write_move({
        "game": game_id, "number": number, "actor_kind": actor_kind,
        "seat_number": seat_number, "moderator": moderator.pk if moderator else None,
        "move": move, "events": state.log, "created_at": now,
    }, {
        "version": game.version, "chain_head": game.chain_head, "snapshot": game.snapshot,
        "log_length": game.log_length, "actor": game.actor, "status": game.status,
        "turn_started_at": game.turn_started_at, "deadline_at": game.deadline_at,
        "deadline_extension": game.deadline_extension, "reminder_at": game.reminder_at,
        "updated_at": now,
    }, version)
    if written.games != 1:
        transaction.set_rollback(True)  # the rows just inserted go too
        raise StaleVersion(version, version + 1)
    mover = seats.get(seat_number) if seat_number is not None else None
    if actor_kind == Move.Actor.SEAT and mover is not None and (
            mover.missed_turns or mover.absent_since is not None):
        # The seat moved by itself: its run of missed deadlines is over.
        Seat.objects.filter(pk=mover.id).update(missed_turns=0, absent_since=None)
    if locked.log is not None:
        state.log = [*locked.log, *state.log]
        game.known_state = state
        if written.move_id is not None:  # the next move here reads only what follows
            log_cache.remember(game_id, log_cache.Entry(number, written.move_id, state.log))
    game.known_players = [(s.number, s.player_name, s.kind) for s in seats.values()]
    next_seat = seats.get(game.actor) if game.actor is not None else None
    bot_next = (game.status == Game.Status.ACTIVE and next_seat is not None
                and next_seat.kind == SeatKind.BOT)
    transaction.on_commit(lambda: hooks.after_move_committed(game_id, number, bot_next))
    return game


def _check_playable(game: Game) -> None:
    if game.status == Game.Status.ACTIVE:
        return
    messages = {
        Game.Status.SETUP: _("The game has not started yet: it starts when every player "
                             "has accepted."),
        Game.Status.PAUSED: _("The game is paused by a moderator."),
        Game.Status.FINISHED: _("The game is over; no more moves can be made."),
        Game.Status.CANCELLED: _("The game was cancelled."),
    }
    code = "game_finished" if game.status == Game.Status.FINISHED else "game_not_active"
    raise GameNotPlayable(code, messages[Game.Status(game.status)])


# ---- seats and table talk -------------------------------------------------------------


def rotate_link(seat_id: int, current_hash: str | None = None) -> str | None:
    """Give the seat a new private link; the old one, and every reply address of the
    seat's emails, stop working at once.

    With `current_hash` (the hash of the link the request came with) only if that is
    still the seat's link: of two clicks at once one rotates, the other gets None, so
    nobody is handed a link that is already dead."""
    made = new_link()
    seats = Seat.objects.filter(pk=seat_id)
    if current_hash is not None:
        seats = seats.filter(secret_hash=current_hash)
    rotated = seats.update(link_salt=made.salt, secret_hash=made.digest,
                           link_key_id=made.key_id, link_rotated_at=timezone.now())
    if not rotated:
        return None
    reply_tokens.revoke_seat(seat_id)  # the old emails' reply addresses die with the link
    return made.token


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
    if not is_clean_message(text):
        raise ServiceError("bad_text", _("Use visible letters and signs only."))
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
        if seat.open_since is not None and seat.kind == SeatKind.PERSON:
            # A seat looking for a new player in a game that waits for one (games.handover):
            # the clock stops, nobody missed a deadline; the newcomer gets a whole turn.
            waits = Game.objects.filter(pk=game_id, version=version,
                                        deadline_at=claimed_deadline).update(
                deadline_at=None, reminder_at=None)
            return "waiting" if waits else ""
        if game.timeout_policy in (TimeoutPolicy.AUTO_PASS, TimeoutPolicy.BOT):
            state = game.state()
            if game.timeout_policy == TimeoutPolicy.BOT:
                move, made_by = bot_move(state, seat.number, game.seed, version), Move.Actor.BOT
            else:
                move = clock.timeout_move(engine.view(state, seat.number),
                                          engine.legal_moves(state))
                made_by = Move.Actor.SYSTEM
            game = apply_move(game_id, version, {**move, "seat": seat.number},
                              actor_kind=made_by, seat_number=seat.number)
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
        if seat.kind == SeatKind.PERSON and seat.email:
            # The person's record, not the seat's: it stays theirs if someone takes over.
            MissedDeadline.objects.get_or_create(seat=seat, version=version, defaults={
                "game": game, "mailbox": mailbox_hash(seat.email)})
        # log_at: where the line sits among the game log's events.
        public = {"seat": seat.number, "log_at": game.log_length}
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
