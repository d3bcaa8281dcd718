"""Words a higher feature adds to a letter the mail writes (the ratings' change at a round's
end, games.ratings.doors.rating_letters), filled when Django starts (games.wiring): the
mail never imports the features above it, so they hand it a part to write, and say when
the letter should wait a little for it.

A part is a heading and its lines, written at send time in the recipient's language (the
builder runs inside games.mail.core.letter_registry.letter_for). A letter whose part is
not ready yet (the round is still to be rated) waits, unsent, in the order planned: the
game's later emails to the same person wait behind it (games.mail.services.send), until
the feature sends it on (games.mail.services.held_emails.send_waiting) or it stops
waiting (each wait says until when it is worth it); nothing waits for ever.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from games.mail.core.notifications import Notification


@dataclass(frozen=True)
class Part:
    heading: str
    lines: tuple[str, ...]


Writer = Callable[[Notification], Part | None]
Waits = Callable[[Notification, datetime], bool]

_WRITERS: dict[str, list[Writer]] = {}
_WAITS: dict[str, list[Waits]] = {}


def add_part(kinds: Iterable[str], writer: Writer, waits: Waits | None = None) -> None:
    """Letters of these kinds carry `writer`'s part (none when it answers None); `waits`
    says whether a letter should wait for it a little (once, however often it is added)."""
    for kind in kinds:
        if writer not in _WRITERS.setdefault(kind, []):
            _WRITERS[kind].append(writer)
        if waits is not None and waits not in _WAITS.setdefault(kind, []):
            _WAITS[kind].append(waits)


def parts_for(note: Notification) -> list[Part]:
    """The parts the letter of `note` carries, in the order they were added."""
    found = (writer(note) for writer in _WRITERS.get(note.kind, ()))
    return [part for part in found if part is not None and part.lines]


def waits(note: Notification, now: datetime) -> bool:
    """Whether the letter of `note` waits for a part not ready yet."""
    return any(wait(note, now) for wait in _WAITS.get(note.kind, ()))
