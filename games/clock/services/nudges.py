"""A nudge: once a seat's turn has taken more than half of its time, any other player of
the table may nudge it, once per turn. The player gets one short email naming who is
waiting (games.mail.doors.letters.nudge); the table sees "X was nudged by Y".

    nudge(seat_id) -> Game     (the nudging seat's id; ServiceError when refused)
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.core import rules as clock_rules
from games.clock.core.clock_events import TurnNudged
from games.clock.core.refusals import ClockRefusal
from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice
from games.kit.events import publish
from games.seats.core.seat import Seat


def nudge(seat_id: int) -> Game:
    now = timezone.now()
    with transaction.atomic():
        game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
        game = Game.objects.select_for_update().get(pk=game_id)
        by = Seat.objects.get(pk=seat_id)
        if game.status != Game.Status.ACTIVE or game.actor is None or game.deadline_at is None:
            raise ClockRefusal("nothing_to_nudge", _("Nobody is on the clock now."))
        if by.number == game.actor:
            raise ClockRefusal("own_turn", _("It is your own turn: play it."))
        if game.nudged_version == game.version:
            raise ClockRefusal("already_nudged", _("This turn has been nudged already."))
        actor = Seat.objects.get(game=game, number=game.actor)
        if not clock_rules.is_late(game, actor, now):
            raise ClockRefusal("too_early", _(
                "A player can be nudged once more than half of their time is gone."))
        game.nudged_version = game.version
        game.save(update_fields=["nudged_version", "updated_at"])
        GameNotice.objects.create(game=game, version=game.version, kind=GameNotice.Kind.NUDGE,
                                  params={"seat": actor.number, "by": by.number,
                                          "log_at": game.log_length})
        publish(TurnNudged(game, actor, by))  # the email (games.mail.services.clock_mail)
    return game
