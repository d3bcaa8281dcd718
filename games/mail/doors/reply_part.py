"""What a turn email (also the gold and theft decisions, the nudge, the answer to a reply
and the table's pause proposal) gains for replies: a Reply-To carrying a new token for
this seat and version, and the commands explained with this seat's own hand and legal
moves."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import translation

from games import engine
from games.engine.types import SeatView
from games.game.core.game import Game
from games.seats.core import reply_tokens
from games.seats.core.seat import Seat
from games.seatview.core import reply_help


@dataclass(frozen=True)
class ReplyPart:
    address: str
    help: list[str]
    # The free cells the seat's placements could use: the email's maze is drawn wide
    # enough to show every cell its examples and options name.
    targets: list[tuple[int, int]] = field(default_factory=list)


def reply_part(seat: Seat, game: Game, state: engine.State, view: SeatView,
               names: dict[int, str], *, with_hand: bool = False) -> ReplyPart:
    """A new reply address for the seat at the game's version, and the commands explained
    (`with_hand`: with the numbered hand, for an email that does not show it otherwise).
    `state` is the game's (`game.state()`), which the caller read for `view` already."""
    legal = engine.legal_moves(state) if state.actor == seat.number else []
    language = translation.get_language() or seat.language
    return ReplyPart(address=reply_tokens.issue(seat, game.version),
                     help=reply_help.how_to_reply(view, legal, names, language[:2],
                                                     with_hand=with_hand),
                     targets=sorted({(m["x"], m["y"]) for m in legal if m["type"] == "place"}))
