"""Dispute emails: to the moderators when one is filed, to the filer when it is resolved,
and the hourly digest of a game's reports of table talk.

They go through the server's email pipeline (games.mail): each is a
Notification row with a unique key, written inside the transaction of the act and
sent once after it commits (claimed first, retried with backoff, recorded). The
words are rendered at send time by `games.moderation.doors.dispute_letters`.

Reports of table talk reach the moderators at most once per game and REPORT_MAIL_EVERY:
the first at once (`report_filed`), the ones filed within the hour after an email wait
(`Dispute.mailed_at` NULL) and the beat's `report_digests` gathers them into one digest
per moderator once the hour is over. A later report of a line already reported joins its
dispute and sends nothing (games.moderation.services.talk_reports).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.game.core.game import EmailMode, Game
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.moderation.core.moderation_rows import Dispute

Kind = Notification.Kind
MODERATORS_GROUP = "moderators"
REPORT_MAIL_EVERY = timedelta(hours=1)


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


def last_report_mail(game_id: int) -> datetime | None:
    """When the moderators were last emailed about the game's reports of table talk."""
    mailed = (Dispute.objects.filter(game_id=game_id, reports__isnull=False)
              .aggregate(last=Max("mailed_at")))
    last: datetime | None = mailed["last"]
    return last


def report_filed(dispute: Dispute, now: datetime) -> list[int]:
    """A new report's dispute, inside the transaction that filed it with the game locked:
    emailed now, or, within REPORT_MAIL_EVERY of the game's last email about reports, left
    for the digest."""
    last = last_report_mail(dispute.game_id)
    if last is not None and now < last + REPORT_MAIL_EVERY:
        return []
    Dispute.objects.filter(pk=dispute.pk).update(mailed_at=now)
    return dispute_filed(dispute)


def report_digests(now: datetime | None = None) -> int:
    """The beat's sweep: for each game with reports waiting whose hour is over, one digest
    per moderator of the reports still open (those a moderator settled meanwhile are only
    marked). A second run finds nothing waiting; the key, named after the first report it
    carries, makes the email once whatever runs. The emails planned."""
    now = now or timezone.now()
    games = set(Dispute.objects.filter(mailed_at__isnull=True).values_list("game_id", flat=True))
    planned = 0
    for game_id in sorted(games):
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=game_id)  # as a report locks it
            waiting = list(Dispute.objects.filter(game=game, mailed_at__isnull=True)
                           .order_by("id"))
            last = last_report_mail(game_id)
            if not waiting or (last is not None and now < last + REPORT_MAIL_EVERY):
                continue
            still_open = [d.pk for d in waiting if d.status == Dispute.Status.OPEN]
            if still_open:
                planned += len(plan.queue(_digest(game, still_open)))
            Dispute.objects.filter(pk__in=[d.pk for d in waiting]).update(mailed_at=now)
    return planned


def _digest(game: Game, disputes: list[int]) -> list[plan.Spec]:
    return [plan.Spec(key=f"report_digest:game={game.pk}:from={disputes[0]}"
                          f":to={plan.address_hash(to)}",
                      kind=Kind.REPORT_DIGEST, to_email=to, game_id=game.pk,
                      params={"disputes": disputes})
            for to in plan.moderator_addresses()]
