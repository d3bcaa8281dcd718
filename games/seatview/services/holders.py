"""The seats' names as the table saw them at each moment of the game: today's holders,
and before each change of hands who held the seat (games.seats.core.history).

`TableNames` is a mapping of today's names (what every caller taking `Names` reads: the
players' table, whose turn it is, the final scores) that also answers "who held the
seats when this happened" for a log event (`at_log`), a move (`at_move`), a table notice
(`at_notice`) and a message of table talk (`talker`). A game nobody left answers every
question with today's names, and costs no query (`Game.holder_changes` is 0). Functions
that take any `Names` ask through `names_at_log` and its siblings: a plain mapping (a
test's, a moderator page's) has no history and answers with itself.

The names are those the table reads: a bot's carries "(bot)", a forgotten player is "a
former player" in the reader's language (erasure rewrote their rows too); each is made
when it is read, so in the language active then. At an anonymous table each is what
games.game.core.aliases.holder_name says: the seat's alias while the game goes on (a
seat that changed hands keeps it), "Badger (Ann)" once it is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from games.engine.types import SeatView
from games.game.core.aliases import (
    PLAIN,
    Anonymity,
    anonymity,
    bot_name,
    for_moderators,
    stored_name,
)
from games.game.core.game import Game, SeatKind
from games.kit.seat_numbers import shown_seat
from games.seats.core.history import PastHolder, holder_at_move
from games.seats.core.seat import Seat
from games.seatview.core.recent import view_log
from games.seatview.core.words import Names


def table_name(player: str, *, bot: bool) -> str:
    """A holder's name as the log shows it ("Ann", "Bert (bot)", "a former player"), at a
    table that is not anonymous."""
    return bot_name(stored_name(player)) if bot else stored_name(player)


@dataclass(frozen=True)
class Held:
    """A seat's holder before a change: every mark up to its `until_*` was theirs."""

    seat: int
    player: str  # the name as stored (FORMER_PLAYER once forgotten)
    bot: bool
    until_version: int
    until_log: int
    until_notice: int
    until_message: int


class TableNames(Mapping[int, str]):
    """Today's names by seat, and the names of each moment before (see the module)."""

    def __init__(self, players: dict[int, str], bots: frozenset[int] = frozenset(),
                 before: list[Held] | None = None, anonymity: Anonymity = PLAIN) -> None:
        self.players = players  # today's names as stored
        self.bots = bots  # the seats a bot plays today
        # The table's aliases (games.game.core.aliases): every name is asked through it.
        self.anonymity = anonymity
        self._before: dict[int, list[Held]] = {}
        for held in before or []:  # oldest first, as the rows were written
            self._before.setdefault(held.seat, []).append(held)

    # -- today's names (a Mapping) ---------------------------------------------------------

    def __getitem__(self, seat: int) -> str:
        return self.anonymity.table_name(seat, self.players[seat], bot=seat in self.bots)

    @property
    def hidden(self) -> bool:
        """Whether the players' names are hidden (an anonymous game going on): a name kept
        in a notice's parameters is then none of the reader's business."""
        return self.anonymity.hides

    def stored(self, seat: int, name: str) -> str:
        """A name kept for seat `seat` elsewhere (a notice's parameters), as readers see
        it (the seat's alias at an anonymous table)."""
        return self.anonymity.shown(seat, name)

    def __iter__(self) -> Iterator[int]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    def holders(self, seat: int) -> list[Held]:
        """Who held `seat` before today's holder, oldest first."""
        return list(self._before.get(seat, []))

    # -- the names at a moment -------------------------------------------------------------

    def _held(self, seat: int, theirs: Callable[[Held], bool]) -> Held | None:
        return next((held for held in self._before.get(seat, []) if theirs(held)), None)

    def _at(self, held_then: Callable[[int], Held | None]) -> Names:
        """Today's names, but for each seat the holder before them to whom the moment
        belonged (`held_then`, by seat)."""
        if not self._before:
            return self
        names = dict(self)
        for seat in self._before:
            held = held_then(seat)
            if held is not None:
                names[seat] = self.anonymity.table_name(seat, held.player, bot=held.bot)
        return AtMoment(names, self.anonymity)

    def at_log(self, index: int) -> Names:
        """The names for the log event at `index` (its position in the whole log)."""
        return self._at(lambda seat: self._held(seat, lambda held: index < held.until_log))

    def at_move(self, number: int) -> Names:
        """The names for move `number` (it took the game from version number-1 to number)."""
        return self._at(lambda seat: holder_at_move(self._before[seat], number))

    def at_notice(self, notice_id: int) -> Names:
        """The names for a table notice (its id: notices are numbered as written)."""
        return self._at(lambda seat: self._held(
            seat, lambda held: notice_id <= held.until_notice))

    def player_at_move(self, seat: int, number: int) -> tuple[str, bool]:
        """Who held `seat` for move `number`: (the name as stored, whether a bot): for a
        record of a finished game (a name as stored: never shown by an anonymous game
        going on)."""
        held = holder_at_move(self._before.get(seat, []), number)
        if held is not None:
            return held.player, held.bot
        return self.players.get(seat, ""), seat in self.bots

    def talker(self, seat: int, message_id: int) -> str:
        """Who wrote the seat's message `message_id` of table talk (a person: no "(bot)")."""
        held = self._held(seat, lambda held: message_id <= held.until_message)
        player = held.player if held is not None else self.players.get(seat)
        if player is not None:
            return self.anonymity.shown(seat, player)
        return _("seat %(n)s") % {"n": shown_seat(seat)}


class AtMoment(dict[int, str]):
    """The names of one moment before a change of hands (TableNames.at_log and its
    siblings): a plain mapping that still knows the table's aliases."""

    def __init__(self, names: dict[int, str], anonymity: Anonymity) -> None:
        super().__init__(names)
        self.anonymity = anonymity

    @property
    def hidden(self) -> bool:
        return self.anonymity.hides

    def stored(self, seat: int, name: str) -> str:
        return self.anonymity.shown(seat, name)


def names_at_log(names: Names, index: int) -> Names:
    return names.at_log(index) if isinstance(names, TableNames) else names


def names_at_notice(names: Names, notice_id: int | None,
                    params: Mapping[str, Any] | None = None) -> Names:
    """The names for a table notice; a notice about an earlier act (a dispute resolved)
    names its seats as at that act's own notice (`names_at` among its parameters)."""
    if notice_id is None or not isinstance(names, TableNames):
        return names
    earlier = (params or {}).get("names_at")
    return names.at_notice(earlier if isinstance(earlier, int) else notice_id)


def names_at_round_end(view: SeatView, round_number: int, names: Names) -> Names:
    """The names of those who held the seats when round `round_number` ended (its
    round_end event in the view's log)."""
    if not isinstance(names, TableNames):
        return names
    for index, event in enumerate(view_log(view)):
        if event.get("type") == "round_end" and event.get("round") == round_number:
            return names.at_log(index)
    return names


def past_holders(game: Game) -> list[Held]:
    """Every holder of the game's seats before a change, oldest first: no query when no
    seat ever changed hands (`Game.holder_changes`, read with the game)."""
    if not game.holder_changes:
        return []
    return [Held(seat=row.number, player=row.name, bot=row.bot,
                 until_version=row.until_version, until_log=row.until_log,
                 until_notice=row.until_notice, until_message=row.until_message)
            for row in PastHolder.objects.filter(game=game).order_by("id")]


def today_names(game: Game, seats: Iterable[tuple[int, str, str]]) -> dict[int, str]:
    """Today's names as the table reads them ("Bert (bot)", an alias at an anonymous
    table), from each seat's number, name and kind, without the holders before (what
    commands name players by)."""
    table = anonymity(game)
    return {number: table.table_name(number, name, bot=kind == SeatKind.BOT)
            for number, name, kind in seats}


def table_names(game: Game, seats: Iterable[tuple[int, str, str]] | None = None, *,
                moderator: bool = False) -> TableNames:
    """The game's names: today's (one query, none when `seats` gives each seat's number,
    name and kind as a move just read them) and, if any seat changed hands, each one's
    holders before (one more). `moderator`: as the moderators read them (an anonymous
    table's alias and name both, games.game.core.aliases.for_moderators)."""
    players: dict[int, str] = {}
    bots: set[int] = set()
    if seats is None:
        # By number, as the seats' default order has it, without its join to the game.
        seats = game.seats.order_by("number").values_list("number", "player_name", "kind")
    for number, name, kind in seats:
        players[number] = name
        if kind == SeatKind.BOT:
            bots.add(number)
    table = for_moderators(game) if moderator else anonymity(game)
    return TableNames(players, frozenset(bots), past_holders(game), table)


def seat_changes(game: Game) -> list[PastHolder]:
    """The game's PastHolder rows, oldest first (no query when no seat changed hands)."""
    if not game.holder_changes:
        return []
    return list(PastHolder.objects.filter(game=game).order_by("id"))


def holder_then(seat: Seat, moment: datetime, changes: Sequence[PastHolder], *,
                moderator: bool = False) -> str:
    """Who held `seat` at `moment`, named as the table names them (`moderator`: as the
    moderators do): the first holder whose time ended after it (`changes`: the game's
    rows, oldest first), else today's."""
    table = for_moderators(seat.game) if moderator else anonymity(seat.game)
    later = next((row for row in changes
                  if row.seat_id == seat.pk and row.created_at > moment), None)
    if later is not None:
        return table.table_name(seat.number, later.name, bot=later.bot)
    return table.table_name(seat.number, seat.player_name, bot=seat.is_bot)
