"""Finding, joining and leaving open tables (docs/playing.md "Play with strangers").

"Find me a table" joins the oldest forming table that matches the wish, or starts one:
a table matches when its ruleset, pace, language, rated and anonymous flags are the ones
asked for (an anonymous table takes only those who asked for one, and they only it),
its size lies in the asked range, the asker is not at it already, and, when the asker
did not allow bots, its starter did not either (an asker who allows bots takes a table
either way). A new table has the smallest size asked for (it fills soonest) and waits
OPEN_TABLE_WAIT_HOURS. A player sits at OPEN_TABLES_PER_PLAYER forming tables at most,
and one mailbox sits once at a table (its mail would show two hands). The table starts
the moment its last seat is taken (games.tables.services.starting).

Every step locks the table's row, so of two players taking a table's last seat at once
one does, and the other gets a clear refusal (the table is full) or, finding a table,
the next one.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox
from games.tables.core.table_rows import OpenTable, TableMember
from games.tables.core.wishes import TableError, Wish
from games.tables.services.starting import start_table

FORMING = OpenTable.Status.FORMING


@dataclass(frozen=True)
class Seated:
    """Where a player sits after finding or joining: the table, how many have joined of
    its seats, whether it has started, and its game's public id once it has."""

    table: int
    joined: int
    seats: int
    status: str
    game: str | None

    def as_json(self) -> dict[str, object]:
        answer: dict[str, object] = {"table": self.table, "joined": self.joined,
                                     "seats": self.seats, "status": self.status}
        if self.game is not None:
            answer["game"] = self.game
        return answer


def forming_tables_of(address: str) -> list[OpenTable]:
    """The forming tables the address sits at, oldest first."""
    return list(OpenTable.objects.filter(
        status=FORMING, members__in=TableMember.objects.filter(of_mailbox(address)))
        .order_by("created_at", "pk"))


def _check_room(address: str) -> None:
    if len(forming_tables_of(address)) >= settings.OPEN_TABLES_PER_PLAYER:
        raise TableError(409, "too_many_tables", _(
            "You are already waiting at %(n)s forming tables, as many as one player may; "
            "leave one first.") % {"n": settings.OPEN_TABLES_PER_PLAYER})


def _seated_answer(table: OpenTable) -> Seated:
    return Seated(table=table.pk, joined=table.members.count(), seats=table.seats,
                  status=table.status,
                  game=table.game.public_id if table.game is not None else None)


def _sit(table: OpenTable, address: str) -> Seated:
    """Seat the address at the locked, forming `table`; start it when that fills it."""
    members = list(table.members.all())
    if any(mailbox(member.address) == mailbox(address) for member in members):
        raise TableError(409, "already_at_table", _("You are already at this table."))
    if len(members) >= table.seats:
        raise TableError(409, "table_full", _("This table is full; find another."))
    TableMember.objects.create(table=table, address=address.strip())
    if len(members) + 1 == table.seats:
        start_table(table)
    return _seated_answer(table)


def _matches(wish: Wish, address: str) -> list[int]:
    mine = TableMember.objects.filter(of_mailbox(address)).values("table")
    found = OpenTable.objects.filter(
        status=FORMING, ruleset=wish.ruleset, seats__gte=wish.low, seats__lte=wish.high,
        hours_per_move=wish.hours_per_move, clock_preset=wish.clock, language=wish.language,
        rated=wish.rated, anonymous=wish.anonymous,
    ).exclude(pk__in=mine)
    if not wish.bots_fill:
        found = found.filter(bots_fill=False)
    return list(found.order_by("created_at", "pk").values_list("pk", flat=True)[:20])


def find_table(address: str, wish: Wish) -> Seated:
    """Join the oldest forming table that matches `wish`, or start one. Raises
    TableError (409 too_many_tables)."""
    with transaction.atomic():
        _check_room(address)
        for table_id in _matches(wish, address):
            table = OpenTable.objects.select_for_update().filter(pk=table_id,
                                                                 status=FORMING).first()
            if table is None or table.members.count() >= table.seats:
                continue  # filled or gone since it was found
            try:
                with transaction.atomic():
                    return _sit(table, address)
            except TableError:
                continue  # this mailbox sits there under another spelling
        return _sit(_new_table(wish, wish.low), address)


def _new_table(wish: Wish, seats: int) -> OpenTable:
    now = timezone.now()
    return OpenTable.objects.create(
        ruleset=wish.ruleset, seats=seats, hours_per_move=wish.hours_per_move,
        clock_preset=wish.clock, language=wish.language, rated=wish.rated,
        bots_fill=wish.bots_fill, anonymous=wish.anonymous, created_at=now,
        starts_at=now + timedelta(hours=settings.OPEN_TABLE_WAIT_HOURS))


def seat_together(addresses: list[str], wish: Wish) -> Seated:
    """A new table of `wish.high` seats with these people at it already (players who
    agreed to play together: an accepted challenge, games.challenges), in the caller's
    transaction: it starts at once when they fill it, else it forms like any table and
    strangers (or, at the end of its wait, bots when allowed) take the other seats. The
    limit of forming tables per player does not apply: they chose this one together."""
    table = _new_table(wish, wish.high)
    seated = _seated_answer(table)
    for address in addresses:
        seated = _sit(table, address)
    return seated


def join_table(address: str, table_id: int) -> Seated:
    """Take a seat at the forming table `table_id` (one from the list). Raises TableError:
    404 no such table, 409 started, full, already there or too many tables."""
    with transaction.atomic():
        table = OpenTable.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise TableError(404, "no_table", _("There is no such open table."))
        if table.status != FORMING:
            raise TableError(409, "table_started", _(
                "This table is no longer forming (it has started, or it closed)."))
        _check_room(address)
        return _sit(table, address)


def leave_table(address: str, table_id: int) -> Seated:
    """Leave a forming table; a table its last member leaves closes. Raises TableError:
    404 not at such a table, 409 it has started (the game is on the home: leaving a game
    is done from its seat page)."""
    with transaction.atomic():
        table = OpenTable.objects.select_for_update().filter(pk=table_id).first()
        mine = (TableMember.objects.filter(of_mailbox(address), table=table)
                if table is not None else TableMember.objects.none())
        if table is None or not mine.exists():
            raise TableError(404, "not_at_table", _("You are not at such a table."))
        if table.status != FORMING:
            raise TableError(409, "table_started", _(
                "This table has started: its game is on your home, and you leave a game "
                "from its page."))
        mine.delete()
        if not table.members.exists():
            table.status, table.ended_at = OpenTable.Status.CLOSED, timezone.now()
            table.save(update_fields=["status", "ended_at"])
        return _seated_answer(table)
