"""A reply's commands applied to its seat, each line on its own, through the same services
as the page and the API: a move (`games.moves.services.moves.game_move_submit`, against the version
the reply token was issued for), table talk (`services.post_message`, under the page's
limit) and the clock's `nudge` and `pause` (games.inbound.services.clock_commands).

    act(door, lines) -> Result      the outcome and the answer's lines

Each command line is carried out or refused on its own, in the order written, and the
answer names every line with what became of it: a refused line never drops the others.
- One move per email: a reply with two move lines makes neither (which one was meant?).
  A move in a reply to an older email is refused ("the game has moved on").
- At most INBOUND_TALK_LINES `say` lines are posted, each counted by the same rate limit
  as the page's talk form; the rest are refused in one line of the answer.
- `nudge` and `pause` count whatever the version of the email answered.
- At most MAX_COMMANDS other command lines are read; the rest are refused in one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.engine.types import Move, SeatView
from games.game.core.game import Game
from games.inbound.core.commands import (
    Command,
    CommandError,
    Line,
    command_error,
    command_lines,
    to_move,
)
from games.inbound.core.inbound_mail import InboundMail
from games.inbound.services.clock_commands import clock_line
from games.kit import limits
from games.moves.services import moves
from games.moves.services import seat_services as services
from games.notes.core.mark_words import leading_mark
from games.notes.services.sheet import NoteRefused, save_note
from games.seats.core.reply_tokens import ReplyDoor
from games.seats.core.seat import Seat
from games.seatview.core import describe, reply_help
from games.seatview.core.move_errors import explain
from games.seatview.services import holders, pages

Outcome = InboundMail.Outcome
# Command lines other than table talk read in one email (each may lock the game).
MAX_COMMANDS = 10


@dataclass(frozen=True)
class Result:
    outcome: str  # an InboundMail outcome, or "duplicate" (handled before)
    detail: str = ""
    answer: list[str] = field(default_factory=list)  # the answer's lines ([]: none)
    move: Move | None = None


@dataclass(frozen=True)
class Step:
    """What became of one command line (`kind`: move, talk or clock): an InboundMail
    outcome, a short detail for the record, the answer's sentence and any lines after it
    (what a move made happen)."""

    kind: str
    outcome: str
    detail: str
    sentence: str
    more: list[str] = field(default_factory=list)
    move: Move | None = None
    after: _Situation | None = None  # a move made: the seat's situation after it


def _language(seat: Seat) -> str:
    return (translation.get_language() or seat.language)[:2]


@dataclass(frozen=True)
class _Situation:
    """What the seat sees and may do: its view, its legal moves (none unless it is its
    turn in an active game) and today's names at the table (commands name players)."""

    view: SeatView
    legal: list[Move]
    names: dict[int, str]


def _situation(seat: Seat) -> _Situation:
    """The seat's situation as the game is now (read: after a refused command)."""
    game = Game.objects.get(pk=seat.game_id)
    state = game.state()
    mine = game.status == Game.Status.ACTIVE and state.actor == seat.number
    return _Situation(engine.view(state, seat.number),
                      engine.legal_moves(state) if mine else [],
                      dict(pages.seat_names(game)))


def _situation_after(moved: moves.Moved, seat: Seat, names: dict[int, str]) -> _Situation:
    """The seat's situation after its move, from the move's report (nothing read again)."""
    state = moved.state  # the whole state: a MoveReader reads the move with the log
    mine = moved.game.status == Game.Status.ACTIVE and state.actor == seat.number
    return _Situation(engine.view(state, seat.number),
                      engine.legal_moves(state) if mine else [], names)


def options(seat: Seat, situation: _Situation | None = None) -> list[str]:
    """The seat's legal moves written as commands, or why it has none now (`situation`:
    as a move's report left it; else the game is read)."""
    now = situation if situation is not None else _situation(seat)
    if not now.legal:
        return [_("It is not your turn now: you will get an email when it is.")]
    language = _language(seat)
    return ["", _("Your options:"), *(f"  {line}" for line in reply_help.options(
        now.view, now.legal, now.names, language)),
            "", *reply_help.how_to_reply(now.view, [], now.names, language)]


def act(door: ReplyDoor, lines: list[str]) -> Result:
    seat = door.seat
    read = command_lines(lines, _language(seat))
    if not read:
        text = _("Your move was not made: %(reason)s") % {
            "reason": _("No command was found in your email.")}
        return Result(Outcome.REFUSED, text, [text, *options(seat)])
    several_moves = sum(1 for line in read if line.is_move) > 1
    talk = _Talk(seat)
    answer: list[str] = []
    steps: list[Step] = []
    commands = skipped = 0
    for line in read:
        if line.verb == "say":
            step = talk.post(line)
        elif commands >= MAX_COMMANDS:
            skipped += 1
            continue
        elif line.verb == "note":
            commands += 1
            step = _note_line(seat, line)
        elif line.verb in ("nudge", "pause"):
            commands += 1
            done = clock_line(seat.pk, line)
            step = Step("clock", Outcome.TALK if done.ok else Outcome.REFUSED, done.code,
                        done.sentence)
        else:
            commands += 1
            step = _move_line(door, line, several=several_moves)
        if step is not None:
            steps.append(step)
            answer += [_("“%(line)s”: %(outcome)s") % {"line": line.text,
                                                       "outcome": step.sentence}, *step.more]
    answer += talk.left_out() + _skipped(skipped)
    return _result(seat, steps, answer)


def _result(seat: Seat, steps: list[Step], answer: list[str]) -> Result:
    """The whole email's outcome: a move made, else a move refused for an older email,
    else any line refused, else talk (and the clock's commands); the move's aftermath."""
    made = next((step for step in steps if step.outcome == Outcome.MOVED), None)
    outcomes = {step.outcome for step in steps}
    outcome = (Outcome.MOVED if made else Outcome.STALE if Outcome.STALE in outcomes
               else Outcome.REFUSED if Outcome.REFUSED in outcomes else Outcome.TALK)
    detail = made.detail if made is not None else "; ".join(step.detail for step in steps)
    if made is not None:
        if made.after is not None and made.after.legal:
            answer += ["", _("It is your turn again."), *options(seat, made.after)[1:]]
    elif any(step.kind == "move" for step in steps):  # a move refused: what it could be
        answer += options(seat)
    return Result(outcome, detail, answer, made.move if made else None)


def _move_line(door: ReplyDoor, line: Line, *, several: bool) -> Step:
    """The reply's move, if it is its only one, against the version its email showed."""
    if several:
        return _not_made(command_error(CommandError("two_moves")))
    if line.command is None:
        return _not_made(command_error(line.error or CommandError("unknown")))
    return _submit(door.seat, door.version, _CommandReader(line.command, door.seat.game))


def _note_line(seat: Seat, line: Line) -> Step:
    """A private note (games.notes): the answer goes to the seat's own address only; the
    record keeps no word of it."""
    if line.command is None:
        reason = command_error(line.error or CommandError("unknown"))
        return Step("note", Outcome.REFUSED, "note refused", reason)
    mark, text = leading_mark(line.command.text)
    try:
        save_note(seat, line.command.numbers[0], mark=mark, text=text or None)
    except NoteRefused as refused:
        return Step("note", Outcome.REFUSED, "note refused", refused.message)
    return Step("note", Outcome.TALK, "note kept",
                _("Noted on your private sheet: only you can see it."))


def _not_made(reason: str) -> Step:
    return Step("move", Outcome.REFUSED, reason,
                _("Your move was not made: %(reason)s") % {"reason": reason})


class _CommandReader:
    """The move a command names, read against the seat's view at the version its email
    showed (under the move's lock: games.moves.services.moves.MoveReader); it keeps what
    it read, for the answer's words."""

    def __init__(self, command: Command, game: Game) -> None:
        self.command = command
        self.game = game  # its aliases name the players at an anonymous table
        self.view: SeatView | None = None
        self.names: dict[int, str] = {}
        self.move: Move | None = None

    def __call__(self, view: SeatView, players: list[moves.Player]) -> Move:
        self.view = view
        self.names = holders.today_names(self.game, players)
        self.move = to_move(self.command, view, self.names)
        return self.move


def _submit(seat: Seat, version: int, reader: _CommandReader) -> Step:
    try:
        moved = moves.game_move_submit(actor=moves.BySeat(seat), version=version,
                                       move=reader)
    except services.StaleVersion as stale:
        return Step("move", Outcome.STALE, "stale version", _(
            "Your move was not made: the game has moved on since the email you answered (it "
            "showed version %(old)s, the game is now at version %(new)s).") % {
            "old": stale.expected, "new": stale.current})
    except CommandError as error:
        return _not_made(command_error(error))
    except services.ServiceError as refused:
        return _not_made(refused.message)
    except engine.IllegalMove as illegal:
        assert reader.view is not None  # the engine judged the move the command named
        return _not_made(explain(illegal, reader.view["ruleset"]))
    assert reader.move is not None
    ruleset = moved.state.ruleset
    happened = [f"- {describe.event_sentence(event, reader.names, ruleset, seat.number)}"
                for event in moved.told(seat.number)]
    return Step("move", Outcome.MOVED, str(reader.move.get("type")),
                _("Your move was made. What happened:"), happened, reader.move,
                _situation_after(moved, seat, reader.names))


class _Talk:
    """The reply's `say` lines: at most INBOUND_TALK_LINES posted, each within the talk
    limit (once it is reached, the email's further lines are refused without asking)."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.allowed = max(0, int(settings.INBOUND_TALK_LINES))
        self.tried = 0
        self.beyond = 0
        self.busy = ""

    def post(self, line: Line) -> Step | None:
        """The line posted or refused; None past the email's limit (told by left_out)."""
        if self.tried >= self.allowed:
            self.beyond += 1
            return None
        self.tried += 1
        text = line.command.text if line.command is not None else ""
        if not self.busy:
            try:
                limits.hit("talk_seat", f"seat:{self.seat.pk}")
                services.post_message(self.seat, text)
            except limits.Limited as busy:
                self.busy = _("Your message could not be posted: too many messages; try "
                              "again in %(n)s seconds.") % {"n": busy.retry_after}
            except services.ServiceError as refused:
                return Step("talk", Outcome.REFUSED, "talk refused", _(
                    "Your message could not be posted: %(reason)s") % {
                    "reason": refused.message})
            else:
                return Step("talk", Outcome.TALK, "table talk", _("Posted to the table."))
        return Step("talk", Outcome.REFUSED, "talk limit", self.busy)

    def left_out(self) -> list[str]:
        if not self.beyond:
            return []
        return [ngettext(
            "%(n)s more line of table talk was not posted: one email holds at most "
            "%(max)s.",
            "%(n)s more lines of table talk were not posted: one email holds at most "
            "%(max)s.", self.beyond) % {"n": self.beyond, "max": self.allowed}]


def _skipped(count: int) -> list[str]:
    if not count:
        return []
    return [ngettext(
        "%(n)s more command line was not read: one email holds at most %(max)s besides "
        "table talk.",
        "%(n)s more command lines were not read: one email holds at most %(max)s besides "
        "table talk.", count) % {"n": count, "max": MAX_COMMANDS}]
