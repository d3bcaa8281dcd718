"""How an event ends, told by email (docs/playing.md "Tournaments"): finished (every
player has played every round), cancelled when sign-up closed with fewer than two
players, cancelled by its host while open for sign-up
(games.tournaments.services.hosting.cancel_hosted), or cancelled by a moderator
(`cancel_event`, the admin's action, with the moderator's reason: the members' and the
host's email quotes it).

Each member (by their entry's address, a dropped member too) and the host get one
result email, once: its Notification key, `event_result:<event>:<entry>` (the host's
`event_result:<event>:host`), names it for good, so a sweep run again or a second cancel
writes nothing more. The rows are written in the caller's transaction and sent after
its commit (games.mail.services.plan.queue). An address that asked to be forgotten gets
none, nor does a forgotten entry (its address is gone). A host who also played gets the
member's email only. Each email is in its reader's language: the one their home chose,
else the event's. Its words are written at send time from the event's page
(games.tournaments.doors.event_letters): the standings, public names only.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.mail.services.notification_rows import Spec
from games.moderation.services.acts import MAX_REASON  # as for an act on a game
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.player_data import forgotten_among
from games.setup.core.player_defaults import seat_language_and_zone
from games.tournaments.core.event_rows import Tournament
from games.tournaments.core.event_settings import TournamentError

# Why the event ended: the letter's words (games.tournaments.doors.event_letters).
FINISHED = "finished"
TOO_FEW = "too_few"  # sign-up closed with fewer than two players
BY_MODERATORS = "moderators"
BY_HOST = "host"  # its host cancelled it while it was open for sign-up
OUTCOMES = frozenset({FINISHED, TOO_FEW, BY_MODERATORS, BY_HOST})
LIVE = (Tournament.Status.OPEN, Tournament.Status.RUNNING)


def _spec(event: Tournament, outcome: str, address: str, whose: str,
          entry_id: int | None, reason: str) -> Spec:
    language, _zone = seat_language_and_zone(address, game_language=event.language)
    params = {"tournament": event.pk, "entry": entry_id, "outcome": outcome,
              "language": language, **({"reason": reason} if reason else {})}
    return Spec(key=f"event_result:{event.pk}:{whose}", kind=Notification.Kind.EVENT_RESULT,
                to_email=address, params=params)


def queue_results(event: Tournament, outcome: str, reason: str = "") -> list[int]:
    """Queue the event's result emails (inside the caller's transaction); the ids of the
    rows written now (none the second time). `reason`: the moderators' words, quoted."""
    assert outcome in OUTCOMES, outcome
    entries = [entry for entry in event.entries.order_by("joined_at", "pk") if entry.address]
    host = event.host_email.strip()
    forgotten = forgotten_among([*(entry.address for entry in entries), host])
    specs = [_spec(event, outcome, entry.address, str(entry.pk), entry.pk, reason)
             for entry in entries if entry.address not in forgotten]
    if host and host not in forgotten and not event.entries.filter(of_mailbox(host)).exists():
        specs.append(_spec(event, outcome, host, "host", None, reason))
    return plan.queue(specs)


def end_cancelled(event: Tournament, outcome: str, reason: str = "") -> None:
    """Mark the event (locked by the caller, still live) cancelled, ended now, and queue
    its members' and host's emails saying why (`outcome`, and the moderators' `reason`)."""
    event.status, event.ended_at = Tournament.Status.CANCELLED, timezone.now()
    event.save(update_fields=["status", "ended_at"])
    queue_results(event, outcome, reason)


def moderators_reason(reason: str) -> str:
    """The moderator's reason, required (the players read it), or TournamentError (400)."""
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError(400, "reason_required",
                              _("Give a reason: it is kept with the action."), "reason")
    if len(reason) > MAX_REASON:
        raise TournamentError(400, "reason_too_long", _(
            "The reason is too long (at most %(max)s characters).") % {"max": MAX_REASON},
            "reason")
    return reason


def cancel_event(event_id: int, *, reason: str) -> Tournament | None:
    """A moderator cancels an event open for sign-up or running, for `reason` (required:
    TournamentError, nothing changed, without one): it is marked cancelled (ended now) and
    its members and host are emailed, the reason quoted. Its games already under way go
    on as ordinary games; its standings stay as they were (no later round is paired, no
    later table counted). None, and nothing changed, for an event already over."""
    reason = moderators_reason(reason)
    with transaction.atomic():
        event = Tournament.objects.select_for_update().filter(pk=event_id,
                                                              status__in=LIVE).first()
        if event is None:
            return None
        end_cancelled(event, BY_MODERATORS, reason)
        return event
