"""A missed deadline: the game's timeout policy applied to the turn, once.

    miss_deadline(game_id, version, claimed_deadline) -> "passed" | "waiting" | ""

`claimed_deadline` is what the sweep wrote into `deadline_at` when it claimed the game
(games.clock.services.sweeps); if the game moved on or a moderator changed the deadline
since, nothing happens. auto_pass: the server's move (`games.moves.services.moves`, BySystem); bot:
a bot's move for the absent player; wait: the turn stays open without a deadline. The
seat's run of missed deadlines grows (three in a row: absent), the person's record gets
the miss (games.seats.core.reliability, by mailbox), the table is told, and the emails follow
after the commit. Exactly once per turn: the version check makes a second run a no-op.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from games.clock.core.clock_events import DeadlineMissed
from games.clock.services.turn_clock import ABSENT_AFTER_MISSES
from games.game.core.game import Game, Move, SeatKind, TimeoutPolicy
from games.game.core.talk_and_notices import GameNotice
from games.kit.events import publish
from games.moves.core.turn_events import MovesUndone
from games.moves.services.moves import BySystem, NotDue, game_move_submit
from games.seats.core.history import PastHolder
from games.seats.core.reliability import MissedDeadline
from games.seats.core.seat import Seat


def miss_deadline(game_id: int, version: int, claimed_deadline: datetime) -> str:
    with transaction.atomic():
        if not _claim(game_id, version, claimed_deadline):
            return ""
        policy = Game.objects.values_list("timeout_policy", flat=True).get(pk=game_id)
        if _seat_looks_for_a_player(game_id):
            # A seat looking for a new player in a game that waits for one (games.handover):
            # the clock stops, nobody missed a deadline; the newcomer gets a whole turn.
            return "waiting" if _wait(game_id, version, claimed_deadline) is not None else ""
        if policy == TimeoutPolicy.WAIT:
            waiting = _wait(game_id, version, claimed_deadline)
            if waiting is None:
                return ""
            _record_miss(game_id, version, waiting, passed=False)
            return "waiting"
        try:
            moved = game_move_submit(actor=BySystem(game_id, claimed_deadline,
                                                    bot=policy == TimeoutPolicy.BOT),
                                     version=version)
        except NotDue:
            return ""
        assert moved.seat_number is not None
        _record_miss(game_id, version, moved.seat_number, passed=True)
    return "passed"


def _claim(game_id: int, version: int, claimed_deadline: datetime) -> bool:
    """Lock the game row if its turn is still the one the sweep saw, for the rest of the
    act. SKIP LOCKED (PostgreSQL; SQLite has one writer and ignores it): a game another
    worker is handling (the same batch delivered twice, two sweeps' overlapping batches,
    a lost batch picked up again) or a player is moving in right now is skipped at once,
    not waited for: the other transaction acts on it, or moves its deadline. Should it do
    neither, the game is still due and the sweep hands it out again (LOST_AFTER)."""
    return (Game.objects.select_for_update(skip_locked=True)
            .filter(pk=game_id, status=Game.Status.ACTIVE, version=version,
                    deadline_at=claimed_deadline).exists())


def _seat_looks_for_a_player(game_id: int) -> bool:
    """Whether the seat to act is a person's seat open for a newcomer (a bot holds the
    seats of games that let a bot play meanwhile, so only a waiting game's seat is)."""
    return Seat.objects.filter(game_id=game_id, number=F("game__actor"),
                               kind=SeatKind.PERSON, open_since__isnull=False).exists()


def _wait(game_id: int, version: int, claimed_deadline: datetime) -> int | None:
    """"wait": the turn stays open, without a deadline; people are told. The seat waited
    on, or None when the turn is no longer due. The game row stays locked for the rest of
    the act."""
    game = Game.objects.select_for_update().get(pk=game_id)
    if (game.status != Game.Status.ACTIVE or game.version != version
            or game.deadline_at != claimed_deadline or game.actor is None):
        return None
    Game.objects.filter(pk=game_id).update(deadline_at=None, reminder_at=None)
    return game.actor


def _record_miss(game_id: int, version: int, number: int, *, passed: bool) -> None:
    """The seat `number` missed turn `version`: its run, the person's record, the table."""
    game = Game.objects.get(pk=game_id)
    seat = Seat.objects.select_for_update().get(game_id=game_id, number=number)
    if passed:
        seat.missed_turns += 1
    if seat.kind == SeatKind.PERSON and seat.email:
        # The person's record, not the seat's: it stays theirs if someone takes over.
        MissedDeadline.objects.get_or_create(seat=seat, version=version, defaults={
            "game": game, "mailbox": seat.mailbox_key})
    # log_at: where the line sits among the game log's events.
    public = {"seat": seat.number, "log_at": game.log_length}
    GameNotice.objects.create(game=game, version=game.version, kind=GameNotice.Kind.TIMEOUT,
                              params={**public, "policy": game.timeout_policy})
    if seat.missed_turns >= ABSENT_AFTER_MISSES and seat.absent_since is None:
        seat.absent_since = timezone.now()
        GameNotice.objects.create(game=game, version=game.version, kind=GameNotice.Kind.ABSENT,
                                  params={**public, "missed": seat.missed_turns})
    seat.save(update_fields=["missed_turns", "absent_since"])
    publish(DeadlineMissed(game_id, version, seat.pk))  # its emails: games.mail.services.clock_mail


def on_moves_undone(undone: MovesUndone) -> None:
    """A moderator's undo took back the turns from `to_version` on: the deadlines missed
    in them leave their people's records (the turn at `to_version` begins afresh, with a
    new clock; a miss of it again is recorded again), and each person's seat's run of
    misses is what it was at `to_version` (longer again where the undo took back the
    seat's own move), its absent mark gone with the misses that made it. An undo never
    marks a seat absent: a player whose own move it took back has shown they are here. A
    table of an event that closes again then counts only the misses that stand
    (games.tournaments.services.table_ends)."""
    MissedDeadline.objects.filter(game=undone.game,
                                  version__gte=undone.to_version).delete()
    for seat in Seat.objects.select_for_update().filter(game=undone.game,
                                                        kind=SeatKind.PERSON):
        run = run_of_misses(seat, undone.to_version)
        absent = seat.absent_since if run >= ABSENT_AFTER_MISSES else None
        if (run, absent) != (seat.missed_turns, seat.absent_since):
            seat.missed_turns, seat.absent_since = run, absent
            seat.save(update_fields=["missed_turns", "absent_since"])


def run_of_misses(seat: Seat, version: int) -> int:
    """The person's seat's run of missed deadlines at `version`, read from its moves: the
    server's or a bot's moves for it (a deadline missed: auto_pass or bot) since its own
    last move, in its present holder's time (a change of holder starts the run again; an
    undo has moved the changes after `version` back to it). A moderator's move for the
    seat neither adds to the run nor ends it, as when it was made."""
    since = (PastHolder.objects.filter(seat=seat).aggregate(v=Max("until_version"))["v"]
             or 0)
    kinds = (Move.objects.filter(game_id=seat.game_id, seat_number=seat.number,
                                 number__gt=since, number__lte=version)
             .exclude(actor_kind=Move.Actor.MODERATOR)
             .order_by("-number").values_list("actor_kind", flat=True))
    run = 0
    for kind in kinds.iterator():
        if kind == Move.Actor.SEAT:
            break
        run += 1
    return run
