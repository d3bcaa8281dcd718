"""Anonymous tables (docs/playing.md "Anonymous tables"): while an anonymous game goes on,
every seat is named by an alias, an animal's or a stone's name in the reader's language
("Badger", "Tasso", "Das", "Tejón", "Dachs"), on every page, email, API answer and log
line; its players' names appear only when the game is over. The server never sends a real
name while the game runs: hiding it in the browser would leak it.

`holder_name` is the one answer to "which name does a reader see for the holder of seat n
of game g": the table's names (games.seatview.services.holders), a seat's own
(games.seats.core.seat.Seat.name_shown), the clock's, the host's page and the emails all
ask it. Its rule:

- a game that is not anonymous: the name as stored (a forgotten player's in the reader's
  language);
- an anonymous game going on (set up, started, paused) or cancelled: the seat's alias,
  whoever holds the seat (a newcomer takes its alias over);
- an anonymous game finished: "Badger (Ann)", the alias the table knew and the name; a
  bot's seat keeps its alias alone (a bot's name is nobody's).

The aliases are drawn once, when the game is made (`draw_aliases`), from the game's seed:
one per seat, all different, none reading (in any of the site's languages, case folded)
as the name of a player at the table then. `Game.aliases` keeps their indexes into
ALIASES, so a seat's alias is the same on every page, and in every language its own word.
"""

from __future__ import annotations

import functools
import hashlib
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Q
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.people.core.player_data import FORMER_PLAYER

if TYPE_CHECKING:  # the Game row keeps the aliases: its module imports this one
    from games.game.core.game import Game

# Neutral names in every language: animals of the woods and the mountains, and stones a
# miner knows. None is a common given name in any of the site's languages.
ALIASES: tuple[Promise, ...] = (
    pgettext_lazy("anonymous name", "Badger"),
    pgettext_lazy("anonymous name", "Otter"),
    pgettext_lazy("anonymous name", "Heron"),
    pgettext_lazy("anonymous name", "Lynx"),
    pgettext_lazy("anonymous name", "Beaver"),
    pgettext_lazy("anonymous name", "Falcon"),
    pgettext_lazy("anonymous name", "Hedgehog"),
    pgettext_lazy("anonymous name", "Raven"),
    pgettext_lazy("anonymous name", "Owl"),
    pgettext_lazy("anonymous name", "Mole"),
    pgettext_lazy("anonymous name", "Salamander"),
    pgettext_lazy("anonymous name", "Tortoise"),
    pgettext_lazy("anonymous name", "Squirrel"),
    pgettext_lazy("anonymous name", "Ibex"),
    pgettext_lazy("anonymous name", "Dormouse"),
    pgettext_lazy("anonymous name", "Chamois"),
    pgettext_lazy("anonymous name", "Quartz"),
    pgettext_lazy("anonymous name", "Garnet"),
    pgettext_lazy("anonymous name", "Onyx"),
    pgettext_lazy("anonymous name", "Topaz"),
    pgettext_lazy("anonymous name", "Basalt"),
    pgettext_lazy("anonymous name", "Granite"),
    pgettext_lazy("anonymous name", "Cobalt"),
    pgettext_lazy("anonymous name", "Copper"),
    pgettext_lazy("anonymous name", "Flint"),
    pgettext_lazy("anonymous name", "Malachite"),
    pgettext_lazy("anonymous name", "Obsidian"),
    pgettext_lazy("anonymous name", "Pyrite"),
)


def bot_name(name: str) -> str:
    """A bot's seat as the table reads it: "Bert (bot)"."""
    return _("%(name)s (bot)") % {"name": name}


def stored_name(name: str) -> str:
    """A player's name as stored, in the reader's language when it is the neutral name a
    forgotten player's seat keeps."""
    return _("a former player") if name == FORMER_PLAYER else name


@functools.cache
def _readings(languages: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """Each alias as every language writes it, case folded: what a player's name must not
    read as."""
    forms: list[set[str]] = [set() for _alias in ALIASES]
    for language in languages:
        with translation.override(language):
            for index, alias in enumerate(ALIASES):
                forms[index].add(str(alias).casefold())
    return tuple(frozenset(found) for found in forms)


def readings() -> tuple[frozenset[str], ...]:
    """Each alias (by index) in every language the site speaks, case folded."""
    return _readings(tuple(code for code, _label in settings.LANGUAGES))


def draw_aliases(seed: int, seats: int, names: Iterable[str]) -> list[int]:
    """One alias per seat (their indexes into ALIASES), drawn from the game's seed, all
    different, none that reads as one of `names` (the players' names at the table) in any
    language. The same seed and names give the same aliases."""
    taken = {" ".join(name.split()).casefold() for name in names}
    free = [index for index, forms in enumerate(readings()) if not forms & taken]
    if len(free) < seats:  # more names taken than the list can spare: never at 12 seats
        free = list(range(len(ALIASES)))
    digest = hashlib.sha256(f"aliases:{seed}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big")).sample(free, seats)


@dataclass(frozen=True)
class Anonymity:
    """How a game names its seats: `aliases` by seat (empty: a game that is not
    anonymous, its names as stored); `revealed` once an anonymous game is over."""

    aliases: tuple[int, ...] = ()
    revealed: bool = False

    @property
    def hides(self) -> bool:
        """Whether the players' names are hidden from every reader now."""
        return bool(self.aliases) and not self.revealed

    def alias(self, seat: int) -> str:
        """Seat `seat`'s alias in the language active now ("" in a game without)."""
        if not 0 <= seat < len(self.aliases):
            return ""
        index = self.aliases[seat]
        return str(ALIASES[index]) if 0 <= index < len(ALIASES) else ""

    def shown(self, seat: int, name: str, *, bot: bool = False) -> str:
        """The name a reader sees for a holder of seat `seat` stored as `name`, without a
        bot's "(bot)" (see the module)."""
        plain = stored_name(name)
        alias = self.alias(seat)
        if not alias:
            return plain
        if bot or not self.revealed:
            return alias
        return _("%(alias)s (%(name)s)") % {"alias": alias, "name": plain}

    def table_name(self, seat: int, name: str, *, bot: bool) -> str:
        """`shown` with a bot's "(bot)": the name the log and the players' table read."""
        shown = self.shown(seat, name, bot=bot)
        return bot_name(shown) if bot else shown

    def called_by(self, seat: int, name: str) -> list[str]:
        """The names a line of talk may call seat `seat`'s player by (`@name`): its alias
        in every language the site speaks at an anonymous table (the players read it
        each in their own), and the player's name too once it is not hidden."""
        if not self.aliases:
            return [name]
        index = self.aliases[seat] if 0 <= seat < len(self.aliases) else -1
        forms = sorted(readings()[index]) if 0 <= index < len(ALIASES) else []
        return forms if self.hides else [*forms, name]


PLAIN = Anonymity()


def anonymity(game: Game) -> Anonymity:
    """How `game` names its seats now (no query: read from the game's row)."""
    aliases: Sequence[int] = game.aliases or ()
    if not aliases:
        return PLAIN
    return Anonymity(aliases=tuple(int(index) for index in aliases),
                     revealed=game.status == "finished")


def names_hidden_q(to_game: str = "") -> Q:
    """The rows (games, or rows of a game through `to_game`, "game__") of anonymous games
    whose names are hidden now: what a player's public record leaves out until they end
    (a round won or a deadline missed there would tell who sat where)."""
    return ~Q(**{f"{to_game}aliases": []}) & ~Q(**{f"{to_game}status": "finished"})


def for_moderators(game: Game) -> Anonymity:
    """How the moderators read `game`'s names: both the alias and the name, "Badger
    (Ann)", whether or not the game is over."""
    table = anonymity(game)
    return Anonymity(aliases=table.aliases, revealed=True) if table.aliases else table


def holder_name(game: Game, seat: int, name: str, *, bot: bool = False) -> str:
    """THE name a reader sees for the holder of seat `seat` of `game` whose name is stored
    as `name` (the seat row's, or a past holder's): see the module. Without a bot's
    "(bot)"."""
    return anonymity(game).shown(seat, name, bot=bot)
