"""The words of the dispute emails (planned by `games.moderation.dispute_mail`), rendered
at send time from templates/moderation/email/ in the recipient's language. They carry the
dispute's own text and the moderator's note, never a fact about the game's hidden state.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.mail.letters import Skip
from games.mail.message import Letter
from games.models import Dispute, Notification
from games.models.links import link_for
from games.present.words import outcome_label


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
        "game": dispute.game.title, "seat": dispute.seat.number}
    return _render("dispute_filed", subject, {
        "dispute": dispute, "game": dispute.game, "seat": dispute.seat,
        "admin_link": admin_link(dispute.game_id)})


def resolved_letter(note: Notification) -> Letter:
    dispute = _dispute(note)
    subject = _("Your dispute in \"%(game)s\" was resolved") % {"game": dispute.game.title}
    return _render("dispute_resolved", subject, {
        "dispute": dispute, "game": dispute.game, "seat": dispute.seat,
        "outcome": outcome_label(dispute.outcome), "link": link_for(dispute.seat)})
