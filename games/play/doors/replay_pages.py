"""What spectators see: the spectator page of a game that allows it (built from
view(state, None)), and the replay of a finished game (games.records.services.replay_steps): one
page per step, so it works without JavaScript (a small script adds the arrow keys). GET
only; before the end the replay is a 404, since it shows every hand and role."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from games.game.core.game import Game
from games.kit.replica_reads import game_mark, reads_from_replica
from games.kit.responses import private
from games.notes.services.sheet import notes_in_round
from games.people.core.home_links import theme_of
from games.play.services import seat_context
from games.records.services import game_record, replay_steps
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import seat_reads_replica, with_seat
from games.seatview.services import pages


def _step(request: HttpRequest) -> int:
    try:
        return max(0, int(request.GET.get("step", "0")))
    except ValueError:
        return 0


def _render(request: HttpRequest, game: Game, base: str, back: str,
            seat: Seat | None = None) -> HttpResponse:
    if game.status != Game.Status.FINISHED:
        raise Http404("The replay opens when the game is over")
    story = replay_steps.tell(game)
    context = replay_steps.step_context(story, _step(request))
    round_summaries = {s.round: s for s in replay_steps.summaries(story)}
    context.update(game=game, base=base, back=back, fairness=game_record.fairness(game),
                   summary=round_summaries.get(context["round"]))
    if seat is not None:  # the seat's own private notes of that round, to its player alone
        context["my_notes"] = notes_in_round(seat, int(context["round"] or 1),
                                             pages.seat_names(game))
        context["theme"] = theme_of(seat.email)  # the colours its person chose on their home
    return private(render(request, "games/replay.html", context))


@require_GET
@with_seat
@seat_reads_replica
def seat_replay(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    page = seat_path(secret)
    return _render(request, Game.objects.get(pk=seat.game_id), page + "replay/", page, seat)


@require_GET
def watch_replay(request: HttpRequest, public_id: str) -> HttpResponse:
    game = get_object_or_404(Game, public_id=public_id, spectators_allowed=True)
    page = f"/watch/{public_id}/"
    # Found on the primary; told from the replica unless its last move is seconds old.
    return reads_from_replica(game_mark(game.pk)).run(
        _render, request, game, page + "replay/", page)


@require_GET
def watch(request: HttpRequest, public_id: str) -> HttpResponse:
    """The spectator page: off unless the game allows it."""
    game = get_object_or_404(Game, public_id=public_id, spectators_allowed=True)
    view = pages.seat_view(game, None)
    context = seat_context.page_context(game, None, view, [])
    context["players"] = seat_context.with_public_pages(game, context["players"])
    context["replay_url"] = f"/watch/{public_id}/replay/"
    return render(request, "games/watch.html", context)
