"""Undo to move N: drop the later Move rows and replay the rest from the seed.

`plan_undo` shows the consequences first (the moves that go, the log events they
caused, whether a round end, gold pick or payout is undone); `undo_to` carries the
plan out and is refused across the end of a round unless `force` is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import User
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.clock.services.turn_clock import set_clock, set_deadline
from games.engine import chain
from games.engine.types import JSON
from games.game.core.game import Game, Move
from games.game.core.talk_and_notices import GameNotice
from games.kit import replica_reads
from games.kit.events import publish
from games.mail.services.turn_email import queue_turn_email
from games.moderation.services.acts import (
    ModerationError,
    clean_note,
    clean_reason,
    locked_game,
    record,
    require_status,
)
from games.moves.core.turn_events import MovesUndone
from games.moves.services.seat_services import StaleVersion
from games.seats.core.history import holders_after_undo
from games.talk.services.notices import tell_table

# Undoing any of these needs `force`: the table has seen roles, gold or the end.
ROUND_EVENTS = frozenset({"round_end", "gold_pick", "payout", "game_end"})


@dataclass(frozen=True)
class UndoPlan:
    game_id: int
    from_version: int
    to_version: int
    dropped: list[Move]
    undone_events: list[JSON]  # full, unredacted log events (moderators only)
    state: engine.State  # the state after move `to_version`
    head: str  # the hash chain's head after move `to_version` (games.engine.chain)

    @property
    def crosses_round_end(self) -> bool:
        return any(e.get("type") in ROUND_EVENTS for e in self.undone_events)

    @property
    def undone_types(self) -> list[str]:
        return [str(e.get("type")) for e in self.undone_events]

    @property
    def undoes_round_end(self) -> bool:
        return "round_end" in self.undone_types

    @property
    def undoes_gold(self) -> bool:
        return bool({"gold_pick", "payout"} & set(self.undone_types))

    @property
    def undoes_game_end(self) -> bool:
        return "game_end" in self.undone_types


def moves_of(game: Game) -> list[Move]:
    return list(game.moves.select_related("moderator").order_by("number"))


def replay_to(game: Game, moves: list[Move]) -> engine.State:
    seats = int(game.snapshot["seats"])
    return engine.replay(seats, game.seed, [m.move for m in moves], game.ruleset, game.options)


def plan_undo(game: Game, to_version: int) -> UndoPlan:
    """What undoing `game` to `to_version` would do; changes nothing."""
    require_status(game, Game.Status.ACTIVE, Game.Status.PAUSED, Game.Status.FINISHED)
    if not 0 <= to_version < game.version:
        raise ModerationError("bad_undo", _("Choose a move number from 0 to %(last)s: the "
                                            "game is at move %(version)s.")
                              % {"last": game.version - 1, "version": game.version})
    moves = moves_of(game)
    kept = moves[:to_version]
    try:
        state = replay_to(game, kept)
    except engine.IllegalMove as error:
        raise ModerationError("replay_failed", _(
            "The move log does not replay (%(error)s): verify the game's integrity first.")
            % {"error": error}) from None
    undone = game.state().log[len(state.log):]
    return UndoPlan(game_id=game.pk, from_version=game.version, to_version=to_version,
                    dropped=moves[to_version:], undone_events=undone, state=state,
                    head=chain.head_after(game.commitment, game.salt, [m.move for m in kept]))


def undo_to(game_id: int, to_version: int, *, expected_version: int, moderator: User,
            reason: str, force: bool = False, public_note: str = "") -> UndoPlan:
    """Drop every move after `to_version` and replay; the seat to act is told on commit.

    `expected_version` is the version the confirmation page showed: if the game moved
    since, nothing is done (StaleVersion) and the moderator looks again.
    """
    reason, public_note = clean_reason(reason), clean_note(public_note)
    with locked_game(game_id) as game:
        if game.version != expected_version:
            raise StaleVersion(expected_version, game.version)
        plan = plan_undo(game, to_version)
        if plan.crosses_round_end and not force:
            raise ModerationError("crosses_round_end", _(
                "This undoes the end of a round (roles shown, gold handed out): tick "
                "\"force\" if that is really what you want."))
        now = _apply(game, plan)
        # What the dropped moves did elsewhere (a tournament's table ended with the game)
        # is the listeners' to take back, with the undo or not at all (games.wiring).
        publish(MovesUndone(game=game, now=now, to_version=plan.to_version,
                            from_version=plan.from_version,
                            undoes_round_end=plan.undoes_round_end,
                            undoes_game_end=plan.undoes_game_end))
        replica_reads.wrote(replica_reads.game_mark(game.pk))  # its pages: the primary's
        action = record(game, moderator, "undo", reason, from_version=plan.from_version,
                        to_version=plan.to_version, forced=force,
                        undone_events=plan.undone_types,
                        dropped=[_dropped_json(m) for m in plan.dropped])
        tell_table(game, GameNotice.Kind.MODERATOR, action="undo",
                   first=to_version + 1, last=plan.from_version, note=public_note)
        # The seat to act hears again: the turn's own email went out before the undo.
        queue_turn_email(game, f"undo={action.pk}")
    return plan


def _apply(game: Game, plan: UndoPlan) -> datetime:
    """Write the replayed state; the turn's clock starts afresh (services' own rules).
    When it was written."""
    now = timezone.now()
    game.moves.filter(number__gt=plan.to_version).delete()
    state = plan.state
    game.version = plan.to_version
    game.chain_head = plan.head  # the kept moves' chain: the undone moves' heads are gone
    # The kept Move rows keep their events: replaying them gives those events again.
    game.snapshot = state.to_json(include_log=False)
    game.log_length = len(state.log)
    game.actor = state.actor
    holders_after_undo(game, plan.to_version, game.log_length)  # moves again: today's holder
    if game.status == Game.Status.FINISHED:
        game.status = Game.Status.ACTIVE
    paused = game.status == Game.Status.PAUSED
    if paused:  # the clock is computed as if running, then stopped with a full turn left
        game.status = Game.Status.ACTIVE
    set_clock(game, now)
    if paused:
        game.status = Game.Status.PAUSED
        game.paused_time_left = (game.deadline_at - now if game.deadline_at
                                 else timedelta(hours=game.hours_per_move))
        set_deadline(game, None, now)
    game.save(update_fields=["version", "chain_head", "snapshot", "log_length", "actor",
                             "status", "deadline_extension", "paused_time_left", "deadline_at",
                             "reminder_at", "turn_started_at", "turn_clock", "updated_at"])
    return now


def _dropped_json(move: Move) -> JSON:
    return {"number": move.number, "actor_kind": move.actor_kind, "seat": move.seat_number,
            "moderator": move.moderator.get_username() if move.moderator else None,
            "move": move.move, "made_at": move.created_at.isoformat()}
