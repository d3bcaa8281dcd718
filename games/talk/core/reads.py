"""What each seat's reader has read of the table talk, and when they were last called by
name ( docs/playing.md "Table talk").

    TalkRead        one row per seat: the newest line its page showed, and when an
                    `@name` last told its player
    mentioned_in    the seats a line calls by `@name`

The seat page shows where the unread lines begin and then counts them read; the home and
the digest count the lines not read yet. A line's own writer never has it unread.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models

from games.seats.core.seat import Seat


class TalkRead(models.Model):
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="talk_read")
    # Whose reading it is (the holder's mailbox key hash): a newcomer who takes the seat
    # over has read nothing yet.
    mailbox = models.CharField(max_length=64, blank=True, default="")
    # The id of the newest talk line the seat's page has shown (0: none yet).
    seen_up_to = models.PositiveBigIntegerField(default=0)
    # When an `@name` last brought the seat's player an email: one an hour at most.
    mentioned_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"talk read by seat {self.seat_id}"


def _words(text: str) -> str:
    return " ".join(text.casefold().split())


def mentioned_in(text: str, named: Iterable[tuple[int, str]]) -> set[int]:
    """The seat numbers whose name follows an `@` in the line, as a whole name (case and
    spaces aside): `@ann` calls "Ann", not "Annabel"; "Ann the Bold" by `@Ann the Bold`."""
    said = _words(text)
    found = set()
    for number, name in named:
        wanted = "@" + _words(name)
        if not name.strip():
            continue
        start = said.find(wanted)
        while start != -1:
            after = start + len(wanted)
            if after == len(said) or not said[after].isalnum():
                found.add(number)
                break
            start = said.find(wanted, after)
    return found
