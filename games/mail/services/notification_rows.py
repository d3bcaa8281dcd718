"""Notification rows: one email each, written before anything is sent, with a key that
names it for good (games.mail.services.plan says which emails a change causes;
games.mail.services.send sends a row once). Who wants which email (`wants`) and the moderators'
alerts live here too, so that sending can plan an alert without planning anything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User

from games.game.core.game import EmailMode, Game
from games.kit.unique_writes import unless_taken
from games.mail.core.notifications import Notification
from games.people.core.mailboxes import mailbox_key, mailbox_key_hash
from games.people.core.player_data import forgotten_among
from games.seats.core.seat import Seat

Kind = Notification.Kind

# Which email settings get which kind. Digest players get their digest, the last
# reminder before a deadline (a daily digest can come too late for a short turn),
# missed deadlines and the end of the game; "links only" gets nothing at all.
WANTED_BY: dict[str, set[str]] = {
    Kind.INVITATION: {EmailMode.EACH_TURN, EmailMode.DAILY_DIGEST},
    Kind.TURN: {EmailMode.EACH_TURN},
    Kind.REMINDER: {EmailMode.EACH_TURN, EmailMode.DAILY_DIGEST},
    Kind.MISSED: {EmailMode.EACH_TURN, EmailMode.DAILY_DIGEST},
    Kind.ROUND_END: {EmailMode.EACH_TURN},
    Kind.GAME_END: {EmailMode.EACH_TURN, EmailMode.DAILY_DIGEST},
    Kind.DIGEST: {EmailMode.DAILY_DIGEST},
    Kind.NUDGE: {EmailMode.EACH_TURN, EmailMode.DAILY_DIGEST},
    # A proposal lapses in two days, and a digest lists only the games waiting for the
    # player's move: digest players get it as an email of its own.
    Kind.PAUSE: {EmailMode.EACH_TURN, EmailMode.DAILY_DIGEST},
    # `@name` in table talk: an email for each-turn players; the digest counts the unread
    # talk of digest players (games.talk.services.reading).
    Kind.MENTION: {EmailMode.EACH_TURN},
}


@dataclass(frozen=True)
class Spec:
    key: str
    kind: str
    to_email: str
    game_id: int | None = None
    seat_id: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    not_before: datetime | None = None  # the row waits until then (games.mail.core.seen_turns)


# What a seat a bot plays (or one looking for a new player) no longer needs: its person
# (if any) is not asked to move.
NOT_FOR_BOT_SEATS = {Kind.INVITATION, Kind.TURN, Kind.REMINDER, Kind.MISSED, Kind.DIGEST,
                     Kind.NUDGE, Kind.PAUSE, Kind.MENTION}


def wants(seat: Seat, kind: str) -> bool:
    """Whether the seat's email setting lets this kind of email through."""
    if not seat.email or ((seat.is_bot or seat.open_since is not None)
                          and kind in NOT_FOR_BOT_SEATS):
        return False  # a bot plays it, or it waits for a new player: nobody to ask
    allowed = WANTED_BY.get(kind)
    return allowed is None or seat.email_mode in allowed


def address_hash(address: str) -> str:
    """A short hash naming the person in notification keys (one digest a day each)."""
    return mailbox_key_hash(address)[:16]


def create(specs: Sequence[Spec]) -> list[int]:
    """Write the rows whose keys are new; the ids of those (and only those) to send."""
    return [note.pk for note in written(specs)]


def written(specs: Sequence[Spec]) -> list[Notification]:
    """`create`, answering the rows written (in the order of `specs`)."""
    # An address that asked to be forgotten gets no email again: no row holds it.
    forgotten = forgotten_among(spec.to_email for spec in specs)
    specs = [spec for spec in specs if spec.to_email not in forgotten]
    if not specs:
        return []
    # Keys written before are left out in one query; for one row, its insert is the test.
    existing = set(Notification.objects.filter(key__in=[s.key for s in specs]).order_by()
                   .values_list("key", flat=True)) if len(specs) > 1 else set()
    new = []
    for spec in specs:
        if spec.key in existing:
            continue
        note = unless_taken(partial(_write, spec))
        if note is not None:
            new.append(note)
        elif not Notification.objects.filter(key=spec.key).exists():
            _write(spec)  # not its key that was taken: the database's own error, raised
    return new


def _write(spec: Spec) -> Notification:
    return Notification.objects.create(
        key=spec.key, kind=spec.kind, to_email=spec.to_email, game_id=spec.game_id,
        seat_id=spec.seat_id, params=spec.params, not_before=spec.not_before)


def moderator_addresses() -> list[str]:
    """Active users of the "moderators" group with an address, and MODERATOR_EMAILS."""
    users = User.objects.filter(is_active=True, groups__name="moderators").exclude(email="")
    found = {mailbox_key(e): e.strip() for e in users.values_list("email", flat=True)}
    for address in settings.MODERATOR_EMAILS:
        found.setdefault(mailbox_key(address), address)
    return sorted(found.values())


def moderator_alert(topic: str, game: Game | None, seat: Seat | None, tag: str,
                    **params: Any) -> list[Spec]:
    """One alert per moderator address; only facts every moderator may see."""
    about = f"seat={seat.pk}" if seat is not None else "game"
    details = {"topic": topic, **params}
    if seat is not None:
        details.update(seat=seat.number, player=seat.player_name)
    return [Spec(key=f"mod_alert:{topic}:{about}:{tag}:to={address_hash(address)}",
                 kind=Kind.MODERATOR_ALERT, to_email=address,
                 game_id=game.pk if game else None, params=details)
            for address in moderator_addresses()]


