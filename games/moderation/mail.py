"""Dispute emails: to the moderators when one is filed, to the filer when it is resolved.

They go through the server's email pipeline (games.mail): each is a
Notification row with a unique key, written inside the transaction of the act and
sent once after it commits (claimed first, retried with backoff, recorded). The
words are rendered at send time by the builders registered here, from
templates/moderation/email/, in the recipient's language. They carry the dispute's
own text and the moderator's note, never a fact about the game's hidden state.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.mail import letters, plan
from games.mail.message import Letter
from games.models import Dispute, EmailMode, Notification
from games.models.links import link_for
from games.present.words import outcome_label

Kind = Notification.Kind
MODERATORS_GROUP = "moderators"


def admin_link(game_id: int) -> str:
    return settings.SITE_URL + reverse("admin:games_game_moderate", args=[game_id])


def dispute_filed(dispute: Dispute) -> list[int]:
    """Tell every moderator; call inside the transaction that filed the dispute."""
    specs = [plan.Spec(key=f"dispute_filed:dispute={dispute.pk}:to={plan.address_hash(to)}",
                       kind=Kind.DISPUTE_FILED, to_email=to, game_id=dispute.game_id,
                       params={"dispute": dispute.pk})
             for to in plan.moderator_addresses()]
    return plan.queue(specs)


def dispute_resolved(dispute: Dispute) -> list[int]:
    """Tell the filer the outcome and the note (unless they chose links only)."""
    seat = dispute.seat
    if seat.email_mode == EmailMode.LINKS_ONLY:
        return []
    return plan.queue([plan.Spec(
        key=f"dispute_done:dispute={dispute.pk}", kind=Kind.DISPUTE_RESOLVED,
        to_email=seat.email, game_id=dispute.game_id, seat_id=seat.pk,
        params={"dispute": dispute.pk})])


# ---- the words, at send time ------------------------------------------------------------


def _dispute(note: Notification) -> Dispute:
    try:
        return Dispute.objects.select_related("game", "seat").get(pk=note.params["dispute"])
    except (KeyError, Dispute.DoesNotExist):
        raise letters.Skip("the dispute is gone") from None


def _render(template: str, subject: str, context: dict[str, Any]) -> Letter:
    context = {**context, "subject": subject, "LANGUAGE_CODE": translation.get_language()}
    text = render_to_string(f"moderation/email/{template}.txt", context)
    html = render_to_string(f"moderation/email/{template}.html", context)
    return Letter(subject=subject, text=text.strip() + "\n", html=html)


def filed_letter(note: Notification) -> Letter:
    dispute = _dispute(note)
    subject = _("Dispute in \"%(game)s\" (seat %(seat)s)") % {
        "game": dispute.game.name, "seat": dispute.seat.number}
    return _render("dispute_filed", subject, {
        "dispute": dispute, "game": dispute.game, "seat": dispute.seat,
        "admin_link": admin_link(dispute.game_id)})


def resolved_letter(note: Notification) -> Letter:
    dispute = _dispute(note)
    subject = _("Your dispute in \"%(game)s\" was resolved") % {"game": dispute.game.name}
    return _render("dispute_resolved", subject, {
        "dispute": dispute, "game": dispute.game, "seat": dispute.seat,
        "outcome": outcome_label(dispute.outcome), "link": link_for(dispute.seat)})


letters.register(Kind.DISPUTE_FILED, filed_letter)
letters.register(Kind.DISPUTE_RESOLVED, resolved_letter)
