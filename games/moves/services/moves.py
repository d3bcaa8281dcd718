"""The one way a move is made, whoever makes it:

    game_move_submit(actor=..., version=V, move=...) -> Moved

`actor` names who moves:
- `ByLink(token)`       a seat's player through the seat's link (the JSON API): the seat is
                        found and its game locked in one read; an invitation link is
                        refused;
- `BySeat(seat)`        a seat's player whose seat the caller found (the page's form, an
                        email reply);
- `ByBot(game_id)`      the bot holding the seat to act; the bot chooses the move;
- `BySystem(game_id, deadline, bot=)`  the server at a missed deadline, if the game is still
                        at that deadline: the timeout policy's move, or the bot's;
- `ByModerator(game_id, moderator)`    a moderator, for the seat to act.

Every way locks the game once (`games.moves.services.move_store`); a seat's player who had not
taken the seat yet takes it now, as the first step of the move (its own link used is the
player's act: an invitation link still open dies), in the move's transaction; then the
service checks the version the mover saw, lets the engine judge the move, writes the
Move row, its after-move outbox row and the game's new state in one conditional write,
and, when a bot is next, queues its turn for after the commit (a Celery task here: a
bot's turn is one more way a move arrives).
The answer is a report (`Moved`): the game and the whole state after the move, the seats
as the move read them, and the events the move added (`Moved.told(seat)`: as that seat
sees them), so that no door reads the game again to say what happened.

A seat's move may be given as a `MoveReader` instead of a move: a function of the seat's
view at `version` (an email's command: "card 3" is the third card of the hand the email
showed), called under the lock once the version is checked (a game that moved on is
StaleVersion before anything is read); what it raises refuses the move.
Nothing is written when anything refuses, the seat's acceptance included: StaleVersion,
GameNotPlayable, NotDue (a bot's or the server's turn that is over), NoSuchSeat,
InvitationLink, or the engine's MalformedMove / IllegalMove (also `off_script`: a seat's
move that a scripted game, a lesson, does not allow: games.moves.core.script). Through a
link, the refusal arrives as a `LinkRefusal` carrying it and the link's seat.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple, cast

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import engine
from games.engine import chain
from games.engine.types import JSON, LogEvent, SeatView
from games.game.core.game import Game, Move, SeatKind
from games.kit import replica_reads
from games.kit.after_commit import queue_on_commit
from games.kit.events import publish
from games.kit.service_errors import GameNotPlayable, ServiceError, StaleVersion
from games.moves.core import script
from games.moves.core.bot_choice import bot_move
from games.moves.core.timeout_rule import timeout_move
from games.moves.core.turn_events import GameEnded, RoundEnded, TurnBeginning, TurnEnding
from games.moves.services.move_store import Locked, SeatRow, store
from games.seats.core.seat import Seat

log = logging.getLogger(__name__)
# A bot's turn: the strong level's wall-clock net is 1.5 s (games.bots.strong.budget);
# these only catch a worker starved far beyond it.
BOT_SOFT_TIME_LIMIT = 10
BOT_TIME_LIMIT = 20


class NotDue(ServiceError):
    """A bot's or the server's turn that is no longer due (someone moved, a moderator
    changed the deadline, the seat changed hands): nothing was done."""

    def __init__(self) -> None:
        super().__init__("not_due", "This turn is no longer due.")


class NoSuchSeat(ServiceError):
    def __init__(self) -> None:
        super().__init__("not_found", _("There is no seat with this link."))


class InvitationLink(ServiceError):
    """A host's invitation link tried to move: only the seat's own link moves."""

    def __init__(self) -> None:
        super().__init__("invitation_not_accepted", _(
            "This is an invitation link: accept it first; the player's own private link "
            "is then sent to the seat's email address."))


Refusal = ServiceError | engine.IllegalMove


class LinkRefusal(Exception):
    """A move through a seat's link (ByLink), refused: `reason` says why (a ServiceError,
    or the engine's IllegalMove / MalformedMove) and `seat` is the link's seat, for the
    answer's language and words (None when the link opens no seat)."""

    def __init__(self, reason: Refusal, seat: Seat | None) -> None:
        super().__init__(str(reason))
        self.reason: Refusal = reason
        self.seat: Seat | None = seat


@dataclass(frozen=True)
class ByLink:
    token: str


@dataclass(frozen=True)
class BySeat:
    seat: Seat


@dataclass(frozen=True)
class ByBot:
    game_id: int
    level: str | None = None  # None: the game's bot level (`Game.bot_level`)


@dataclass(frozen=True)
class BySystem:
    game_id: int
    deadline: datetime  # the deadline the sweep claimed: nothing happens if it moved since
    bot: bool = False  # the game's policy: a bot plays for the absent player


@dataclass(frozen=True)
class ByModerator:
    game_id: int
    moderator: User


Actor = ByLink | BySeat | ByBot | BySystem | ByModerator


class Player(NamedTuple):
    """A seat as the move read it: its number, its player's name, its kind (person or
    bot): what today's names at the table are made of."""

    number: int
    name: str
    kind: str


# A seat's move read against what the seat sees at the move's version (its view, log
# included, and the seats as the move reads them): see the module's docstring.
MoveReader = Callable[[SeatView, list[Player]], JSON]


@dataclass(frozen=True)
class Moved:
    """A move made, reported: the game row after it, the whole state after it (its log
    only when `with_state` asked for it or a MoveReader read the move), the seats as the
    move read them, the seat that moved (the link's, for ByLink) and the events the move
    added to the log (secrets and all: `told` gives them as one seat sees them)."""
    game: Game
    state: engine.State
    players: list[Player]
    seat: Seat | None
    seat_number: int | None  # the seat moved for (None: no seat's turn was played)
    added: list[JSON]
    # The seats' clock settings as the move read them, by number: what the answer's clock
    # needs of the seat to act next, without reading it again.
    seats: Mapping[int, SeatRow] = field(default_factory=dict)

    def told(self, number: int | None) -> list[LogEvent]:
        """What the move added to the log, as seat `number` sees it (None: a spectator):
        the lines that say what happened."""
        finished = self.state.finished
        return [cast(LogEvent, engine.seat_event(event, number, finished))
                for event in self.added]


def game_move_submit(*, actor: Actor, version: int, move: object = None,
                     with_state: bool = False) -> Moved:
    """Make one move for `actor` on the game at `version`. `move`: the move as the mover
    sent it (a seat's or a moderator's), or a seat's MoveReader; a bot or the server
    chooses its own. `with_state`: read the log too and hand the whole state after the
    move back, for an answer that shows it (a move through a link, or read by a
    MoveReader, always does).

    Through a link, the seat's language is active for the refusals' words, and a refusal
    is raised as a LinkRefusal with the link's seat, for the caller's own words."""
    seat: Seat | None = None
    try:
        with transaction.atomic():
            seat, locked = _lock(actor, with_state=with_state or callable(move))
            with _seat_language(actor, seat):
                if seat is not None:
                    seat = _take_seat(seat, locked.game)
                chosen, kind, number, moderator = _decide(actor, locked, seat, version, move)
                return _apply(locked, version, chosen, actor_kind=kind, seat_number=number,
                              moderator=moderator, seat=seat)
    except (ServiceError, engine.IllegalMove) as refused:
        if isinstance(actor, ByLink):
            raise LinkRefusal(refused, seat) from refused
        raise


def _take_seat(seat: Seat, game: Game) -> Seat:
    """The player's first move through their own link takes the seat (and kills an
    invitation link still open), in the move's transaction: a refused move takes it back
    with everything else. A game still in setup starts only through acceptance itself
    (games.seats.services.acceptance.accept_seat): its moves are refused anyway."""
    if seat.kind != SeatKind.PERSON or game.status == Game.Status.SETUP or seat.accepted:
        return seat
    seat.accept(timezone.now())
    return seat


def _seat_language(actor: Actor, seat: Seat | None) -> AbstractContextManager[None]:
    if isinstance(actor, ByLink) and seat is not None:
        return translation.override(seat.language)
    return nullcontext()


def _lock(actor: Actor, *, with_state: bool) -> tuple[Seat | None, Locked]:
    moves = store()
    if isinstance(actor, ByLink):
        found = moves.lock_by_link(actor.token, with_log=True)
        if found is None:
            raise LinkRefusal(NoSuchSeat(), None)
        seat, locked = found
        if seat.via_invitation:
            raise LinkRefusal(InvitationLink(), seat)
        return seat, locked
    if isinstance(actor, BySeat):
        return actor.seat, moves.lock_game(actor.seat.game_id, with_log=with_state)
    # A bot's view (and the server's) reads the round's log: read it with the lock.
    wants_log = with_state or isinstance(actor, ByBot | BySystem)
    return None, moves.lock_game(actor.game_id, with_log=wants_log)


def _decide(actor: Actor, locked: Locked, seat: Seat | None, version: int,
            move: object) -> tuple[JSON, str, int | None, User | None]:
    """(the move as the engine takes it, who made it, the seat, the moderator)."""
    game = locked.game
    if isinstance(actor, ByLink | BySeat):
        assert seat is not None
        if callable(move):
            move = _read_move(move, locked, seat.number, version)
        sent = _seat_move(seat.number, move)
        if game.script and game.version == version and game.actor == seat.number:
            script.check_seat_move(game.script, version, sent)  # a lesson's set move
        return sent, Move.Actor.SEAT, seat.number, None
    if isinstance(actor, ByModerator):
        if game.actor is None:
            _check_playable(game)
            raise NotDue()  # an active game always has a seat to act
        return (_seat_move(game.actor, _without_seat(move)), Move.Actor.MODERATOR,
                game.actor, actor.moderator)
    # A bot or the server: only while the turn it was asked to play is still there.
    if (game.status != Game.Status.ACTIVE or game.version != version or game.actor is None
            or game.actor not in locked.seats):
        raise NotDue()
    acting = locked.seats[game.actor]
    state = game.state_without_log()
    state.log = list(locked.log or [])
    if isinstance(actor, ByBot):
        if acting.kind != SeatKind.BOT:
            raise NotDue()
        chosen = script.forced_move(game.script, state, version) or bot_move(
            state, acting.number, game.seed, version, actor.level or game.bot_level)
        return {**chosen, "seat": acting.number}, Move.Actor.BOT, acting.number, None
    if game.deadline_at != actor.deadline:
        raise NotDue()
    forced = script.forced_move(game.script, state, version)
    if forced is not None:  # a lesson's set move, whoever is away
        kind = Move.Actor.BOT if actor.bot else Move.Actor.SYSTEM
        return {**forced, "seat": acting.number}, kind, acting.number, None
    if actor.bot:
        chosen = bot_move(state, acting.number, game.seed, version, game.bot_level)
        return {**chosen, "seat": acting.number}, Move.Actor.BOT, acting.number, None
    chosen = timeout_move(engine.view(state, acting.number), engine.legal_moves(state))
    return {**chosen, "seat": acting.number}, Move.Actor.SYSTEM, acting.number, None


def _read_move(reader: MoveReader, locked: Locked, number: int, version: int) -> object:
    """The move a MoveReader reads from the seat's view at `version` (the locked state,
    its log included): only at that version (StaleVersion, before anything is read)."""
    game = locked.game
    if game.version != version:
        raise StaleVersion(version, game.version)
    state = game.state_without_log()
    state.log = list(locked.log or [])
    players = [Player(s.number, s.player_name, s.kind) for s in locked.seats.values()]
    return reader(engine.view(state, number), players)


def _seat_move(number: int, move: object) -> JSON:
    """The move as the engine takes it from this seat (the seat is the mover's, always)."""
    if not isinstance(move, dict):
        raise engine.MalformedMove("not_an_object", _("A move must be a JSON object."))
    return {**move, "seat": number}


def _without_seat(move: object) -> object:
    return {k: v for k, v in move.items() if k != "seat"} if isinstance(move, dict) else move


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


def _apply(locked: Locked, version: int, move: JSON, *, actor_kind: str,
           seat_number: int | None, moderator: User | None, seat: Seat | None) -> Moved:
    """The move on the locked game: judged, written, its follow-up queued."""
    now = timezone.now()
    game, seats = locked.game, locked.seats
    _check_playable(game)
    if game.version != version:
        raise StaleVersion(version, game.version)
    # The engine only appends to the log: applied to the stored state (no log), the
    # state's log afterwards is exactly what this move added (its Move row keeps it).
    state = engine.apply(game.state_without_log(), move)
    added = list(state.log)
    number = version + 1
    _advance(game, state, move, now, seats)
    moves = store()
    written = moves.write_move({
        "game": game.pk, "number": number, "actor_kind": actor_kind,
        "seat_number": seat_number, "moderator": moderator.pk if moderator else None,
        "move": move, "events": state.log, "created_at": now,
    }, _game_values(game), version)
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
        if written.move_id is not None:  # the next move here may read only what follows
            moves.remember(game.pk, number, written.move_id, state.log)
    _queue_follow_up(game, number, seats)
    # Every seat's pages of this game read the primary for a few seconds after the commit,
    # however the move came (games.kit.replica_reads): its last move included.
    replica_reads.wrote(replica_reads.game_mark(game.pk))
    players = [Player(s.number, s.player_name, s.kind) for s in seats.values()]
    return Moved(game=game, state=state, players=players, seat=seat, seat_number=seat_number,
                 added=added, seats=seats)


def _advance(game: Game, state: engine.State, move: JSON, now: datetime,
             seats: dict[int, SeatRow]) -> None:
    """The game row as the move leaves it (in memory; `_game_values` writes it)."""
    game.version += 1
    game.chain_head = chain.extend(game.chain_head, game.salt, move)  # the Move row's move
    game.snapshot = state.to_json(include_log=False)
    game.log_length += len(state.log)
    publish(TurnEnding(game, now, seats))  # the clock charges the bank of the ending turn
    game.actor = state.actor
    if state.finished:
        game.status = Game.Status.FINISHED
    publish(TurnBeginning(game, now, seats))  # the clock sets the new turn's deadline
    if state.finished or any(event["type"] == "round_end" for event in state.log):
        # The ratings' outbox row, written with the move; at the game's end too (a round
        # that ended in the gold phase, or an anonymous game's rounds, wait for it).
        publish(RoundEnded(game, now))
    if state.finished:
        publish(GameEnded(game, now))  # a tournament's table ends with it
    game.updated_at = now


def _game_values(game: Game) -> dict[str, Any]:
    banks = {"banks": game.banks} if game.bank_hours is not None else {}
    return {**banks,
        "version": game.version, "chain_head": game.chain_head, "snapshot": game.snapshot,
        "log_length": game.log_length, "actor": game.actor, "status": game.status,
        "turn_started_at": game.turn_started_at, "deadline_at": game.deadline_at,
        "turn_clock": game.turn_clock,
        "deadline_extension": game.deadline_extension, "reminder_at": game.reminder_at,
        "updated_at": game.updated_at,
    }


def _queue_follow_up(game: Game, number: int, seats: dict[int, SeatRow]) -> None:
    """After the commit: the bot's turn, if a bot is next. The move's emails need nothing
    here: its outbox row (written with it) is planned by the beat
    (games.mail.services.move_emails)."""
    next_seat = seats.get(game.actor) if game.actor is not None else None
    bot_next = (game.status == Game.Status.ACTIVE and next_seat is not None
                and next_seat.kind == SeatKind.BOT)
    if bot_next:
        queue_bot_turn(game.pk, number, bot_next=True)


# ---- a bot's turn: one more way a move arrives ---------------------------------------------


@shared_task(name="games.tasks.play_bot_turn", soft_time_limit=BOT_SOFT_TIME_LIMIT,
             time_limit=BOT_TIME_LIMIT)
def play_bot_turn(game_id: int, version: int) -> bool:
    """A bot seat's move of turn `version`; a second run (or a stale one) does nothing.
    Past the soft time limit (the strong level thinking on a starved worker) the turn is
    played again at the normal level, which takes milliseconds."""
    try:
        try:
            game_move_submit(actor=ByBot(game_id), version=version)
        except SoftTimeLimitExceeded:
            log.warning("bot turn %s of game %s: past the soft time limit, normal level",
                        version, game_id)
            game_move_submit(actor=ByBot(game_id, level="normal"), version=version)
    except NotDue:
        return False
    return True


def bot_to_act(game_id: int, version: int) -> bool:
    return Seat.objects.filter(
        game_id=game_id, kind=SeatKind.BOT, number=F("game__actor"),
        game__version=version, game__status=Game.Status.ACTIVE).exists()


def queue_bot_turn(game_id: int, version: int, *, bot_next: bool | None = None) -> None:
    """If a bot is to act at `version`, have it move BOT_MOVE_DELAY_SECONDS from now (the
    page of the person who just moved shows their move first). `bot_next`: whether a bot
    is next, when the caller knows (None: look it up). The task checks the version again,
    so a stale one does no harm; a task lost with the broker is queued again by the
    beat's `sweep_bot_turns` (games.moves.services.bot_turns)."""
    if bot_next is None:
        bot_next = bot_to_act(game_id, version)
    if bot_next:
        queue_on_commit(play_bot_turn, game_id, version,
                        countdown=settings.BOT_MOVE_DELAY_SECONDS)
