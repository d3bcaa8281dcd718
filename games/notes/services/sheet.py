"""A seat's suspicion sheet: writing a note and reading the sheet back, for the seat's
player only (games.notes.core.sheet_rows).

    save_note(seat, about, mark=, text=)   the note on seat `about` for the round now
    sheet_of(seat, view, names)            every other seat: its notes by round, with the
                                           public actions it took, from `view` (the
                                           seat's own engine view: nothing else)
    notes_of(address)                      a person's notes (their data export)
    erase_notes_of(address)                "forget me"

The actions listed are the log events of the seat's own view whose player is that seat
and which are action cards (a broken or repaired tool, a rockfall, a map, the expansion's
thefts and traps): what every player at the table saw, said as the seat page's log says
it. A hand, a role or a goal never comes in, since the seat's view has none but its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.types import LogEvent, SeatView
from games.game.core.game import Game
from games.kit.service_errors import ServiceError
from games.kit.text import is_clean_message
from games.notes.core.sheet_rows import MAX_NOTE_LENGTH, Mark, SeatNote
from games.people.core.mailboxes import mailbox_key_hash
from games.seats.core.seat import Seat
from games.seatview.core.describe import seat_name
from games.seatview.core.recent import view_log
from games.seatview.core.remembered_sentences import event_sentence, names_key

# Log events that are no action against anyone: the maze, passing, the round's course.
NOT_ACTIONS = frozenset({"place", "pass", "round_start", "round_end", "reveal", "gold_pick",
                         "payout", "game_end"})


class NoteRefused(ServiceError):
    STATUS = 400


@dataclass
class RoundNotes:
    round: int
    mark: str = ""  # a Mark value
    mark_label: str = ""
    text: str = ""
    actions: list[str] = field(default_factory=list)


@dataclass
class SheetRow:
    """One other seat on the sheet: its name and number, this round's note, and every
    round's (the newest first) with the actions taken in it."""

    number: int
    name: str
    now: RoundNotes
    rounds: list[RoundNotes]


def _mine(seat: Seat) -> Any:
    return SeatNote.objects.filter(seat=seat, mailbox=seat.mailbox_key)


def current_round(game: Game) -> int:
    return int(game.state_without_log().round or 1)


def save_note(seat: Seat, about: int, *, mark: str | None, text: str | None) -> SeatNote:
    """The note on seat `about` for the round now; None leaves that part as it was."""
    if not seat.email or not seat.mailbox_key:
        raise NoteRefused("no_player", _("Only a player can keep notes."))
    game = Game.objects.get(pk=seat.game_id)
    if about == seat.number or not game.seats.filter(number=about).exists():
        raise NoteRefused("bad_seat", _("Choose another player at this table."))
    if mark is not None and mark not in Mark.values:
        raise NoteRefused("bad_mark", _("Choose trusted, unsure or suspected."))
    if text is not None:
        text = " ".join(text.split())
        if len(text) > MAX_NOTE_LENGTH:
            raise NoteRefused("note_too_long", _(
                "A note can be at most %(max)s characters long.") % {"max": MAX_NOTE_LENGTH})
        if text and not is_clean_message(text):
            raise NoteRefused("bad_text", _("Use visible letters and signs only."))
    with transaction.atomic():
        note, _made = SeatNote.objects.select_for_update().get_or_create(
            seat=seat, mailbox=seat.mailbox_key, about=about, round=current_round(game))
        if mark is not None:
            note.mark = mark
        if text is not None:
            note.text = text
        note.updated_at = timezone.now()
        note.save()
    return note


def _actions_by_round(view: SeatView, names: Mapping[int, str],
                      viewer: int) -> dict[tuple[int, int], list[str]]:
    """(seat, round) -> the sentences of that seat's action cards in that round."""
    found: dict[tuple[int, int], list[str]] = {}
    round_now = 1
    key_of_names = names_key(names)
    for event in view_log(view):
        if event.get("type") == "round_start":
            round_now = int(event.get("round") or round_now)
        if _is_action(event):
            found.setdefault((int(event["seat"]), round_now), []).append(
                event_sentence(event, names, view["ruleset"], viewer, key_of_names=key_of_names))
    return found


def _is_action(event: LogEvent) -> bool:
    return event.get("seat") is not None and str(event.get("type")) not in NOT_ACTIONS


def sheet_of(seat: Seat, view: SeatView, names: Mapping[int, str]) -> list[SheetRow]:
    """The seat's sheet: every other seat, from `view` (the seat's own) and its notes."""
    labels = dict(Mark.choices)
    notes = {(n.about, n.round): n for n in _mine(seat)}
    actions = _actions_by_round(view, names, seat.number)
    round_now = int(view.get("round") or 1)
    rows = []
    for player in view["players"]:
        number = int(player["seat"])
        if number == seat.number:
            continue
        rounds = []
        for number_of_round in range(round_now, 0, -1):
            note = notes.get((number, number_of_round))
            rounds.append(RoundNotes(
                round=number_of_round, mark=note.mark if note else "",
                mark_label=str(labels[note.mark]) if note and note.mark else "",
                text=note.text if note else "",
                actions=actions.get((number, number_of_round), [])))
        rows.append(SheetRow(number=number, name=seat_name(number, names), now=rounds[0],
                             rounds=rounds))
    return rows


@dataclass(frozen=True)
class NoteShown:
    name: str
    number: int
    mark_label: str
    text: str


def notes_in_round(seat: Seat, round_number: int,
                   names: Mapping[int, str]) -> list[NoteShown]:
    """The seat's own notes of one round (the replay shows them to its player once the
    game is over), in seat order."""
    labels = dict(Mark.choices)
    return [NoteShown(name=seat_name(note.about, names), number=note.about,
                      mark_label=str(labels[note.mark]) if note.mark else "", text=note.text)
            for note in _mine(seat).filter(round=round_number).order_by("about")
            if note.mark or note.text]


def notes_of(address: str) -> list[dict[str, Any]]:
    """A person's notes, for their data export: only what they wrote."""
    key = mailbox_key_hash(address)
    if not key:
        return []
    return [{"game": note.seat.game.public_id, "seat": note.seat.number, "about": note.about,
             "round": note.round, "mark": note.mark, "text": note.text,
             "updated_at": note.updated_at.isoformat()}
            for note in SeatNote.objects.filter(mailbox=key)
            .select_related("seat__game").order_by("seat__game_id", "about", "round")]


def erase_notes_of(address: str) -> int:
    """"Forget me": every note the person wrote."""
    key = mailbox_key_hash(address)
    return SeatNote.objects.filter(mailbox=key).delete()[0] if key else 0
