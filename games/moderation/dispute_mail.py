"""Dispute emails: to the moderators when one is filed, to the filer when it is resolved.

They go through the server's email pipeline (games.mail): each is a
Notification row with a unique key, written inside the transaction of the act and
sent once after it commits (claimed first, retried with backoff, recorded). The
words are rendered at send time by `games.mail.dispute_letters`.
"""

from __future__ import annotations

from games.mail import plan
from games.models import Dispute, EmailMode, Notification

Kind = Notification.Kind
MODERATORS_GROUP = "moderators"


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
