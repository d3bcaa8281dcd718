"""Starting a lesson for a visitor, and clearing the lessons nobody plays any more.

    start_lesson(language=, time_zone=, client=) -> the learner's seat path
    sweep_idle_lessons(now) -> how many lesson games were deleted

A lesson is an ordinary started game of three seats (the learner, who needs no address,
and two bots), dealt from the lesson's seed and following its script
(games.learn.core.first_round), marked by a Lesson row. Each client address may start a
few an hour (games.kit.limits, `lesson_client`): a lesson cannot fill the database. Its
turns are as long as the server allows, so no deadline passes before the sweep deletes
the game: a lesson nobody moved in for LESSON_KEPT goes, with everything of it (its one
link then opens nothing; no email ever went anywhere: the learner has no address).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _

from games.game.core.game import MAX_HOURS_PER_MOVE, BotLevel, Game, TimeoutPolicy
from games.kit import limits
from games.learn.core import first_round as lesson
from games.learn.core.lesson_rows import Lesson
from games.seats.core.links import seat_path, token_of_seat
from games.setup.services.game_setup import PlayerSpec, bot_player, create_game

# A lesson nobody moved in for this long is deleted (under the turn's length, so no
# deadline of a lesson ever passes: no notice, no moderator's alert).
LESSON_KEPT = timedelta(days=10)
SWEEP_BATCH = 200


def start_lesson(*, language: str, time_zone: str, client: str) -> str:
    """A new lesson for the client at `client` (its address: the rate limit's key), in
    `language`; the path of the learner's seat link. Raises limits.Limited past the
    limit (nothing made) and SetupError for a language or time zone we do not know."""
    limits.hit("lesson_client", client)
    with translation.override(language):
        name, learner = _("Lesson: your first round"), _("Learner")
    players = [PlayerSpec(name=learner, time_zone=time_zone, language=language),
               *(bot_player(bot) for bot in lesson.BOTS)]
    with transaction.atomic():
        made = create_game(
            name=name, players=players, ruleset=lesson.RULESET, seed=lesson.SEED,
            start=True, invite=False, accepted=True, hours_per_move=MAX_HOURS_PER_MOVE,
            timeout_policy=TimeoutPolicy.AUTO_PASS, bot_level=BotLevel.NORMAL,
            script=lesson.MOVES)
        Lesson.objects.create(game=made.game, name=lesson.NAME)
    learner_seat = made.seats[lesson.LEARNER][0]
    return seat_path(token_of_seat(learner_seat))


def sweep_idle_lessons(now: datetime) -> int:
    """The beat: delete the lesson games nobody moved in for LESSON_KEPT (a batch at a
    time); how many."""
    idle = list(Game.objects.filter(lesson__isnull=False, updated_at__lt=now - LESSON_KEPT)
                .values_list("pk", flat=True)[:SWEEP_BATCH])
    if idle:
        Game.objects.filter(pk__in=idle).delete()
    return len(idle)
