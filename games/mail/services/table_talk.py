"""The table talk an email carries: what was said at the table since the player's last
email that carried it (a turn email, a digest), so a player who plays by email follows
the conversation and answers with `say ...`.

"Since the last email" is read from the Notification rows: the newest sent turn email
of the seat, or digest that listed its game (`carried_talk` notes which), whose mailbox
is the seat's today (a newcomer's first email is not cut short by the emails of whoever
held the seat before); its claim time is when it read the talk, so a message written
while it was being sent comes again rather than never. At most TALK_LINES messages, the
latest, each with who wrote it (who held the seat then: games.seatview.services.holders), when (in
the reader's zone) and what.

A seat whose player turned it off (`Seat.talk_in_emails`, on the seat page or the home)
gets none; the reader's own lines (the seat's, since its present holder took it) and the
seats its player muted (games.talk.core.mutes) are left out. The
templates quote the block (plain text: "> " before each line; HTML: a
blockquote): a reply quotes it again, and games.inbound.core.parse never reads a quoted line
as a command, whatever a message says.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db.models import Max, QuerySet
from django.utils import timezone

from games.game.core.game import Game
from games.game.core.talk_and_notices import Message
from games.mail.core.notifications import Notification
from games.people.core.mailbox_keys import of_mailbox
from games.seats.core.history import PastHolder
from games.seats.core.seat import Seat
from games.seatview.core.dates import local_time
from games.seatview.services.holders import TableNames, table_names
from games.talk.core.mutes import muted_seats

TALK_LINES = 30
# The digest's parameter naming the games whose talk it carried.
CARRIED = "talk_of_games"
# How far back a digest to the address is looked for (older ones cannot be "the last").
DIGESTS_LOOKED_AT = timedelta(days=14)
Kind = Notification.Kind


@dataclass(frozen=True)
class TalkLine:
    who: str
    when: str  # in the reader's time zone, the zone named
    text: str

    @property
    def quoted(self) -> list[str]:
        """The message's lines, for a plain text part that quotes each one."""
        return self.text.splitlines() or [""]


def _sent_to(address: str) -> QuerySet[Notification]:
    """The emails sent to `address` (by the person's mailbox key), newest claim first."""
    return (Notification.objects.filter(of_mailbox(address, "to_key"),
                                        status=Notification.Status.SENT)
            .exclude(claimed_at=None).order_by("-claimed_at"))


def _newest_turn_email(seat: Seat, sent: QuerySet[Notification]) -> datetime | None:
    """When the seat's newest turn email among `sent` was claimed (read its talk)."""
    return sent.filter(kind=Kind.TURN, seat_id=seat.pk).values_list(
        "claimed_at", flat=True).first()


def _talk_read_at(seat: Seat, sent: QuerySet[Notification], now: datetime,
                  turn: datetime | None) -> datetime | None:
    """When the newest email to the seat's player that carried this seat's table talk read
    it, given the seat's newest turn email: a digest newer than it that listed the seat's
    game, else the turn email (a digest goes at most once a day, so they are few)."""
    digests = sent.filter(kind=Kind.DIGEST, created_at__gte=now - DIGESTS_LOOKED_AT)
    if turn is not None:
        digests = digests.filter(claimed_at__gt=turn)
    for params, claimed in digests.values_list("params", "claimed_at")[:200]:
        if seat.game_id in (params or {}).get(CARRIED, []):
            return claimed
    return turn


def carried_talk(note: Notification, game_ids: list[int]) -> None:
    """Note on a digest which games' table talk it carries (what `_talk_read_at` reads
    for the next one): bookkeeping of the email being written, nothing a reader sees."""
    Notification.objects.filter(pk=note.pk).update(params={**note.params, CARRIED: game_ids})


def holder_since_message(seat: Seat, game: Game) -> int:
    """The seat's table talk after this message id is its present holder's: 0 for a seat
    that never changed hands (no query), else where its last past holder's talk ended."""
    if not game.holder_changes:
        return 0
    ended = PastHolder.objects.filter(seat=seat).aggregate(n=Max("until_message"))["n"]
    return int(ended or 0)


def talk_since_last_email(seat: Seat, game: Game, address: str, zone: ZoneInfo,
                          names: TableNames | None = None) -> list[TalkLine]:
    """The game's table talk since the last email to `address` that carried it, oldest
    first, but the reader's own lines (they know what they said); nothing when the
    seat's player turned it off. `names`: the game's (`table_names`), if the caller has
    them."""
    if not seat.talk_in_emails:
        return []
    now = timezone.now()
    sent = _sent_to(address)
    turn = _newest_turn_email(seat, sent)
    others = Message.objects.filter(game_id=game.pk).exclude(
        seat_id=seat.pk, id__gt=holder_since_message(seat, game))
    # The last email that carried the talk read it when the seat's last turn email did or
    # later (a digest since): with no line since the turn email, one cheap look says
    # there is nothing to carry (three queries fewer).
    if turn is not None and not others.filter(created_at__gte=turn).exists():
        return []
    since = _talk_read_at(seat, sent, now, turn)
    lines = (others.exclude(seat__number__in=muted_seats(seat))  # not the seats muted
             .order_by("-created_at", "-id"))
    if since is not None:
        lines = lines.filter(created_at__gte=since)  # again rather than never
    latest = list(lines.values_list("pk", "seat__number", "created_at", "text")[:TALK_LINES])
    if not latest:
        return []
    names = names if names is not None else table_names(game)
    return [TalkLine(who=names.talker(number, pk), when=local_time(created, zone), text=text)
            for pk, number, created, text in reversed(latest)]
