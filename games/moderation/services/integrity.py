"""Verify a game: replaying its Move rows from the seed must give its snapshot.

The report names the first move where things go wrong: a gap in the numbering, a
move the engine refuses, or the first move whose log events differ from the events
its Move row stored (the deal: the game's opening events); and which parts of the final
state differ (when only those differ, the last move is named: the snapshot alone cannot
tell more); and whether the moves give the hash chain's head the game published.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from games import engine
from games.engine import chain
from games.engine.types import JSON
from games.game.core.game import Game, Move
from games.moderation.services.acts import clean_reason, locked_game, record


@dataclass
class IntegrityReport:
    ok: bool = True
    version: int = 0
    moves: int = 0
    first_bad_move: int | None = None
    problems: list[str] = field(default_factory=list)
    differing_keys: list[str] = field(default_factory=list)

    def fail(self, problem: str, move: int | None = None) -> None:
        self.ok = False
        self.problems.append(problem)
        if move is not None and (self.first_bad_move is None or move < self.first_bad_move):
            self.first_bad_move = move

    def as_json(self) -> JSON:
        return asdict(self)


def check_integrity(game: Game) -> IntegrityReport:
    """Replay `game` and compare; changes nothing."""
    moves = list(game.moves.order_by("number"))
    report = IntegrityReport(version=game.version, moves=len(moves))
    _check_numbering(moves, game.version, report)
    if chain.head_after(game.commitment, game.salt, [m.move for m in moves]) != game.chain_head:
        report.fail(_("The moves do not give the chain head the game published."))
    state = _replay(game, moves, report)
    if state is None:
        return report
    if state.to_json(include_log=False) != game.snapshot:
        _compare(state, game, moves, report)
    if game.actor != state.actor:
        report.fail(_("The game says seat %(stored)s is to act; the replay says %(replayed)s.")
                    % {"stored": game.actor, "replayed": state.actor})
    if state.finished != (game.status == Game.Status.FINISHED):
        report.fail(_("The game's status (%(status)s) does not match the replay.")
                    % {"status": game.status})
    return report


def _check_numbering(moves: list[Move], version: int, report: IntegrityReport) -> None:
    for expected, move in enumerate(moves, start=1):
        if move.number != expected:
            report.fail(_("Move %(n)s is missing from the log.") % {"n": expected}, expected)
            break
    if len(moves) != version:
        report.fail(_("The game is at version %(version)s but has %(count)s moves.")
                    % {"version": version, "count": len(moves)})


def _replay(game: Game, moves: list[Move],
            report: IntegrityReport) -> engine.State | None:
    """The replayed state; each move's log events are compared with the stored log as
    it goes, so the first move that did something else than the snapshot says is found."""
    try:
        state = engine.new_game(int(game.snapshot["seats"]), game.seed, game.ruleset,
                                game.options)
    except (KeyError, ValueError) as error:
        report.fail(_("The game cannot be set up again from its seed: %(error)s")
                    % {"error": error})
        return None
    # The stored log: the opening events, then each Move row's own.
    diverged = state.log != list(game.opening_log)
    if diverged:
        report.fail(_("The deal replayed from the seed differs from the stored log."))
    for move in moves:
        start = len(state.log)
        try:
            state = engine.apply(state, move.move)
        except engine.IllegalMove as error:
            report.fail(_("Move %(n)s is refused by the rules on replay: %(error)s")
                        % {"n": move.number, "error": error.message}, move.number)
            return None
        if not diverged and state.log[start:] != list(move.events):
            diverged = True
            report.fail(_("Move %(n)s does not do what the stored log says it did.")
                        % {"n": move.number}, move.number)
    return state


def _compare(state: engine.State, game: Game, moves: list[Move],
             report: IntegrityReport) -> None:
    replayed = state.to_json(include_log=False)
    report.differing_keys = sorted(k for k in set(replayed) | set(game.snapshot)
                                   if replayed.get(k) != game.snapshot.get(k))
    report.fail(_("The replay differs from the stored snapshot in: %(keys)s.")
                % {"keys": ", ".join(report.differing_keys)},
                None if report.first_bad_move else (moves[-1].number if moves else None))


def verify_integrity(game_id: int, *, moderator: User, reason: str) -> IntegrityReport:
    """Check the game and record that it was checked, with the result."""
    reason = clean_reason(reason)
    with locked_game(game_id) as game:
        report = check_integrity(game)
        record(game, moderator, "verify", reason, **report.as_json())
    return report
