"""The ratings' part of the letters that tell a round's end (the round's email, and the
game's, which tells the last round): what the round did to the reader's rating and to
those of the table's players who list theirs, "Your rating: +31, now 1602"
(games.ratings.services.shown.ratings_moved). Added to the mail's letters in games.wiring
(games.mail.core.letter_parts).

Such a letter is written when the round's next round has begun, and the round is rated by
the ratings' own sweep a moment later: the letter waits for it, unsent, while its rating is
due (games.ratings.services.rating_outbox sends it on), at most RATING_WAIT after it was
planned; after that it goes without the part (a rating that keeps failing holds no
email back for long).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from games.mail.core.letter_parts import Part
from games.mail.core.notifications import Notification
from games.ratings.services.rating_outbox import still_to_rate
from games.ratings.services.shown import ratings_moved

RATING_WAIT = timedelta(minutes=10)


def _round_told(note: Notification) -> int:
    """The round the letter tells: the round end's own, the game end's last (0: none)."""
    if note.kind == Notification.Kind.ROUND_END:
        return int(note.params.get("round") or 0)
    game = note.game
    return int(game.snapshot.get("round") or 0) if game is not None else 0


def rating_part(note: Notification) -> Part | None:
    """The round's rating changes the recipient may see; None when there is none (a game
    that is not rated, a round that did not count, nobody's change to show)."""
    game, seat, number = note.game, note.seat, _round_told(note)
    if game is None or seat is None or not game.rated or not number:
        return None
    moved = ratings_moved(game.pk, seat.mailbox_key, [number]).get(number, [])
    if not moved:
        return None
    return Part(heading=_("Ratings after round %(n)s") % {"n": number},
                lines=tuple(f"{_('Your rating') if item.mine else item.name}: {item.text}"
                            for item in moved))


def rating_pending(note: Notification, now: datetime) -> bool:
    """Whether the letter waits for its round's rating: a rated game's round still to be
    rated, and the letter planned less than RATING_WAIT ago."""
    game, number = note.game, _round_told(note)
    if game is None or not game.rated or not number or now - note.created_at > RATING_WAIT:
        return False
    return still_to_rate(game.pk, number)
