"""The seat page behind a private link, and its POST actions (CSRF-protected).

GET never changes anything. Every POST redirects back to the page (PRG), except a
refused move, which shows the page again with the reason and the chosen move kept.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import engine
from games.game.core.game import Game
from games.kit import limits
from games.kit.link_tokens import hash_token
from games.kit.replica_reads import game_mark, reads_from_replica
from games.kit.responses import private, too_many
from games.mail.core import seen_turns
from games.moves.services import moves
from games.moves.services import seat_services as services
from games.people.core.home_links import home_choices
from games.play.doors.seat_forms import MoveForm, SeatPreferencesForm, TalkForm
from games.play.services import seat_context
from games.ratings.services.player_record import table_lines
from games.ratings.services.shown import rounds_counted
from games.records.services import game_record
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import seat_locale, with_seat, within_link_limit
from games.seats.services import acceptance
from games.seatview.core.move_errors import explain
from games.seatview.services import pages
from games.talk.services import reading


def _context(seat: Seat, secret: str, game: Game | None = None, **extra: Any) -> dict[str, Any]:
    game = game or Game.objects.get(pk=seat.game_id)
    if game.status == Game.Status.ACTIVE:  # bookkeeping only (games.mail.core.seen_turns)
        seen_turns.note_seen(seat, game.version, its_turn=game.actor == seat.number)
    view, moves = pages.view_and_moves(game, seat)
    # Read once: the seats (names, who accepted, the clock, records shown) and the notices.
    seats, notices = list(game.seats.all()), pages.table_notices(game)
    context = seat_context.page_context(game, seat, view, moves, seats, notices)
    lines = table_lines(game, seat, seats)
    if lines:
        context["players"] = [replace(p, record=lines.get(p.number, ""))
                              for p in context["players"]]
    newest_talk = game.messages.aggregate(talk=Max("id"))["talk"] or 0
    # Where the lines this seat has not read begin; from now on they are read (bookkeeping
    # only, like the turn seen above: games.talk.services.reading).
    unread = reading.read_on_page(seat, context["table_talk"], newest_talk)
    context.update(
        secret=secret, replay_url=seat_path(secret) + "replay/",
        record_url=f"/api/play/{secret}/record",
        # What the page's script compares with /api/play/<secret>/version to know when to
        # fetch the page's changing parts again (/play/<secret>/live).
        live={"version": game.version, "talk": newest_talk,
              "notice": max((notice.id or 0 for notice in notices), default=0)},
        chosen_cards=extra.pop("chosen_cards", []), chosen_remove=extra.pop("chosen_remove", ""),
        rated_rounds=rounds_counted(game.pk, seat) if game.rated else [],
        first_unread=unread[0].pk if unread else None, unread_count=len(unread),
        **extra,
    )
    return context


def _render(request: HttpRequest, seat: Seat, status: int = 200, game: Game | None = None,
            **extra: Any) -> HttpResponse:
    secret = extra.pop("secret")
    # The person's home, read once: the page's colours chosen there, and the "next game"
    # box (games.home.doors.next_game_box). The live part has neither.
    home = home_choices(seat.email)
    context = _context(
        seat, secret, game, home_choices=home, theme=home.theme,
        talk_form=extra.pop("talk_form", None) or TalkForm(auto_id="talk_%s"),
        preferences_form=SeatPreferencesForm(
            initial={"time_zone": seat.time_zone, "language": seat.language,
                     "confirm_moves": seat.confirm_moves}),
        **extra)
    return private(render(request, "games/seat.html", context, status=status))


@require_GET
@with_seat(invitation=True, with_game=True)
def seat_page(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    if seat.via_invitation:
        # The host's invitation link, before or after the game starts: the invitation,
        # never the hand (only the player who accepts gets a working link).
        names = ", ".join(pages.seat_names(seat.game).values())
        return private(render(request, "games/invitation.html", {
            "game": seat.game, "seat": seat, "secret": secret, "players": names,
            "fairness": game_record.fairness(seat.game)}))
    kept = request.session.pop(f"kept:{seat.pk}", None) if hasattr(request, "session") else None
    game = seat.game  # on the primary: whether the game is over is the newest there is
    if game.status == Game.Status.FINISHED:
        # Finished data: the replica's, unless the game (its last move) or the player's
        # browser wrote within the window (games.kit.replica_reads).
        return reads_from_replica(game_mark(game.pk)).run(
            _render, request, seat, game=game, secret=secret, **(kept or {}))
    return _render(request, seat, game=game, secret=secret, **(kept or {}))


@require_GET
@within_link_limit
@with_seat(with_game=True)
def seat_live(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    """The parts of the seat page that change as the game goes on (status, maze, hand,
    players, log, table talk), for the page's script to swap in without a reload. It
    reads nothing of the session: the page's notices and a refused move's kept choice
    stay for the page itself. It counts against the link's limit, with the JSON API's
    requests (429 with Retry-After past it, which the script waits out)."""
    return private(render(request, "games/_seat_live.html", _context(seat, secret, seat.game)))


@require_POST
@with_seat(taken_by_move=True)
def seat_move(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    form = MoveForm(request.POST)
    # A refused move shows the page again with the choice kept (select, checkboxes).
    kept: dict[str, Any] = {"chosen": request.POST.get("move", ""),
                            "chosen_cards": request.POST.getlist("cards"),
                            "chosen_remove": request.POST.get("remove", "")}
    if not form.is_valid():
        error = next(iter(form.errors.values()))[0]
        return _render(request, seat, 400, secret=secret, move_error=error, **kept)
    try:
        moved = moves.game_move_submit(actor=moves.BySeat(seat),
                                       version=form.cleaned_data["version"],
                                       move=form.cleaned_data["move"])
    except services.StaleVersion as stale:
        # Back to the page as it is now (a reload must not send the move again), with
        # the choice kept for that page.
        messages.error(request, stale.message)
        request.session[f"kept:{seat.pk}"] = kept
        return redirect(seat_path(secret) + "#what-happened")
    except engine.MalformedMove as bad:
        return _render(request, seat, 400, secret=secret,
                       move_error=explain(bad, seat.game.ruleset), **kept)
    except engine.IllegalMove as refused:
        return _render(request, seat, 422, secret=secret,
                       move_error=explain(refused, seat.game.ruleset), **kept)
    except services.GameNotPlayable as closed:
        return _render(request, seat, 422, secret=secret, move_error=closed.message,
                       **kept)
    names = pages.seat_names(moved.game, moved.players)
    for line in pages.new_lines(moved.told(seat.number), moved.state.ruleset, seat.number,
                                names):
        messages.success(request, line)
    return redirect(seat_path(secret) + "#what-happened")


@require_POST
@with_seat(invitation=True)
def seat_accept(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    if seat.via_invitation:
        # Whoever holds an invitation link (the host, often) never gets the own link: it
        # goes to the seat's address only. The invitation link is dead from here on.
        accepted = acceptance.accept_seat(seat.pk, by_invitation=True,
                                        invitation_hash=hash_token(secret))
        if accepted is None:
            raise Http404("This invitation was accepted already")
        return private(render(request, "games/accepted.html", {"game": accepted.game}))
    seat = acceptance.accept_seat(seat.pk) or seat
    if seat.game.status == Game.Status.ACTIVE:
        messages.success(request, _("You have joined the game."))
    else:
        messages.success(request, _("You have joined; the game starts when every player "
                                    "has accepted."))
    return redirect(seat_path(secret))


@require_POST
@with_seat
def seat_say(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    form = TalkForm(request.POST, auto_id="talk_%s")
    if form.is_valid():
        try:
            limits.hit("talk_seat", f"seat:{seat.pk}")
        except limits.Limited as busy:
            return too_many(request, busy)
        try:
            services.post_message(seat, form.cleaned_data["text"])
        except services.ServiceError as refused:
            form.add_error("text", refused.message)
    if not form.is_valid():
        return _render(request, seat, 400, secret=secret, talk_form=form)
    return redirect(seat_path(secret) + "#talk")


@require_POST
@with_seat
def seat_preferences(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    form = SeatPreferencesForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.refusal())
        return redirect(seat_path(secret))
    services.update_preferences(seat.pk, time_zone=form.cleaned_data["time_zone"],
                                language=form.cleaned_data["language"],
                                confirm_moves=form.cleaned_data["confirm_moves"])
    seat.refresh_from_db()
    with seat_locale(seat):
        messages.success(request, _("Your preferences were saved."))
    return redirect(seat_path(secret))


@require_POST
@with_seat
def seat_rotate(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        limits.hit("rotate_seat", f"seat:{seat.pk}")
    except limits.Limited as busy:
        return too_many(request, busy)
    token = services.rotate_link(seat.pk, current_hash=hash_token(secret))
    if token is None:  # a second click: the first one already replaced this link
        raise Http404("link already replaced")
    messages.warning(request, _("This is your new private link: bookmark it. "
                                "The old link no longer works."))
    return private(redirect(seat_path(token)))
