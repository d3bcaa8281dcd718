"""What the seat and spectator pages show, built only from `engine.view` and `legal_moves`.

Nothing here reads the snapshot directly: the state is turned into a view for the
one seat asking (or None for a spectator) first, and every fact comes from there.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from games import engine
from games.engine.types import JSON, LogEvent, Move, SeatView
from games.game.core.game import Game
from games.seats.core.seat import Seat
from games.seatview.core import describe, log_json
from games.seatview.core.recent import view_log
from games.seatview.core.words import Names
from games.seatview.services import facts
from games.seatview.services.holders import TableNames, names_at_round_end, table_names
from games.seatview.services.timeline import TableNotice


def seat_names(game: Game, seats: Iterable[tuple[int, str, str]] | None = None
               ) -> TableNames:
    """Each seat's name as the table sees it (a bot's carries "(bot)": "Bert (bot)
    placed..."), today and, for each line of the game, when it happened
    (games.seatview.services.holders). `seats`: each seat's number, name and kind as a
    move just read them (no query for today's names)."""
    return table_names(game, seats)


def moderator_names(game: Game) -> TableNames:
    """`seat_names` as the moderators read them: an anonymous table's aliases with its
    players' names ("Badger (Ann)"), while the game goes on too."""
    return table_names(game, moderator=True)


def seat_view(game: Game, seat: Seat | None) -> SeatView:
    """The engine's view for `seat` (None: spectator) of the game's current state."""
    return engine.view(game.state(), None if seat is None else seat.number)


def view_and_moves(game: Game, seat: Seat, *, state: engine.State | None = None,
                   log: bool = True) -> tuple[SeatView, list[Move]]:
    """The seat's view and legal moves (empty unless the game is active and it is their
    decision), from one parse of the snapshot (or from `state`, the whole state a move
    just made: nothing is read again). `log=False`: the view's log is left None."""
    state = game.state() if state is None else state
    view = engine.view(state, seat.number, log=log)
    if game.status != Game.Status.ACTIVE or state.actor != seat.number:
        return view, []
    return view, engine.legal_moves(state)


def api_view_and_moves(game: Game, seat: Seat, *,
                       state: engine.State | None = None) -> tuple[JSON, list[Move]]:
    """`view_and_moves` for the JSON API: the view's log is JSON text that orjson writes
    as it is, most of it as this process last wrote it for the seat
    (games.seatview.core.log_json)."""
    state = game.state() if state is None else state
    view, legal = view_and_moves(game, seat, state=state, log=False)
    return {**view, "log": log_json.seat_log_json(game.pk, state, seat.number)}, legal




def blocked_by(view: SeatView) -> list[str]:
    """The cards in front of the seat that stop it placing path cards (a broken tool, a
    trap), named: the page says so next to the hand."""
    me = view.get("seat")
    mine = next((p for p in view.get("players", []) if p["seat"] == me), None)
    if mine is None or view.get("phase") != "play":
        return []
    return [describe.card_name(card) for card in mine["in_front"]
            if card.get("action") in ("break", "trapped")]


def phase_text(game: Game, view: SeatView) -> str:
    if game.status != Game.Status.ACTIVE:
        return str(Game.Status(game.status).label)
    if view["phase"] == "gold":
        return _("Round %(round)s of %(rounds)s: the gold is being handed out") % view
    if view["phase"] == "theft":
        return _("Round %(round)s of %(rounds)s is over: the thieves steal") % view
    return _("Round %(round)s of %(rounds)s") % view


def status_sentence(game: Game, view: SeatView) -> str:
    """Where the game stands, as a sentence ("Round 2 of 3.", "The game is over.")."""
    sentences = {Game.Status.SETUP: lambda: _("The game is waiting for its players."),
                 Game.Status.PAUSED: lambda: _("The game is paused."),
                 Game.Status.FINISHED: lambda: _("The game is over."),
                 Game.Status.CANCELLED: lambda: _("The game was cancelled.")}
    known = sentences.get(Game.Status(game.status))
    if known is not None:
        return known()
    return f"{phase_text(game, view)}."


def waiting_text(game: Game, view: SeatView, names: Names) -> str:
    """Whose decision the game waits for, as the other seats read it."""
    if game.status != Game.Status.ACTIVE or view["actor"] is None:
        return ""
    name = describe.seat_name(view["actor"], names)
    if view["phase"] == "theft":
        return _("Waiting for %(name)s to steal a nugget.") % {"name": name}
    if view["phase"] == "gold":
        return _("Waiting for %(name)s to pick a gold card.") % {"name": name}
    return _("%(name)s is to play.") % {"name": name}



def new_lines(told: list[LogEvent], ruleset: str, seat: int | None,
              names: Names) -> list[str]:
    """Sentences for what one move added to the log, as `seat` was told it (the move's
    report: games.moves.services.moves.Moved.told), for the message after a move."""
    return [describe.event_sentence(event, names, ruleset, seat) for event in told]


def round_results(view: SeatView, names: Names) -> list[JSON]:
    """Each ended round in words, naming those who held the seats when it ended."""
    described = []
    for result in view["round_results"]:
        then = names_at_round_end(view, result["round"], names)
        described.append({**facts.described_result(result, then),
                          "winning_seats": [describe.seat_name(s, then)
                                            for s in winning_seats(view, result["round"])]})
    return described


def winning_seats(view: SeatView, round_number: int) -> list[int]:
    """The seats paid as winners of a Saboteur 2 round (its round_end event says)."""
    for event in view_log(view):
        if event["type"] == "round_end" and event["round"] == round_number:
            return list(event.get("winning_seats") or [])
    return []


def final_scores(view: SeatView, names: Names) -> list[JSON]:
    scores = view.get("scores")
    if not scores:
        return []
    winners = set(view.get("winners") or [])
    ranked = sorted(enumerate(scores), key=lambda pair: (-pair[1], pair[0]))
    return [{"name": describe.seat_name(s, names), "score": score, "winner": s in winners}
            for s, score in ranked]


def table_notices(game: Game) -> list[TableNotice]:
    """The neutral lines (GameNotice) every seat sees in the log, oldest first."""
    return [TableNotice(kind, params, notice_id) for notice_id, kind, params in
            game.notices.order_by("created_at", "id").values_list("id", "kind", "params")]


