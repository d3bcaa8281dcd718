"""The JSON API for non-browser clients (docs/api.md).

    GET  /api/play/<secret>/        {"version", "seat", "view", "legal_moves", "players",
                                     "rated", "commitment", "chain": {"version", "head"}}
                                    (+ "rated_rounds" in a rated game, "salt", "seed"
                                    once the game is over)
    GET  /api/play/<secret>/version {"version", "status", "talk", "notice"}: cheap, for
                                    polling (the seat page's script asks it while open)
    GET  /api/play/<secret>/record  the finished game's record (409 before the end)
         ("players": [{"seat", "name", "bot"}], who sits where and which seats bots play)
    POST /api/play/<secret>/accept  take the seat; through an invitation link the player's
         own link is emailed to the seat's address (never returned: "link_sent": true);
         403 invitation_not_accepted everywhere else an invitation link is used
    POST /api/play/<secret>/leave   find someone for the seat (games.handover): {"seat",
         "open": true, "while_open": "bot"|"wait", "message"}; 409 when it cannot
         (already open, the game not under way)
    POST /api/play/<secret>/moves   {"version": V, "move": {...}}
         200 as GET, after the move | 400 malformed | 404 unknown secret
         409 stale version | 422 illegal move or game not accepting moves
         405 wrong method | 413 body too large | 429 too many requests (Retry-After)
Errors are {"error": {"code", "message"}}, whatever went wrong.

The rate limit counts per link (its hash) and the body is read and checked before the
game is touched: a link flooded past its limit, or sending garbage, never waits for (or
holds) the game's row lock, so the other seats of the game play on undisturbed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import OuterRef, Subquery
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.clock.core import clock_facts
from games.clock.core.rules import ClockSeat
from games.game.core.aliases import Anonymity, anonymity
from games.game.core.game import Game, SeatKind
from games.game.core.talk_and_notices import GameNotice, Message
from games.handover.core.handover_errors import HandoverError
from games.handover.doors.seat_handover import left_message
from games.handover.services import opening
from games.kit import jsonsafe
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, request_body
from games.kit.link_tokens import hash_token
from games.kit.responses import private
from games.kit.service_errors import http_status
from games.mail.core import seen_turns
from games.moves.services import moves
from games.ratings.services.shown import rounds_counted
from games.records.services import game_record
from games.seats.core.links import find_seat
from games.seats.core.seat import Seat
from games.seats.doors.access import (
    invitation_refusal,
    link_api,
    not_found,
    refusal_answer,
    seat_api,
    seat_locale,
    seat_reads_replica,
)
from games.seats.services import acceptance
from games.seatview.core.move_errors import explain
from games.seatview.services import holders, pages

MAX_BODY = 16 * 1024


def _players_and_clocks(game: Game) -> tuple[list[moves.Player], dict[int, Seat]]:
    """Who sits where (the seat, the name, a person or a bot), and each seat's clock
    settings (the answer's `clock`), from one read of the seats."""
    seats = list(Seat.objects.filter(game_id=game.pk).order_by("number"))
    return ([moves.Player(s.number, s.player_name, s.kind) for s in seats],
            {s.number: s for s in seats})


@seat_api("POST", invitation=True)
def api_accept(request: HttpRequest, seat: Seat, secret: str) -> JsonResponse:
    """Take the seat, as the invitation page's button does. Through an invitation link the
    player's own link is emailed to the seat's address and never returned (the answer says
    so); the invitation link is dead afterwards. Through the own link it records the
    acceptance."""
    if seat.via_invitation:
        accepted = acceptance.accept_seat(seat.pk, by_invitation=True,
                                          invitation_hash=hash_token(secret))
        if accepted is None:  # another accept took it first: the invitation is gone
            return not_found()
        return private(JsonAnswer({
            "seat": accepted.number, "accepted": True,
            "game_status": accepted.game.status, "link_sent": True,
            "message": _("The player's own private link was sent to the seat's email "
                         "address: a program playing the seat reads it from there.")}))
    accepted = acceptance.accept_seat(seat.pk) or seat
    return private(JsonAnswer({"seat": accepted.number, "accepted": True,
                               "game_status": accepted.game.status}))


@seat_api("POST")
def api_leave(request: HttpRequest, seat: Seat, secret: str) -> JsonResponse:
    """The seat looks for a new player, as the seat page's "find someone for my seat"
    does; the link keeps working until someone takes the seat over."""
    try:
        opened = opening.open_seat(seat.pk)
    except HandoverError as refused:
        return refusal_answer(refused)
    return private(JsonAnswer({"seat": seat.number, "open": True,
                               "while_open": opened.while_open,
                               "message": left_message(opened.while_open)}))


def _payload(game: Game, seat: Seat, state: engine.State | None = None,
             players: list[moves.Player] | None = None,
             clock_seats: Mapping[int, ClockSeat] | None = None) -> JsonResponse:
    """The seat's answer: after a move, from the state and the seats the move read."""
    if players is None:
        players, clock_seats = _players_and_clocks(game)
    view, legal = pages.api_view_and_moves(game, seat, state=state)
    before = holders.past_holders(game)  # no query unless a seat changed hands
    table = anonymity(game)
    return private(JsonAnswer({
        "version": game.version,
        "seat": seat.number,
        "view": view,
        "legal_moves": legal,
        "anonymous": game.anonymous,
        "players": [_player(p, before, table) for p in players],
        "clock": clock_facts.api_clock(game, seat, timezone.now(), clock_seats),
        **_rated(game, seat),
        **game_record.fairness(game),
    }))


def _rated(game: Game, seat: Seat) -> dict[str, Any]:
    """Whether the game is rated; a rated one's rounds so far, each with whether it
    counted for the ratings and why not, and what a counted one did to the ratings the
    seat's player may see (games.ratings.services.shown)."""
    if not game.rated:
        return {"rated": False}
    return {"rated": True,
            "rated_rounds": [item.as_json() for item in rounds_counted(game.pk, seat)]}


def _player(player: moves.Player, before: list[holders.Held],
            table: Anonymity) -> dict[str, Any]:
    """Who sits in a seat; a seat that changed hands also lists who held it before
    (`holders`, oldest first): the log's events before `until_log`, and the moves up to
    `until_version`, were theirs. At an anonymous table each name is the seat's alias
    while the game goes on (games.game.core.aliases), the name as stored once it is over,
    with the alias beside it (`alias`)."""
    number = player.number
    shown: dict[str, Any] = {"seat": number, "name": _api_name(table, number, player.name),
                             "bot": player.kind == SeatKind.BOT}
    if table.aliases:
        shown["alias"] = table.alias(number)
    held = [{"name": _api_name(table, number, h.player), "bot": h.bot,
             "until_version": h.until_version, "until_log": h.until_log}
            for h in before if h.seat == number]
    if held:
        shown["holders"] = held
    return shown


def _api_name(table: Anonymity, seat: int, name: str) -> str:
    """A holder's name in the API: the alias while an anonymous game hides the names,
    else the name as stored."""
    return table.alias(seat) if table.hides else name


@seat_api("GET", "HEAD")
@seat_reads_replica
def api_record(request: HttpRequest, seat: Seat, secret: str) -> JsonResponse:
    """The whole game for archives and outside tools, once it is over (docs/api.md
    "Fairness and the game record")."""
    game = Game.objects.get(pk=seat.game_id)
    if game.status != Game.Status.FINISHED:
        return json_error(409, "game_not_over", _(
            "The game is not over yet: its record, with the seed that proves the deal, "
            "is published when it ends."))
    return private(JsonAnswer(game_record.game_record(game)))


@seat_api("GET", "HEAD")
def api_seat(request: HttpRequest, seat: Seat, secret: str) -> JsonResponse:
    return _payload(seat.game, seat)


@seat_api("GET", "HEAD")
def api_version(request: HttpRequest, seat: Seat, secret: str) -> JsonResponse:
    """How far the game is: its version (moves made), status, and the ids of its latest
    table talk message and table notice (0: none). A page polls this and fetches itself
    again only when something changed; it counts against the link's limit like every API
    request."""
    latest = Game.objects.filter(pk=seat.game_id).values(
        "version", "status", "actor").annotate(
        talk=_newest(Message), notice=_newest(GameNotice)).get()  # one query
    if latest["status"] == Game.Status.ACTIVE:  # bookkeeping only (games.mail.core.seen_turns)
        seen_turns.note_seen(seat, int(latest["version"]),
                             its_turn=latest["actor"] == seat.number)
    return private(JsonAnswer({"version": int(latest["version"]),
                               "status": str(latest["status"]),
                               "talk": int(latest["talk"] or 0),
                               "notice": int(latest["notice"] or 0)}))


def _newest(model: type[Message] | type[GameNotice]) -> Subquery:
    """The id of the game's newest row of `model` (table talk, or a table notice)."""
    return Subquery(model.objects.filter(game_id=OuterRef("pk")).order_by("-id")
                    .values("id")[:1])


@link_api("POST")
def api_move(request: HttpRequest, secret: str) -> JsonResponse:
    # The rate limit (link_api) and the body come first, without the game's lock; then
    # the seat's lookup and its game's lock are one read (games.moves.services.moves,
    # ByLink), and the first move of an own link takes the seat in the move's
    # transaction. Every refusal writes nothing.
    body = _parse(request)
    if isinstance(body, JsonResponse):
        seat = find_seat(secret)
        if seat is None:
            return not_found()
        with seat_locale(seat):
            refusal = _parse(request)  # the same refusal, in the seat's language
        return refusal if isinstance(refusal, JsonResponse) else body
    version, move = body
    try:
        moved = moves.game_move_submit(actor=moves.ByLink(secret), version=version, move=move)
    except moves.LinkRefusal as refusal:
        return _refused_move(refusal, secret)
    assert moved.seat is not None
    with seat_locale(moved.seat):
        return _payload(moved.game, moved.seat, moved.state, moved.players, moved.seats)


def _refused_move(refusal: moves.LinkRefusal, secret: str) -> JsonResponse:
    """The answer to a move the service refused, in the seat's language."""
    refused, seat = refusal.reason, refusal.seat
    if isinstance(refused, moves.NoSuchSeat) or seat is None:
        return not_found()
    with seat_locale(seat):
        if isinstance(refused, moves.InvitationLink):
            return invitation_refusal(seat, secret) or not_found()
        if isinstance(refused, engine.IllegalMove):
            ruleset = Game.objects.values_list("ruleset", flat=True).get(pk=seat.game_id)
            return json_error(http_status(refused), refused.code, explain(refused, ruleset),
                              params=refused.params)
        return refusal_answer(refused)


def _parse(request: HttpRequest) -> tuple[int, dict[str, Any]] | JsonResponse:
    body = request_body(request, MAX_BODY)
    if body is None:
        return json_error(413, "too_large", _("The request body is too large."))
    try:
        data = jsonsafe.loads(body)
    except (ValueError, UnicodeDecodeError):
        return json_error(400, "bad_json", _("The request body is not valid JSON."))
    if not isinstance(data, dict):
        return json_error(400, "bad_request", _('Send an object: {"version": V, "move": {...}}.'))
    version, move = data.get("version"), data.get("move")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        return json_error(400, "bad_version", _('"version" must be the whole number you last saw.'))
    if not isinstance(move, dict):
        return json_error(400, "not_an_object", _('"move" must be a JSON object.'))
    return version, move
