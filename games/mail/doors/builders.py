"""Which letter each kind of email gets: the one list of email builders.

A Notification's words are written at send time (`letter_for`), in its recipient's
language and time zone (the moderators': the site's); a kind with no builder here is
skipped, never sent.
"""

from __future__ import annotations

from collections.abc import Callable
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone, translation

from games.mail.core.message import Letter
from games.mail.core.notifications import Notification
from games.mail.doors import (
    answer_letter,
    dispute_letters,
    handover_letters,
    letters,
    link_letters,
    pause_letters,
    table_letters,
)
from games.mail.doors.letters import Skip
from games.seatview.core.dates import moderators_zone

Builder = Callable[[Notification], Letter]
Kind = Notification.Kind

BUILDERS: dict[str, Builder] = {
    Kind.INVITATION: letters.invitation,
    Kind.TURN: letters.turn,
    Kind.REMINDER: letters.reminder,
    Kind.MISSED: letters.missed,
    Kind.ROUND_END: letters.round_end,
    Kind.GAME_END: letters.game_end,
    Kind.DIGEST: letters.digest,
    Kind.MODERATOR_ALERT: letters.moderator_alert,
    Kind.LINKS: link_letters.links,
    Kind.CONFIRM_SETUP: link_letters.confirm_setup,
    Kind.DISPUTE_FILED: dispute_letters.filed_letter,
    Kind.DISPUTE_RESOLVED: dispute_letters.resolved_letter,
    Kind.REPORT_DIGEST: dispute_letters.report_digest_letter,
    Kind.ANSWER: answer_letter.answer,
    Kind.STANDBY: handover_letters.standby,
    Kind.SEAT_OFFER: handover_letters.seat_offer,
    Kind.NEW_HOME: table_letters.new_home,
    Kind.TABLE_CLOSED: table_letters.table_closed,
    Kind.NUDGE: letters.nudge,
    Kind.NAME_RESET: table_letters.name_reset,
    Kind.PAUSE: pause_letters.pause_proposal,
}


# The emails to the moderators: their times in the moderators' zone (the site's).
TO_MODERATORS = frozenset({Kind.DISPUTE_FILED, Kind.REPORT_DIGEST, Kind.MODERATOR_ALERT})


def letter_for(notification: Notification) -> Letter:
    builder = BUILDERS.get(notification.kind)
    if builder is None:
        raise Skip(f"no email is written for kind {notification.kind!r}")
    seat = notification.seat
    # An email to no seat's player (a standby volunteer, an offer) names its language.
    language = str(notification.params.get("language") or "") or (
        seat.language if seat is not None else settings.LANGUAGE_CODE)
    zone = (seat.zone if seat is not None else moderators_zone()
            if notification.kind in TO_MODERATORS else ZoneInfo("UTC"))
    with translation.override(language), timezone.override(zone):
        return builder(notification)
