"""The words of the dispute emails (planned by `games.moderation.services.dispute_mail`), rendered
at send time from templates/moderation/email/ in the recipient's language. They carry the
dispute's own text and the moderator's note, never a fact about the game's hidden state;
a report of table talk carries the line in its context, and the digest of a game's
reports each reported line alone with how many players reported it: each line named
after whoever held its seat when it was written and timed in the moderators' zone
(games.moderation.services.reported_talk).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Count
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.game.core.game import Game
from games.mail.core.letter_registry import Builder
from games.mail.core.message import Letter
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Skip
from games.moderation.core.moderation_rows import Dispute
from games.moderation.services.reported_talk import context_lines
from games.seats.core.links import link_for
from games.seatview.core.words import outcome_label
from games.seatview.services.holders import holder_then, seat_changes, table_names


def admin_link(game_id: int) -> str:
    return settings.SITE_URL + reverse("admin:games_game_moderate", args=[game_id])


def _dispute(note: Notification) -> Dispute:
    try:
        return Dispute.objects.select_related("game", "seat").get(pk=note.params["dispute"])
    except (KeyError, Dispute.DoesNotExist):
        raise Skip("the dispute is gone") from None


def _render(template: str, subject: str, context: dict[str, Any]) -> Letter:
    context = {**context, "subject": subject, "LANGUAGE_CODE": translation.get_language()}
    text = render_to_string(f"moderation/email/{template}.txt", context)
    html = render_to_string(f"moderation/email/{template}.html", context)
    return Letter(subject=subject, text=text.strip() + "\n", html=html)


def filed_letter(note: Notification) -> Letter:
    dispute = _dispute(note)
    subject = _("Dispute in \"%(game)s\" (seat %(seat)s)") % {
        "game": dispute.game.title, "seat": dispute.seat.shown_number}
    return _render("dispute_filed", subject, {
        "dispute": dispute, "game": dispute.game, "seat": dispute.seat,
        "filed_by": holder_then(dispute.seat, dispute.created_at,
                                seat_changes(dispute.game), moderator=True),
        "talk": context_lines(dispute), "admin_link": admin_link(dispute.game_id)})


def resolved_letter(note: Notification) -> Letter:
    dispute = _dispute(note)
    subject = _("Your dispute in \"%(game)s\" was resolved") % {"game": dispute.game.title}
    return _render("dispute_resolved", subject, {
        "dispute": dispute, "game": dispute.game, "seat": dispute.seat,
        "outcome": outcome_label(dispute.outcome), "link": link_for(dispute.seat)})


def report_digest_letter(note: Notification) -> Letter:
    disputes = list(Dispute.objects.filter(pk__in=note.params.get("disputes") or [])
                    .annotate(report_count=Count("reports")).order_by("id"))
    game = Game.objects.filter(pk=note.game_id).first() if note.game_id else None
    if not disputes or game is None:
        raise Skip("the reports are gone")
    subject = ngettext("%(n)s more line of table talk reported in \"%(game)s\"",
                       "%(n)s more lines of table talk reported in \"%(game)s\"",
                       len(disputes)) % {"n": len(disputes), "game": game.title}
    names = table_names(game, moderator=True)
    return _render("report_digest", subject, {
        "game": game, "admin_link": admin_link(game.pk),
        "rows": [{"dispute": d, "reports": d.report_count,
                  "line": next((line for line in context_lines(d, names) if line.reported),
                               None)}
                 for d in disputes]})


Kind = Notification.Kind

LETTERS: dict[str, Builder] = {
    Kind.DISPUTE_FILED: filed_letter,
    Kind.DISPUTE_RESOLVED: resolved_letter,
    Kind.REPORT_DIGEST: report_digest_letter,
}
