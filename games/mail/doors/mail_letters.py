"""The mail's own letters, by kind: a game's emails, links, disputes, answers and pause
proposals (registered when Django starts, games.wiring; the other features' letters live
in their doors: games.handover.doors.handover_letters, games.tables.doors.table_letters,
games.home.doors.home_letters)."""

from __future__ import annotations

from games.mail.core.letter_registry import Builder
from games.mail.core.notifications import Notification
from games.mail.doors import answer_letter, dispute_letters, letters, link_letters, pause_letters

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
    Kind.DISPUTE_FILED: dispute_letters.filed_letter,
    Kind.DISPUTE_RESOLVED: dispute_letters.resolved_letter,
    Kind.REPORT_DIGEST: dispute_letters.report_digest_letter,
    Kind.ANSWER: answer_letter.answer,
    Kind.NUDGE: letters.nudge,
    Kind.PAUSE: pause_letters.pause_proposal,
}
