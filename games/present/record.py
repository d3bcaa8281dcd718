"""A finished game's record (GET /api/play/<secret>/record) and what a game page shows of
the fairness proof (games.models.fairness).

The record's `moves` are the Move rows' moves exactly as `engine.replay` takes them, so
`engine.replay(seats["count"], seed, moves, ruleset, options)` gives the final state;
`made_by` says, move by move, who made it (a player, a bot, the server at a deadline, a
moderator); `moderator_acts` lists every act of a moderator the table saw, each with its
notice kind: `moderator` (an undo shows there: the undone moves are gone from `moves`,
which replay to what was played), `replaced` (a new player took over a seat) and
`dispute` (a dispute resolved; a player filing one is no moderator's act);
`seat_changes` lists, in order, every seat that looked for a new player (`seat_open`),
whose player stayed after all (`seat_kept`) or that a newcomer took over (`takeover`),
each at the version where the table saw it (games.handover).

`chain` binds the moves (games.engine.chain): `heads` lists the head after each move,
worked out from the moves listed, `head` is the head the game published after its last
move (stored with each move, shown on every page, email and API answer), and `version`
the number of moves; `scores` are the final scores. `verifygame` checks all of them.
"""

from __future__ import annotations

from typing import Any

from games.engine import chain
from games.engine.types import JSON
from games.models import Game, GameNotice, Move
from games.models.fairness import public_facts
from games.present import describe
from games.present.pages import seat_names

# 2: with `chain` and `scores` (format 1 had neither).
RECORD_FORMAT = 2
# The table notices that tell of a moderator's act (of DISPUTE, only a resolution).
MODERATOR_KINDS = (GameNotice.Kind.MODERATOR, GameNotice.Kind.PLAYER_REPLACED,
                   GameNotice.Kind.DISPUTE)
# The table notices of a seat changing hands (games.handover).
SEAT_CHANGE_KINDS = (GameNotice.Kind.SEAT_OPEN, GameNotice.Kind.SEAT_KEPT,
                     GameNotice.Kind.TAKEOVER)


def fairness(game: Game) -> JSON:
    """The commitment always; the salt and seed once the game is over."""
    return public_facts(game)


def game_record(game: Game) -> JSON:
    rows = list(Move.objects.filter(game=game).order_by("number")
                .values_list("number", "actor_kind", "seat_number", "move", "created_at"))
    names = seat_names(game)
    plain = dict(game.seats.values_list("number", "player_name"))
    kinds = dict(game.seats.values_list("number", "kind"))
    moves = [move for _n, _k, _s, move, _t in rows]
    notices = [(version, kind, params, when) for version, kind, params, when in
               GameNotice.objects.filter(game=game, kind__in=MODERATOR_KINDS)
               .order_by("created_at", "id")
               .values_list("version", "kind", "params", "created_at")
               if kind != GameNotice.Kind.DISPUTE or params.get("event") == "resolved"]
    return {
        "format": RECORD_FORMAT,
        "name": game.name,
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": {"count": len(plain), "names": [plain[n] for n in sorted(plain)],
                  "bots": [n for n in sorted(kinds) if kinds[n] == "bot"]},
        "seed": game.seed,
        "salt": game.salt,
        "commitment": game.commitment,
        "moves": moves,
        "chain": {"version": game.version, "head": game.chain_head,
                  "heads": chain.heads(game.commitment, game.salt, moves)},
        "scores": game.state_without_log().scores,
        "made_by": [_made_by(number, kind, seat, when) for number, kind, seat, _m, when in rows],
        "moderator_acts": [{"at_version": version, "kind": kind,
                            "what": describe.notice_sentence(kind, params, names),
                            "when": when.isoformat()}
                           for version, kind, params, when in notices],
        "seat_changes": [{"at_version": version, "kind": kind, "seat": params.get("seat"),
                          "what": describe.notice_sentence(kind, params, names),
                          "when": when.isoformat()}
                         for version, kind, params, when in
                         GameNotice.objects.filter(game=game, kind__in=SEAT_CHANGE_KINDS)
                         .order_by("created_at", "id")
                         .values_list("version", "kind", "params", "created_at")],
    }


def _made_by(number: int, kind: str, seat: int | None, when: Any) -> JSON:
    return {"number": number, "by": kind, "seat": seat, "at": when.isoformat()}

