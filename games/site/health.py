"""Health and metrics for load balancers and monitors (docs/operations.md "Health,
metrics and error reports").

/healthz is healthy when the database answers, the beat's sweeps ran recently (their
SweepMark rows move every SWEEP_SECONDS), no email has waited (pending or retrying) longer
than HEALTH_MAIL_MAX_AGE_SECONDS, no move has waited for its emails to be planned (the
after-move outbox, games.mail.services.move_emails) longer than
HEALTH_FOLLOW_UP_MAX_AGE_SECONDS, no rated game has waited for its ended rounds to be rated
(the ratings' outbox, games.ratings.services.rating_outbox) longer than that, and no email
sits claimed (`sending`) for longer than a send can take
(games.mail.services.send.stuck_after): a dead worker's claim that no sweep has recovered,
which would otherwise wait unseen (it is neither pending nor retrying).
/metrics gives the same facts and counts in Prometheus' text format. Neither holds
anything about a particular game or player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count, Min, Q
from django.db.models.functions import Coalesce

from games.game.core.game import Game, Move
from games.kit.sweep_marks import SweepMark
from games.mail.core.notifications import Notification
from games.mail.services import move_emails
from games.mail.services.send import stuck_after
from games.push.core.push_rows import PushAlert
from games.push.services import receipts as push_receipts
from games.ratings.services import rating_outbox

Status = Notification.Status
WAITING = (Status.PENDING, Status.RETRYING)
SWEEPS = ("deadlines", "reminders")


@dataclass
class Report:
    checks: dict[str, dict[str, object]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(check["ok"] for check in self.checks.values())


def report(now: datetime) -> Report:
    """Each check's verdict and its figure; a database that does not answer fails them all."""
    result = Report()
    try:
        SweepMark.objects.exists()  # the database answers
        result.checks["database"] = {"ok": True}
        result.checks["sweeps"] = _sweeps(now)
        result.checks["mail"] = _mail(now)
        result.checks["follow_ups"] = _follow_ups(now)
        result.checks["ratings"] = _ratings(now)
    except DatabaseError:
        result.checks["database"] = {"ok": False}
    return result


def _sweeps(now: datetime) -> dict[str, object]:
    lag = sweep_lag(now)
    worst = max(lag.values(), default=None)
    if worst is None:  # never ran: only a problem once games need the clock
        return {"ok": not Game.objects.filter(status=Game.Status.ACTIVE).exists(),
                "age_seconds": None}
    return {"ok": worst <= settings.HEALTH_SWEEP_MAX_AGE_SECONDS, "age_seconds": round(worst)}


def sweep_lag(now: datetime) -> dict[str, float]:
    return {name: (now - reached).total_seconds() for name, reached in
            SweepMark.objects.filter(name__in=SWEEPS).values_list("name", "reached")}


def _follow_ups(now: datetime) -> dict[str, object]:
    count, age = move_emails.follow_ups_waiting(now)
    return {"ok": age is None or age <= settings.HEALTH_FOLLOW_UP_MAX_AGE_SECONDS,
            "waiting": count, "oldest_seconds": None if age is None else round(age)}


def _ratings(now: datetime) -> dict[str, object]:
    count, age = rating_outbox.ratings_waiting(now)
    return {"ok": age is None or age <= settings.HEALTH_FOLLOW_UP_MAX_AGE_SECONDS,
            "waiting": count, "oldest_seconds": None if age is None else round(age)}


def _mail(now: datetime) -> dict[str, object]:
    age = oldest_waiting_email(now)
    stuck = stuck_sending(now)
    return {"ok": (age is None or age <= settings.HEALTH_MAIL_MAX_AGE_SECONDS) and not stuck,
            "oldest_unsent_seconds": None if age is None else round(age),
            "stuck_sending": stuck}


def stuck_sending(now: datetime) -> int:
    """Emails claimed for sending longer ago than any live send can take."""
    return Notification.objects.filter(status=Status.SENDING,
                                       claimed_at__lte=now - stuck_after()).count()


def oldest_waiting_email(now: datetime) -> float | None:
    """How long the email waiting longest has been due: a turn email held for a player
    who looks at the turn on their page (games.mail.core.seen_turns) is due from its
    `not_before`, not from when it was written."""
    due = Notification.objects.filter(Q(not_before__isnull=True) | Q(not_before__lte=now),
                                      status__in=WAITING)
    oldest = due.aggregate(t=Min(Coalesce("not_before", "created_at")))["t"]
    return None if oldest is None else (now - oldest).total_seconds()


def metrics(now: datetime) -> str:
    """The Prometheus text exposition format, version 0.0.4."""
    lines: list[str] = []

    def family(name: str, kind: str, text: str, samples: list[tuple[str, float]]) -> None:
        lines.extend([f"# HELP {name} {text}", f"# TYPE {name} {kind}"])
        lines.extend(f"{name}{labels} {value:g}" for labels, value in samples)

    games = dict(Game.objects.values_list("status").annotate(n=Count("id")).values_list(
        "status", "n"))
    family("saboteur_games", "gauge", "Games by status.",
           [(f'{{status="{s}"}}', games.get(s, 0)) for s in Game.Status.values])
    family("saboteur_moves_total", "counter", "Moves ever made.",
           [("", Move.objects.count())])
    family("saboteur_moves_last_minute", "gauge", "Moves made in the last minute.",
           [("", Move.objects.filter(created_at__gte=now - timedelta(minutes=1)).count())])
    mails = dict(Notification.objects.values_list("status").annotate(n=Count("id"))
                 .values_list("status", "n"))
    family("saboteur_notifications", "gauge", "Emails by status.",
           [(f'{{status="{s}"}}', mails.get(s, 0)) for s in Status.values])
    family("saboteur_notification_oldest_unsent_seconds", "gauge",
           "Age of the oldest email pending or retrying (0 when none).",
           [("", oldest_waiting_email(now) or 0)])
    family("saboteur_notifications_stuck_sending", "gauge",
           "Emails claimed for sending longer than a send can take (a dead worker's).",
           [("", stuck_sending(now))])
    bounced = Notification.objects.filter(delivery__in=[
        Notification.Delivery.BOUNCED, Notification.Delivery.COMPLAINED]).count()
    family("saboteur_notification_bounces_total", "counter",
           "Emails the provider reported bounced or complained about.", [("", bounced)])
    waiting, oldest = move_emails.follow_ups_waiting(now)
    family("saboteur_follow_ups_waiting", "gauge",
           "Moves whose emails are still to be planned (the after-move outbox).",
           [("", waiting)])
    family("saboteur_follow_up_oldest_seconds", "gauge",
           "Age of the oldest move whose emails are still to be planned (0 when none).",
           [("", oldest or 0)])
    rating, rating_oldest = rating_outbox.ratings_waiting(now)
    family("saboteur_ratings_waiting", "gauge",
           "Rated games whose ended rounds are still to be rated (the ratings' outbox).",
           [("", rating)])
    family("saboteur_ratings_oldest_seconds", "gauge",
           "Age of the oldest rated game waiting to be rated (0 when none).",
           [("", rating_oldest or 0)])
    family("saboteur_sweep_lag_seconds", "gauge", "Seconds since each sweep last ran.",
           [(f'{{sweep="{name}"}}', lag) for name, lag in sorted(sweep_lag(now).items())])
    pushes = dict(PushAlert.objects.values_list("status").annotate(n=Count("id"))
                  .values_list("status", "n"))
    family("saboteur_push_alerts", "gauge", "Push alerts by status.",
           [(f'{{status="{s}"}}', pushes.get(s, 0)) for s in PushAlert.Status.values])
    receipts = [(f'{{kind="{r.kind}",browser="{r.browser}",receipt="{what}"}}', float(count))
                for r in push_receipts.rates()
                for what, count in (("sent", r.sent), ("shown", r.shown),
                                    ("clicked", r.clicked))]
    family("saboteur_push_receipts", "gauge",
           "Push alerts sent, and of them shown and clicked (the service worker's receipts), "
           "per kind and browser family.", receipts)
    return "\n".join(lines) + "\n"
