"""/me/ for anyone: the address's links if it plays here, else a link confirming it that
opens a new, empty home (to find a table with strangers: games.tables).

The page answers the same, at the same speed, whatever the address: the request only
counts the asking client (games.kit.limits) and hands the address to a task; the task
looks it up and plans the email after the answer has gone. An address that plays gets
its links (games.home.services.lost_links, limited per mailbox as before); one that does not gets
"confirm your new home" at most once a day per mailbox (and never once it asked to be
forgotten). The confirmation link is made like every private link (HMAC under the link
key, only its hash kept) and works for a week; confirming makes the home link row (the
home is empty: no game holds the address) and forgets the request.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from games.home.services import lost_links
from games.kit import limits
from games.kit.after_commit import queue_on_commit
from games.kit.link_tokens import new_purpose_link, token_digest
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.mail.services.notification_rows import Spec
from games.people.core.home_links import home_address, home_path, home_row, home_token
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox, mailbox_hash
from games.people.core.new_homes import NewHome
from games.people.core.player_data import is_forgotten

DAY = timedelta(days=1)
KEPT = timedelta(days=7)  # an unconfirmed request (and its link) lasts a week

NEW_HOME = "new-home"  # the purpose of the confirmation links (games.seats.core.links)


def ask_for_home(address: str, client: str, language: str) -> None:
    """The /me/ form's POST: count the client, hand the rest to a task. Raises
    limits.Limited (the client asked too often)."""
    limits.hit("links_client", client)
    queue_on_commit(plan_home_email, address.strip(), language,
                    fallback=lambda: home_email(address.strip(), language))


@shared_task(name="games.tasks.plan_home_email")
def plan_home_email(address: str, language: str) -> str:
    return home_email(address, language)


def home_email(address: str, language: str) -> str:
    """The links email if the address plays here, else "confirm your new home" (once a
    day per mailbox); what was planned ("links", "new_home" or "none")."""
    try:
        limits.hit("links_address", mailbox(address))
    except limits.Limited:
        return "none"  # this mailbox asked often enough today
    if lost_links.send_links_now(address):
        return "links"
    if is_forgotten(address):
        return "none"
    now = timezone.now()
    counted = mailbox_hash(address)
    with transaction.atomic():
        NewHome.objects.filter(created_at__lt=now - KEPT).delete()
        if NewHome.objects.filter(counted=counted, created_at__gte=now - DAY).exists():
            return "none"
        link = new_purpose_link(NEW_HOME)
        row = NewHome.objects.create(address=home_address(address), counted=counted,
                                     salt=link.salt, token_hash=link.digest, created_at=now)
        plan.queue(new_home_spec(row, now.date().isoformat(), language))
    return "new_home"


def pending_home(token: str) -> NewHome | None:
    """The unconfirmed request whose link carries `token` (None: unknown, confirmed or
    older than a week)."""
    digest = token_digest(token)
    if digest is None:
        return None
    return NewHome.objects.filter(token_hash=digest,
                                  created_at__gte=timezone.now() - KEPT).first()


def confirm_home(row: NewHome) -> str:
    """The address is confirmed: its home exists from now on (empty if it plays
    nowhere); the path of its home link."""
    with transaction.atomic():
        home_row(row.address)
        NewHome.objects.filter(of_mailbox(row.address)).delete()
    return home_path(home_token(row.address))


def new_home_spec(row: NewHome, day: str, language: str) -> list[Spec]:
    """One confirmation email per mailbox and day (`day` makes the key)."""
    return [Spec(key=f"new_home:{row.counted[:16]}:{day}", kind=Notification.Kind.NEW_HOME,
                 to_email=row.address, params={"new_home": row.pk, "language": language})]
