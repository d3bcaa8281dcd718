"""Who held a seat before it changed hands: the seat's history, so that the log, the table
talk, the replay, the record and the emails name the player who held the seat when a
line happened, not whoever holds it now.

A seat's holder is its name and whether a bot plays it ("Hal", "Hal (bot)"). Every
method of the seat that changes either (games.seats.core.seat.Seat: a newcomer takes the
seat over, a moderator hands it to another player, or to a bot and back, a seat opens
with a bot holding it, its player stays after all) first calls `remember_holder`, which
writes one PastHolder row:
this holder, and where their time ended in each of the game's sequences (the moves, the
log's events, the table notices, the table talk). The holder now is the Seat row
itself, so a game nobody left has no row at all, and `Game.holder_changes` (the number
of rows) tells a page or an API answer whether there is anything to read without a
query.

Erasure wins over history: a forgotten player's rows keep the neutral name
(games.home.services.erase finds them by the hash of the mailbox key, the only trace of the
address: the person, whatever the spelling).
An undo takes the ends back with the moves it drops (games.moderation.services.undo): moves made
again after it are the present holder's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, TypeVar

from django.db import models
from django.db.models import F, Max, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game, SeatKind
from games.game.core.talk_and_notices import GameNotice, Message
from games.people.core.mailboxes import mailbox_key_hash

if TYPE_CHECKING:  # the seat writes its history: its module imports this one
    from games.seats.core.seat import Seat


class PastHolder(models.Model):
    """One holder of a seat before a change: everything before the `until_*` marks was
    theirs."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="past_holders")
    seat = models.ForeignKey("Seat", on_delete=models.CASCADE, related_name="past_holders")
    number = models.PositiveSmallIntegerField(_("seat number"))
    name = models.CharField(_("player name"), max_length=60)
    bot = models.BooleanField(_("a bot played it"), default=False)
    # The hash of the address that held the seat (games.people.core.mailboxes), "" for a bot's
    # seat with no person: "forget me" finds its rows by it.
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64, blank=True, db_index=True)
    # Moves numbered up to until_version were theirs (move N took the game to version N).
    until_version = models.PositiveIntegerField(_("until version"))
    # Log events before this index were theirs.
    until_log = models.PositiveIntegerField(_("until log event"))
    # Table notices and table talk with ids up to these were written in their time.
    until_notice = models.PositiveIntegerField(_("until table notice"), default=0)
    until_message = models.PositiveIntegerField(_("until message"), default=0)
    created_at = models.DateTimeField(_("changed hands at"), default=timezone.now,
                                      editable=False)

    class Meta:
        verbose_name = _("past holder of a seat")
        verbose_name_plural = _("past holders of seats")
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "id"], name="past_holder_game")]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.number}, until v{self.until_version})"


def remember_holder(game: Game, seat: Seat) -> PastHolder:
    """The seat's holder until now, before the seat's own method gives it another name
    or another kind of player. Called with the game's row locked (every service calling
    such a method holds it), so the marks are where the game is."""
    last_notice = GameNotice.objects.filter(game=game).aggregate(n=Max("id"))["n"] or 0
    last_message = Message.objects.filter(game=game).aggregate(n=Max("id"))["n"] or 0
    row = PastHolder.objects.create(
        game=game, seat=seat, number=seat.number, name=seat.player_name,
        bot=seat.kind == SeatKind.BOT, mailbox=mailbox_key_hash(seat.email) if seat.email else "",
        until_version=game.version, until_log=game.log_length,
        until_notice=last_notice, until_message=last_message)
    Game.objects.filter(pk=game.pk).update(holder_changes=F("holder_changes") + 1)
    game.holder_changes += 1
    return row


def holders_after_undo(game: Game, to_version: int, log_length: int) -> None:
    """An undo to `to_version` dropped the later moves: a holder's time cannot end after
    them (the moves made again are the present holder's)."""
    PastHolder.objects.filter(game=game, until_version__gt=to_version).update(
        until_version=to_version, until_log=log_length)


class HeldUntil(Protocol):
    """A past holder of a seat, as a row or as a value read from one."""

    @property
    def until_version(self) -> int: ...


Past = TypeVar("Past", bound=HeldUntil)


def holder_at_move(past: Iterable[Past], number: int) -> Past | None:
    """Of a seat's past holders (oldest first), the one who held it for move `number`
    (it took the game from version number-1 to number); None: the seat's holder now.
    The one answer to "who held seat s at move n" (the table's names, the ratings'
    turn shares)."""
    return next((held for held in past if number <= held.until_version), None)


def holders_at_move(rows: models.QuerySet[PastHolder],
                    number: int | OuterRef) -> models.QuerySet[PastHolder]:
    """`holder_at_move` as a query: of `rows` (one seat's past holders), the first is who
    held the seat for move `number` (a value, or the listed move's number in a subquery);
    none: the seat's holder now."""
    return rows.filter(until_version__gte=number).order_by("id")
