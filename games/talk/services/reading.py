"""Unread table talk: what a seat's page has shown, the lines each seat
has not read yet (the home, the digest), and `@name` calls, at most one an hour a game
for each player called (games.talk.core.reads)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.game.core.aliases import anonymity
from games.game.core.game import SeatKind
from games.game.core.talk_and_notices import Message
from games.kit.events import publish
from games.seats.core.seat import Seat
from games.talk.core.mention_events import Mentioned
from games.talk.core.mutes import TalkMute
from games.talk.core.reads import TalkRead, mentioned_in

MENTION_EVERY = timedelta(hours=1)


def read_on_page(seat: Seat, shown: list[Message], newest: int) -> list[Message]:
    """The lines of `shown` (the page's talk, oldest first) the seat had not read: after
    the last one its page showed, and not its own. From now on every line up to `newest`
    (the game's newest, muted or not) is read; never moves back. One query when the page
    shows nothing new (the seat's row, made the first time its page shows talk)."""
    if not newest:
        return []  # no line yet: nothing to read, nothing to mark
    row, _made = TalkRead.objects.get_or_create(seat=seat,
                                                defaults={"mailbox": seat.mailbox_key})
    seen = row.seen_up_to if row.mailbox == seat.mailbox_key else 0
    if row.mailbox != seat.mailbox_key:  # the seat changed hands: the newcomer's reading
        TalkRead.objects.filter(pk=row.pk).update(mailbox=seat.mailbox_key, seen_up_to=0)
    if seen < newest:
        TalkRead.objects.filter(pk=row.pk, seen_up_to__lt=newest).update(seen_up_to=newest)
    return [line for line in shown if line.pk > seen and line.seat_id != seat.pk]


def unread_counts(seats: Iterable[Seat]) -> dict[int, int]:
    """For each seat (by id), the talk lines of its game it has not seen: not its own, not
    those of a player it muted. One query."""
    ids = [seat.pk for seat in seats]
    if not ids:
        return {}
    reader = OuterRef(OuterRef("pk"))
    seen = (TalkRead.objects.filter(seat=reader,
                                    mailbox=OuterRef(OuterRef("mailbox_key")))
            .values("seen_up_to")[:1])
    muted = TalkMute.objects.filter(by_seat=reader, muted_seat=OuterRef("seat"),
                                    by_mailbox=F("by_seat__mailbox_key"),
                                    muted_mailbox=F("muted_seat__mailbox_key"))
    lines = (Message.objects.filter(game=OuterRef("game"),
                                    id__gt=Coalesce(Subquery(seen), 0))
             .exclude(seat=OuterRef("pk")).exclude(Exists(muted))
             .order_by().values("game").annotate(n=Count("id")).values("n"))
    rows = Seat.objects.filter(pk__in=ids).annotate(unread=Coalesce(Subquery(lines), 0))
    return dict(rows.values_list("pk", "unread"))


def after_line_posted(message: Message) -> None:
    """A new line: each player it calls by `@name` is told, once an hour a game at most
    (the others' calls within the hour are on their page and in the unread counts)."""
    writer = message.seat
    others = list(Seat.objects.filter(game_id=message.game_id, kind=SeatKind.PERSON)
                  .exclude(pk=writer.pk).exclude(email=""))
    table = anonymity(message.game)
    called = mentioned_in(message.text, [(seat.number, name) for seat in others
                                         for name in table.called_by(seat.number,
                                                                     seat.player_name)])
    now = timezone.now()
    for seat in others:
        if seat.number not in called or _muted_by(seat, writer):
            continue
        TalkRead.objects.get_or_create(seat=seat)
        free = (TalkRead.objects.filter(seat=seat)
                .filter(Q(mentioned_at__isnull=True) | Q(mentioned_at__lte=now - MENTION_EVERY))
                .update(mentioned_at=now))
        if free:
            publish(Mentioned(game_id=message.game_id, seat_id=seat.pk,
                              message_id=message.pk))


def _muted_by(reader: Seat, writer: Seat) -> bool:
    return TalkMute.objects.filter(by_seat=reader, muted_seat=writer,
                                   by_mailbox=reader.mailbox_key,
                                   muted_mailbox=writer.mailbox_key).exists()
