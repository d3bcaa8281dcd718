"""The mail's own letters, by kind: a game's emails, links, answers and pause proposals
(registered when Django starts, games.wiring). The other features' letters live in their
doors: games.moderation.doors.dispute_letters, games.handover.doors.handover_letters,
games.tables.doors.table_letters, games.home.doors.home_letters."""

from __future__ import annotations

from games.mail.core.letter_registry import Builder
from games.mail.core.notifications import Notification
from games.mail.doors import answer_letter, letters, link_letters, pause_letters, talk_letters

Kind = Notification.Kind

LETTERS: dict[str, Builder] = {
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
    Kind.ANSWER: answer_letter.answer,
    Kind.NUDGE: letters.nudge,
    Kind.PAUSE: pause_letters.pause_proposal,
    Kind.MENTION: talk_letters.mention,
}
