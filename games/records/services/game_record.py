"""A finished game's record (GET /api/play/<secret>/record) and what a game page shows of
the fairness proof (games.records.core.fairness).

The record's `moves` are the Move rows' moves exactly as `engine.replay` takes them, so
`engine.replay(seats["count"], seed, moves, ruleset, options)` gives the final state;
`made_by` says, move by move, who made it (a player, a bot, the server at a deadline, a
moderator); `moderator_acts` lists every act of a moderator the table saw, each with its
notice kind: `moderator` (an undo shows there: the undone moves are gone from `moves`,
which replay to what was played), `replaced` (a new player took over a seat) and
`dispute` (a dispute resolved; a player filing one is no moderator's act);
`seat_changes` lists, in order, every seat that looked for a new player (`seat_open`),
whose player stayed after all (`seat_kept`) or that a newcomer took over (`takeover`),
each at the version where the table saw it (games.handover). Each move of `made_by` names
the player who held its seat then (`name`), and `seats.holders` lists, seat by seat, who
held it and until which version (`until_version`; null for today's holder): a takeover is
a point in the seat's history, not a new name for the moves made before it.

`chain` binds the moves (games.engine.chain): `heads` lists the head after each move,
worked out from the moves listed, `head` is the head the game published after its last
move (stored with each move, shown on every page, email and API answer), and `version`
the number of moves; `scores` are the final scores. `verifygame` checks all of them.
"""

from __future__ import annotations

from typing import Any

from games.engine import chain
from games.engine.types import JSON
from games.game.core.game import Game, Move
from games.game.core.talk_and_notices import GameNotice
from games.records.core.fairness import public_facts
from games.seatview.core import describe
from games.seatview.services.holders import TableNames, names_at_notice
from games.seatview.services.pages import seat_names

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
    plain = names.players
    moves = [move for _n, _k, _s, move, _t in rows]
    notices = [(notice_id, version, kind, params, when)
               for notice_id, version, kind, params, when in
               GameNotice.objects.filter(game=game, kind__in=MODERATOR_KINDS)
               .order_by("created_at", "id")
               .values_list("id", "version", "kind", "params", "created_at")
               if kind != GameNotice.Kind.DISPUTE or params.get("event") == "resolved"]
    return {
        "format": RECORD_FORMAT,
        "name": game.title,  # in the reader's language ("Open table 7", "... · rematch 1")
        "ruleset": game.ruleset,
        "options": game.options,
        "seats": {"count": len(plain), "names": [plain[n] for n in sorted(plain)],
                  "bots": sorted(names.bots),
                  "holders": [seat_holders(names, n) for n in sorted(plain)],
                  # An anonymous table's aliases (games.game.core.aliases), by seat.
                  **({"aliases": [names.anonymity.alias(n) for n in sorted(plain)]}
                     if names.anonymity.aliases else {})},
        "seed": game.seed,
        "salt": game.salt,
        "commitment": game.commitment,
        "moves": moves,
        "chain": {"version": game.version, "head": game.chain_head,
                  "heads": chain.heads(game.commitment, game.salt, moves)},
        "scores": game.state_without_log().scores,
        "made_by": [_made_by(names, number, kind, seat, when)
                    for number, kind, seat, _m, when in rows],
        "moderator_acts": [{"at_version": version, "kind": kind,
                            "what": _notice_text(names, notice_id, kind, params),
                            "when": when.isoformat()}
                           for notice_id, version, kind, params, when in notices],
        "seat_changes": [{"at_version": version, "kind": kind, "seat": params.get("seat"),
                          "what": _notice_text(names, notice_id, kind, params),
                          "when": when.isoformat()}
                         for notice_id, version, kind, params, when in
                         GameNotice.objects.filter(game=game, kind__in=SEAT_CHANGE_KINDS)
                         .order_by("created_at", "id")
                         .values_list("id", "version", "kind", "params", "created_at")],
    }


def _notice_text(names: TableNames, notice_id: int, kind: str, params: JSON) -> str:
    return describe.notice_sentence(kind, params, names_at_notice(names, notice_id, params))


def seat_holders(names: TableNames, seat: int) -> list[JSON]:
    """Who held `seat`, oldest first: each with the version their time ended at (null for
    today's holder), the name as stored and whether a bot played it."""
    return [*({"name": held.player, "bot": held.bot, "until_version": held.until_version}
              for held in names.holders(seat)),
            {"name": names.players.get(seat, ""), "bot": seat in names.bots,
             "until_version": None}]


def _made_by(names: TableNames, number: int, kind: str, seat: int | None, when: Any) -> JSON:
    made: JSON = {"number": number, "by": kind, "seat": seat, "at": when.isoformat()}
    if seat is not None:
        made["name"] = names.player_at_move(seat, number)[0]
    return made

