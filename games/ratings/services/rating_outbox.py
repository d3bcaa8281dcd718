"""The ratings' own outbox: a round ended in a rated game is rated by the ratings' sweep,
with its own claims and retries, never by another feature's worker.

`on_round_ended` (subscribed in games.wiring) writes a RatingDue row in the move's
transaction; `rate_due` (the beat's `rate_rounds`, every FOLLOW_UP_SECONDS) claims rows
with SKIP LOCKED, so several workers share them, rates each game's ended rounds
(games.ratings.services.rounds, idempotent: a RatedRound row is the claim of its round)
and deletes the row. A game whose rating fails keeps its row, counted in `attempts`, and
is tried again at the next sweep; /healthz reports rows that wait long.

The emails that tell a round's end (and the game's, which tells the last round) carry what
the round did to the ratings (games.ratings.doors.rating_letters): while its rating is due
they wait, unsent (`still_to_rate`), and once the sweep has rated the game they are sent
on (games.mail.services.held_emails.send_waiting).

An anonymous game's rounds wait for its end (`on_round_ended`), when its last round's move
makes the row and the sweep rates every round ended.

A moderator's undo (MovesUndone) needs nothing of the ratings, so they do not listen. A
round rated stays rated: its RatedRound row and its players' RatingChange rows stay (their
rating history), and the round, played again, is not rated a second time (RatedRound is
unique per game and round, and `rounds.after_moves` skips a round that has one). A round
whose end was undone while its RatingDue row waited is not rated as it was: the sweep rates
the round ends of the game's Move rows, and the undo deleted the move that ended it; the
sweep finds nothing to rate, deletes the row and sends on the emails that waited for it.
Played again, the round's end writes the row anew and is rated as played then.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Count, F, Min

from games.game.core.aliases import anonymity
from games.mail.core.notifications import Notification
from games.mail.services.held_emails import send_waiting
from games.moves.core.turn_events import RoundEnded
from games.ratings.core.rating_rows import RatedRound, RatingDue
from games.ratings.services import rounds

log = logging.getLogger("games")

BATCH = 100
# The emails that tell what a round did to the ratings.
ROUND_LETTERS = (Notification.Kind.ROUND_END, Notification.Kind.GAME_END)


def on_round_ended(event: RoundEnded) -> None:
    """A round of a rated game ended with this move: its rating is due. An anonymous
    game's rounds are rated together when it is over (games.game.core.aliases): a rating
    that moved after a round would tell who sat at the table while its names are hidden."""
    if event.game.rated and not anonymity(event.game).hides:
        RatingDue.objects.bulk_create([RatingDue(game_id=event.game.pk, created_at=event.now)],
                                      ignore_conflicts=True)  # one row per game waiting


def rate_due(limit: int = 1000) -> int:
    """Rate the games whose rounds wait, oldest first, at most `limit`; how many were rated."""
    done = 0
    with transaction.atomic():
        claimed = list(RatingDue.objects.select_for_update(skip_locked=True)
                       .order_by("id").values_list("id", "game_id")[:min(BATCH, limit)])
        for row_id, game_id in claimed:
            if _rate(game_id):
                RatingDue.objects.filter(pk=row_id).delete()
                send_waiting(game_id, ROUND_LETTERS)  # once this commits
                done += 1
            else:
                RatingDue.objects.filter(pk=row_id).update(attempts=F("attempts") + 1)
    return done


def _rate(game_id: int) -> bool:
    """Rate the game's ended rounds in a savepoint of their own; False when it failed."""
    try:
        with transaction.atomic():
            rounds.after_moves(game_id)
    except Exception:
        log.exception("game %s: could not rate its rounds (tried again at the next sweep)",
                      game_id)
        return False
    return True


def still_to_rate(game_id: int, round_number: int) -> bool:
    """Whether the game's round is waiting for the ratings' sweep (two indexed queries)."""
    return (RatingDue.objects.filter(game_id=game_id).exists()
            and not RatedRound.objects.filter(game_id=game_id, round=round_number).exists())


def ratings_waiting(now: datetime) -> tuple[int, float | None]:
    """(games waiting to be rated, seconds the oldest has waited) for /healthz."""
    found = RatingDue.objects.aggregate(n=Count("id"), oldest=Min("created_at"))
    oldest = found["oldest"]
    return int(found["n"]), None if oldest is None else (now - oldest).total_seconds()
