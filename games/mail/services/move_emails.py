"""The follow-up of committed moves: plan the emails a move calls for (turn, round end,
game end), from the after-move outbox (games.game.core.follow_up_rows.FollowUp).

A move writes its FollowUp row in its own transaction and publishes nothing: the request
stays as short as the database allows, and a move whose process dies right after the
commit is followed up all the same. The beat runs `follow_up_moves` every
FOLLOW_UP_SECONDS (so a turn email leaves a second or two after the move); nothing else
plans them (the tests run `follow_up_due` as the beat would, tests/support.py work_off).

Rows are claimed with SKIP LOCKED, so several workers share the work and never plan the
same row twice at once; planning is idempotent anyway (each email's unique key), so a
worker that dies after planning and before the delete only causes a second, empty
planning. A game with several rows is planned once, at its latest version: an older turn
is over (its turn email would be stale) and the results are read from the game as it is.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Min

from games.game.core.follow_up_rows import FollowUp
from games.mail.services import plan

log = logging.getLogger("games")

BATCH = 100


def follow_up_due(limit: int = 2000) -> int:
    """Plan the follow-up of every waiting move, oldest first, at most `limit` rows;
    how many rows were done."""
    done = 0
    while done < limit:
        with transaction.atomic():
            claimed = list(FollowUp.objects.select_for_update(skip_locked=True)
                           .order_by("id").values_list("id", "game_id", "version")[:BATCH])
            finished = _plan_games(claimed)
        done += finished
        if finished < BATCH:  # the last batch, or one whose games all failed: next time
            break
    return done


def _plan_games(claimed: list[tuple[int, int, int]]) -> int:
    """Plan each claimed game once, at its latest claimed version, and delete the rows of
    the games planned; how many rows that was. A game whose planning fails keeps its
    rows (retried next time; /healthz reports them once they are old)."""
    if not claimed:  # the beat's usual call between moves: nothing more to read
        return 0
    rows: dict[int, list[int]] = {}
    latest: dict[int, int] = {}
    for row_id, game_id, version in claimed:
        rows.setdefault(game_id, []).append(row_id)
        latest[game_id] = max(version, latest.get(game_id, version))
    tables = plan.games_and_seats(latest)  # the whole batch's, in two queries
    done: list[int] = []
    for game_id, version in latest.items():
        try:
            with transaction.atomic():
                game, seats = tables[game_id]  # a game gone since: logged, its rows kept
                plan.queue(plan.after_move_of(game, seats, version))
        except Exception:
            log.exception("game %s: could not plan the emails of version %s", game_id, version)
            continue
        done += rows[game_id]
    FollowUp.objects.filter(pk__in=done).delete()
    return len(done)



def follow_ups_waiting(now: datetime) -> tuple[int, float | None]:
    """(follow-ups waiting, seconds the oldest has waited) for /healthz and /metrics."""
    found = FollowUp.objects.aggregate(n=Count("id"), oldest=Min("created_at"))
    oldest = found["oldest"]
    return int(found["n"]), None if oldest is None else (now - oldest).total_seconds()
