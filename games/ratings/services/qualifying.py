"""Which rounds of a rated game count for the ratings (docs/playing.md "Ratings").

A round counts only between distinct people who each took their seat from their own
address, so that nobody rates themselves against seats they play too, or that nobody
plays:

- **distinct**: no person holds a hand in two seats of the round, and no mailbox is two
  of the round's people. People are told apart by their mailbox key and, coarser, by the
  mailbox the mail reaches (games.people.core.mailboxes.mailbox: `Ann+1@x.org` is
  `ann@x.org`): one mailbox gets the mail of both seats, so one person could play both
  sides, or hold one seat under two spellings and move two ratings.
- **confirmed**: every person's hand of the round is a seat the server gave them from an
  open table (joining one is done with the home link, which only the address's mail
  carries), or a seat they played themselves by the end of the round: a move made through
  the seat's own link or by replying to its email, both of which only the address's mail
  carries. A seat accepted through the host's invitation link and then played by the
  server or a bot proves nothing: a host could seat an address nobody reads, or a friend
  who never agreed to play, and win against it.

Bots are not people here (they play at a fixed skill and are never rated), nor is an
erased player's share (no address is left to tell). A round that does not count changes
no rating, neither a player's nor a side's; its claim (RatedRound.result) keeps why.
People who asked to be forgotten while a game they play waits for its end are told apart
like anyone, and rated as nobody: nothing new is kept about them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.game.core.game import Game, SeatKind
from games.people.core.home_links import HomeLink
from games.people.core.mailboxes import mailbox_hash
from games.people.core.player_data import forgotten_among
from games.ratings.services import turn_shares
from games.seats.core.history import PastHolder

# Why a round did not count (RatedRound.result["why"]).
NO_RESULT = "no_result"  # no winning and losing side (games.ratings.core.sides)
SAME_MAILBOX = "same_mailbox"
UNCONFIRMED = "unconfirmed"

Shares = dict[int, dict[turn_shares.Part, float]]


@dataclass(frozen=True)
class Verdict:
    """Whether a round counts (`why` is "" when it does), and the people of it who asked
    to be forgotten (mailbox key hashes): rated as nobody."""

    why: str = ""
    forgotten: frozenset[str] = field(default_factory=frozenset)


def why_not_counted(result: Mapping[str, Any]) -> str:
    """Why a claimed round did not count ("" when it did), from its RatedRound.result; a
    claim made before the reasons were kept has its sides only ([]: no result)."""
    if "why" in result:
        return str(result["why"])
    return "" if result.get("sides") else NO_RESULT


def _people(shares: Shares) -> set[tuple[int, str]]:
    """(seat, mailbox key hash) of every person's hand of the round."""
    return {(seat, who) for seat, hands in shares.items() for who in hands if who}


def _addresses(game: Game, keys: set[str]) -> dict[str, str]:
    """The address of each person: a seat's holder's from the seat, a past holder's from
    their home (every address the server emailed has one; none: no address known)."""
    found = dict(HomeLink.objects.filter(mailbox_key__in=keys)
                 .values_list("mailbox_key", "address"))
    found.update(game.seats.filter(mailbox_key__in=keys).values_list("mailbox_key", "email"))
    return {key: address for key, address in found.items() if address}


def _one_mailbox_twice(people: set[tuple[int, str]], addresses: Mapping[str, str]) -> bool:
    seats_of: dict[str, set[int]] = defaultdict(set)
    for seat, key in people:
        seats_of[key].add(seat)
    if any(len(seats) > 1 for seats in seats_of.values()):
        return True
    # An unknown address counts as a mailbox of its own (its key).
    counted = {mailbox_hash(addresses[key]) if key in addresses else key for key in seats_of}
    return len(counted) < len(seats_of)


def _seated_by_the_server(game: Game) -> set[str]:
    """Who the server seated when the game formed at an open table (its seats' first
    holders: a bot, or a player who joined the table), by mailbox key; none in a host's
    game or a rematch (games.game.core.game.Game.found_together)."""
    if not game.found_together:
        return set()
    first: dict[int, str] = {}
    for seat_id, bot, key in (PastHolder.objects.filter(game=game).order_by("id")
                              .values_list("seat_id", "bot", "mailbox")):
        first.setdefault(seat_id, "" if bot else key)
    for seat_id, kind, key in game.seats.values_list("id", "kind", "mailbox_key"):
        first.setdefault(seat_id, "" if kind == SeatKind.BOT else key)
    return {key for key in first.values() if key}


def _confirmed(game: Game, people: set[tuple[int, str]], last: int) -> bool:
    members = _seated_by_the_server(game)
    waiting = {(seat, key) for seat, key in people if key not in members}
    return not waiting or waiting <= turn_shares.own_hands(game, last)


def judge(game: Game, shares: Shares, last: int) -> Verdict:
    """The verdict on a round whose moves end at `last`, played by `shares` (each seat's
    hands: games.ratings.services.turn_shares)."""
    people = _people(shares)
    if not people:
        return Verdict()
    addresses = _addresses(game, {key for _seat, key in people})
    if _one_mailbox_twice(people, addresses):
        return Verdict(SAME_MAILBOX)
    if not _confirmed(game, people, last):
        return Verdict(UNCONFIRMED)
    forgotten = forgotten_among(addresses.values())
    return Verdict(forgotten=frozenset(key for key, address in addresses.items()
                                       if address in forgotten))
