"""A host's own events: asked for on the web page (/tournaments/new/) and created only once
the host confirms their address through the emailed link, or created from the host's home
(POST /api/me/<token>/tournaments: owning the home link confirms the address). Nobody can
create an event under another person's address (docs/playing.md "Hosting a tournament").

- The page's request is checked whole (read_settings) before anything is kept or sent;
  then counted per client address ("event_client") and per host's mailbox ("event_mailbox":
  confirmation emails a day, games.kit.limits). A stranger using up a mailbox's emails
  locks its owner out of nothing: the home's API counts per home link ("event_home").
- The request (EventRequest) keeps the settings and the address for a day, the link's
  token only as its hash; a request not confirmed by then opens nothing and is deleted by
  the next request made.
- Confirming reads the settings again (a sign-up window that closed meanwhile is refused)
  and creates the event once: a second confirmation shows the same event.
- An address that asked to be forgotten gets no email (the page answers the same).
- The host may cancel their event while it is open for sign-up (`cancel_hosted`, from
  the home); once it has started only the moderators can (the admin's action,
  games.tournaments.services.event_end.cancel_event). The host may change its settings
  meanwhile too (games.tournaments.services.event_changes).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.kit import limits
from games.kit.link_tokens import new_purpose_link, token_digest
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.mail.services.notification_rows import Spec
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_hash
from games.people.core.player_data import is_forgotten
from games.tournaments.core.event_rows import EventRequest, Tournament
from games.tournaments.core.event_settings import EventSettings, TournamentError, read_settings
from games.tournaments.services.entries import create_event
from games.tournaments.services.event_end import BY_HOST, end_cancelled

PURPOSE = "confirm-event"  # the purpose of the confirmation links (games.kit.link_tokens)
KEPT = timedelta(hours=24)  # an unconfirmed request (and its link) lasts a day


def with_times(data: Mapping[str, Any]) -> dict[str, Any]:
    """`data` with `signup_closes` read from ISO 8601 text (a time without a zone is UTC);
    text that is no time is left for read_settings to refuse, naming the field."""
    found = dict(data)
    closes = found.get("signup_closes")
    if isinstance(closes, str):
        try:
            parsed = parse_datetime(closes.strip().replace("Z", "+00:00"))
        except ValueError:
            parsed = None
        if parsed is not None and timezone.is_naive(parsed):
            parsed = parsed.replace(tzinfo=UTC)
        found["signup_closes"] = parsed if parsed is not None else closes
    return found


def checked(data: Mapping[str, Any]) -> EventSettings:
    """The settings given as JSON-like values (the form's, the API's); TournamentError (400)
    naming the field at fault."""
    return read_settings(with_times(data))


def request_event(data: Mapping[str, Any], *, host_email: str, client: str,
                  language: str) -> EventRequest:
    """An event waiting for its host to confirm their address by the emailed link; nothing
    is created yet. Raises TournamentError (bad settings, nothing kept) or limits.Limited."""
    checked(data)
    host_email = host_email.strip()
    limits.hit("event_client", client)
    limits.hit("event_mailbox", mailbox_hash(host_email))
    now = timezone.now()
    link = new_purpose_link(PURPOSE)
    with transaction.atomic():
        EventRequest.objects.filter(tournament__isnull=True, created_at__lt=now - KEPT).delete()
        row = EventRequest.objects.create(
            settings=dict(data), address=host_email, salt=link.salt, token_hash=link.digest,
            language=language, created_at=now)
        if not is_forgotten(host_email):
            plan.queue([Spec(key=f"confirm_event:{row.pk}",
                             kind=Notification.Kind.CONFIRM_EVENT, to_email=host_email,
                             params={"event_request": row.pk, "language": language})])
    return row


def pending_request(token: str) -> EventRequest | None:
    """The request whose confirmation link carries `token`: None for an unknown token and
    for a request left unconfirmed past its day."""
    digest = token_digest(token)
    if digest is None:
        return None
    row = EventRequest.objects.filter(token_hash=digest).first()
    if row is None:
        return None
    if row.tournament_id is None and row.created_at <= timezone.now() - KEPT:
        return None
    return row


def confirm_request(request_id: int) -> Tournament:
    """The host confirmed: the event is created (once; a second confirmation answers the
    same event). Raises TournamentError when the settings no longer hold (the sign-up
    window has closed meanwhile): nothing is created."""
    with transaction.atomic():
        row = EventRequest.objects.select_for_update().get(pk=request_id)
        if row.tournament is not None:
            return row.tournament
        event = create_event(checked(row.settings), host_email=row.address)
        row.tournament = event
        row.save(update_fields=["tournament"])
        return event


def create_from_home(address: str, data: Mapping[str, Any]) -> Tournament:
    """An event hosted by the home's address (the caller owns the home link). Raises
    TournamentError (400, naming the field; nothing created)."""
    return create_event(checked(data), host_email=address)


def hosted_by(address: str) -> list[Tournament]:
    """The events the address hosts, the latest sign-up first."""
    return list(Tournament.objects.filter(of_mailbox(address, "host_mailbox"))
                .order_by("-signup_closes_at", "-pk"))


def _no_tournament() -> TournamentError:
    return TournamentError(404, "no_tournament", _("There is no such tournament."))


def hosted_open(address: str, event_id: object, *, lock: bool, started: str) -> Tournament:
    """The event the address hosts, still open for sign-up. TournamentError: 404 for an
    event the address does not host, the same as for no such event (nothing is learned
    of another's); 409 (`started`: why) once sign-up has closed."""
    if isinstance(event_id, bool) or not isinstance(event_id, int):
        raise _no_tournament()
    events = Tournament.objects.select_for_update() if lock else Tournament.objects
    event = events.filter(of_mailbox(address, "host_mailbox"), pk=event_id).first()
    if event is None:
        raise _no_tournament()
    if event.status != Tournament.Status.OPEN:
        raise TournamentError(409, "tournament_started", started)
    return event


def _cancel_too_late() -> str:
    return _("This tournament is no longer open for sign-up: once it has started, only the "
             "moderators can cancel it.")


def to_cancel(address: str, event_id: object) -> Tournament:
    """The event the host asks to cancel, for the question "are you sure?" (nothing
    changes). TournamentError as `cancel_hosted` refuses."""
    return hosted_open(address, event_id, lock=False, started=_cancel_too_late())


def cancel_hosted(address: str, event_id: object) -> Tournament:
    """The host cancels their event while it is open for sign-up: it is marked cancelled
    (ended now) and its members and the host are emailed that its host cancelled it.
    TournamentError: 404 for an event the address does not host, the same as for no
    such event (nothing is learned of another's); 409 once sign-up has closed (running,
    ended or cancelled already: a second cancel changes nothing and sends nothing)."""
    with transaction.atomic():
        # Locked: the sweep closing sign-up and the host cancelling cannot both win.
        event = hosted_open(address, event_id, lock=True, started=_cancel_too_late())
        end_cancelled(event, BY_HOST)
        return event
