"""A tournament's table ends with its game: the seats' nuggets noted (a cancelled game:
everyone tied) and a no-show counted for each member who missed one of the game's
deadlines, in the transaction that ends the game, so the standings are right the moment
it commits. The beat's sweep closes a table whose game ended without it the same way
(games.tournaments.services.pairing_rounds). A moderator's undo of the game's end opens the
table again, while the event has not moved on (`on_moves_undone`).

A failure here does not undo the game's end (a player's last move, a moderator's cancel):
the table is bookkeeping the sweep catches up with, the game is the players'. It rolls
back to its own savepoint and is logged; the sweep closes the table a minute later."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.clock.core.clock_events import DeadlineMissed
from games.game.core.game import Game
from games.moves.core.turn_events import GameEnded, MovesUndone
from games.people.core.mailbox_keys import of_mailbox
from games.seats.core.reliability import MissedDeadline
from games.tournaments.core.event_rows import Entry, EventSeat, EventTable, Tournament

log = logging.getLogger(__name__)
NO_SHOWS_TO_DROP = 2


def close_table(table: EventTable, game: Game, now: datetime) -> None:
    """End `table`, whose `game` (as its end left it, written or not) is over, unless it
    has ended already. Conditional: of two closes at once, one counts the no-shows."""
    finished = game.status == Game.Status.FINISHED
    nuggets = game.state_without_log().scores if finished else [0] * table.seats
    if not EventTable.objects.filter(pk=table.pk, ended_at__isnull=True).update(
            nuggets=nuggets, ended_at=now):
        return
    table.nuggets, table.ended_at = nuggets, now
    for held in table.holders.select_related("entry"):
        if _misses(held.entry, game.pk):
            _count_no_show(held.entry, now)


def _misses(entry: Entry, game_id: int) -> list[tuple[int, int]]:
    """The member's missed deadlines in the game, as (seat, version), oldest first."""
    if not entry.address:  # forgotten: nothing to match
        return []
    return list(MissedDeadline.objects.filter(of_mailbox(entry.address, "mailbox"),
                                              game_id=game_id)
                .order_by("pk").values_list("seat_id", "version"))


def _count_no_show(entry: Entry, now: datetime) -> None:
    entry.no_shows += 1
    if entry.no_shows >= NO_SHOWS_TO_DROP and entry.dropped_at is None:
        entry.dropped_at = now
    entry.save(update_fields=["no_shows", "dropped_at"])


def reopen_table(table: EventTable, game: Game) -> None:
    """Open the ended `table` again, its game's end undone: out of the standings, and each
    no-show its close counted (a member who missed one of the game's deadlines) taken
    back, with the drop it caused. The game's next end closes it as if for the first time."""
    if not EventTable.objects.filter(pk=table.pk, ended_at__isnull=False).update(
            nuggets=[], ended_at=None):
        return
    table.nuggets, table.ended_at = [], None
    for held in table.holders.select_related("entry"):
        if _misses(held.entry, game.pk):
            _take_back_no_show(held.entry)


def _take_back_no_show(entry: Entry) -> None:
    entry.no_shows = max(entry.no_shows - 1, 0)
    if entry.no_shows < NO_SHOWS_TO_DROP:  # only no-shows drop a member (erasure aside,
        entry.dropped_at = None             # whose entry has no address to miss with)
    entry.save(update_fields=["no_shows", "dropped_at"])


def _moved_on(table: EventTable) -> bool:
    """Whether the event went on past the table: one of its players sits at a later
    round's table, or the event is over (its results told)."""
    event_round = table.event_round
    if event_round.tournament.status != Tournament.Status.RUNNING:
        return True
    return EventSeat.objects.filter(
        entry__in=table.holders.values("entry"),
        table__event_round__tournament=event_round.tournament_id,
        table__event_round__number__gt=event_round.number).exists()


@contextmanager
def _or_left_to_the_sweep(game_id: int) -> Iterator[None]:
    """Its own savepoint: what fails inside is rolled back and logged, and the game's end
    goes on (see the module)."""
    try:
        with transaction.atomic():
            yield
    except Exception:
        log.exception("game %s: its tournament table is left to the sweep", game_id)


def on_game_ended(ended: GameEnded) -> None:
    """A table's game ended: the table ends with it (a game no event holds: nothing)."""
    with _or_left_to_the_sweep(ended.game.pk):
        table = EventTable.objects.filter(game=ended.game, ended_at__isnull=True).first()
        if table is not None:
            close_table(table, ended.game, ended.now)


def on_moves_undone(undone: MovesUndone) -> None:
    """A moderator's undo took back the game's end: its table opens again, out of the
    standings until the game ends again; unless the event has moved on (`_moved_on`): a
    later round was paired with the table's result, and the table stays as it ended."""
    if not undone.undoes_game_end:
        return
    # No savepoint of its own: no sweep would reopen the table, so an undo whose table
    # cannot follow it is refused whole (it rolls back with the undo).
    table = (EventTable.objects.filter(game=undone.game, ended_at__isnull=False)
             .select_related("event_round__tournament").first())
    if table is None:
        return
    if _moved_on(table):
        log.warning("game %s: its end undone, but its tournament has moved on past "
                    "table %s: the table stays ended as it was", undone.game.pk, table.pk)
        return
    reopen_table(table, undone.game)


def on_deadline_missed(missed: DeadlineMissed) -> None:
    """A missed deadline is recorded after the server's move for it; when that move ended
    the game, the table has ended already without it: the member's no-show counts now,
    if this is their only miss in the game (an earlier one counted when it ended)."""
    with _or_left_to_the_sweep(missed.game_id):
        table = (EventTable.objects.filter(game_id=missed.game_id, ended_at__isnull=False)
                 .first())
        if table is None:
            return
        for held in table.holders.select_related("entry"):
            if _misses(held.entry, missed.game_id) == [(missed.seat_id, missed.version)]:
                _count_no_show(held.entry, timezone.now())
