"""A pause the table agrees on: any player proposes up to MAX_PAUSE_DAYS days with a
reason; it starts when a majority of the human seats agree (the proposer counts) and
ends at its end, or early when the proposer or a majority says so. During it no clock
runs (a stop in `Game.stops`, which games.clock.core.timing leaves out of every seat's
time). At most one proposal per player per game; a proposal nobody agrees to within
PROPOSAL_LIFETIME lapses. Every other deciding player is emailed the proposal (their
email setting allowing), which they can answer with `pause agree`. A moderator's pause
(games.moderation.services.game_clock) is another thing and stays as it was.

    propose(seat_id, days, reason) / agree(seat_id) / end(seat_id) -> Game
    state(game, now) -> "none" | "proposed" | "running"
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.core import clock_facts
from games.clock.core import rules as clock_rules
from games.clock.core.clock_events import PauseProposed
from games.clock.core.refusals import ClockRefusal
from games.clock.services import turn_clock as clock
from games.game.core.game import Game, SeatKind
from games.game.core.talk_and_notices import GameNotice
from games.kit.events import publish
from games.kit.text import is_clean_line
from games.seats.core.seat import Seat

MAX_PAUSE_DAYS = 14
MAX_REASON = 200
PROPOSAL_LIFETIME = clock_facts.PROPOSAL_LIFETIME


def state(game: Game, now: datetime) -> str:
    return clock_facts.pause_state(game, now)


def _humans(game: Game) -> set[int]:
    return clock_facts.pause_deciders(game)


def _majority(votes: list[int], humans: set[int]) -> bool:
    return len(set(votes) & humans) >= clock_facts.votes_needed(len(humans))


def _locked(seat_id: int) -> tuple[Game, Seat]:
    game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
    game = Game.objects.select_for_update().get(pk=game_id)
    seat = Seat.objects.get(pk=seat_id)
    if game.status != Game.Status.ACTIVE:
        raise ClockRefusal("game_not_active", _("The game is not being played now."))
    if seat.kind != SeatKind.PERSON:
        raise ClockRefusal("not_a_player", _("Only the table's players decide on a pause."))
    return game, seat


def _notice(game: Game, **params: object) -> None:
    GameNotice.objects.create(game=game, version=game.version, kind=GameNotice.Kind.PAUSE,
                              params={**params, "log_at": game.log_length})


def _actor(game: Game) -> Seat | None:
    if game.actor is None:
        return None
    return Seat.objects.filter(game=game, number=game.actor).first()


def _restop(game: Game, now: datetime, stops: list[list[str]]) -> None:
    """New stops for the table: the running turn's deadline again from what it had left."""
    actor = _actor(game)
    left = clock_rules.own_time_left(game, actor, now) if actor is not None else None
    game.stops = stops
    if left is not None:
        clock.replan(game, actor, now, left)


def propose(seat_id: int, days: int, reason: str) -> Game:
    now = timezone.now()
    reason = " ".join(reason.split())
    with transaction.atomic():
        game, seat = _locked(seat_id)
        if not 1 <= days <= MAX_PAUSE_DAYS:
            raise ClockRefusal("bad_pause", _("A pause lasts 1 to %(n)s days.")
                               % {"n": MAX_PAUSE_DAYS})
        if not reason or len(reason) > MAX_REASON or not is_clean_line(reason):
            raise ClockRefusal("bad_pause", _("Give the reason for the pause in at most "
                                              "%(n)s characters.") % {"n": MAX_REASON})
        if seat.number in (game.pause_proposers or []):
            raise ClockRefusal("pause_used", _("You have proposed a pause in this game "
                                               "already: one per player per game."))
        if state(game, now) != "none":
            raise ClockRefusal("pause_open", _("A pause is already proposed or running."))
        game.pause = {"by": seat.number, "days": days, "reason": reason,
                      "proposed_at": now.isoformat(), "agreed": [seat.number]}
        game.pause_proposers = [*(game.pause_proposers or []), seat.number]
        _notice(game, step="proposed", seat=seat.number, days=days, reason=reason)
        _start_if_agreed(game, now)
        game.save(update_fields=["pause", "pause_proposers", "stops", "deadline_at",
                                 "reminder_at", "turn_clock", "updated_at"])
        if state(game, now) == "proposed":
            _ask_the_table(game, seat)
    return game


def _ask_the_table(game: Game, proposer: Seat) -> None:
    """Every other player who decides hears of the proposal by email, as their setting
    allows (games.mail.services.clock_mail), and can answer it with `pause agree`."""
    others = (Seat.objects.filter(game=game, number__in=_humans(game))
              .exclude(pk=proposer.pk).order_by("number"))
    publish(PauseProposed(game, proposer, list(others)))


def agree(seat_id: int) -> Game:
    now = timezone.now()
    with transaction.atomic():
        game, seat = _locked(seat_id)
        if state(game, now) != "proposed":
            raise ClockRefusal("no_pause", _("No pause is proposed now."))
        if seat.number in game.pause["agreed"]:
            raise ClockRefusal("pause_agreed", _("You have agreed already."))
        game.pause = {**game.pause, "agreed": [*game.pause["agreed"], seat.number]}
        _notice(game, step="agreed", seat=seat.number)
        _start_if_agreed(game, now)
        game.save(update_fields=["pause", "stops", "deadline_at", "reminder_at",
                                 "turn_clock", "updated_at"])
    return game


def _start_if_agreed(game: Game, now: datetime) -> None:
    if not _majority(game.pause["agreed"], _humans(game)):
        return
    until = now + timedelta(days=int(game.pause["days"]))
    game.pause = {**game.pause, "started_at": now.isoformat(), "until": until.isoformat(),
                  "end_votes": []}
    _restop(game, now, [*(game.stops or []), [now.isoformat(), until.isoformat()]])
    _notice(game, step="started", days=game.pause["days"])


def end(seat_id: int) -> Game:
    """The proposer ends the running pause; anyone else votes to end it (a majority)."""
    now = timezone.now()
    with transaction.atomic():
        game, seat = _locked(seat_id)
        if state(game, now) != "running":
            raise ClockRefusal("no_pause", _("No pause is running now."))
        votes = sorted({*game.pause.get("end_votes", []), seat.number})
        game.pause = {**game.pause, "end_votes": votes}
        if seat.number == game.pause["by"] or _majority(votes, _humans(game)):
            stops = list(game.stops or [])
            stops[-1] = [stops[-1][0], now.isoformat()]
            _restop(game, now, stops)
            game.pause = {**game.pause, "until": now.isoformat()}
            _notice(game, step="ended", seat=seat.number)
        game.save(update_fields=["pause", "stops", "deadline_at", "reminder_at",
                                 "turn_clock", "updated_at"])
    return game
