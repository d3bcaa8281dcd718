"""A reply's commands applied to its seat, through the same services as the page and the
API: one move (`games.play.moves.game_move_submit`, against the version the reply token
was issued for) and a few lines of table talk (`services.post_message`, under the page's limit).

    act(token, seat, lines) -> Result      the outcome and the answer's lines

A reply to an older turn email changes nothing ("the game has moved on"). At most
INBOUND_TALK_LINES "say" lines of one email are posted, each counted by the same rate
limit as the page's talk form; the rest are refused in the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.engine.types import Move, SeatView
from games.inbound.clock_commands import clock_command
from games.inbound.commands import CommandError, Reply, command_error, parse_reply, to_move
from games.models import Game, InboundMail, ReplyToken, Seat
from games.ops import limits
from games.play import moves, services
from games.present import describe, pages, reply_help
from games.present.move_errors import explain
from games.present.recent import view_log

Outcome = InboundMail.Outcome


@dataclass(frozen=True)
class Result:
    outcome: str  # an InboundMail outcome, or "duplicate" (handled before)
    detail: str = ""
    answer: list[str] = field(default_factory=list)  # the answer's lines ([]: none)
    move: Move | None = None


def _language(seat: Seat) -> str:
    return (translation.get_language() or seat.language)[:2]


def _situation(seat: Seat) -> tuple[Game, SeatView, list[Move], dict[int, str]]:
    game = Game.objects.get(pk=seat.game_id)
    state = game.state()
    view = engine.view(state, seat.number)
    mine = game.status == Game.Status.ACTIVE and state.actor == seat.number
    legal = engine.legal_moves(state) if mine else []
    names = dict(pages.seat_names(game))  # today's: commands name the players at the table
    return game, view, legal, names


def options(seat: Seat) -> list[str]:
    """The seat's legal moves written as commands, or why it has none now."""
    _game, view, legal, names = _situation(seat)
    if not legal:
        return [_("It is not your turn now: you will get an email when it is.")]
    return ["", _("Your options:"), *(f"  {line}" for line in
                                       reply_help.options(view, legal, names, _language(seat))),
            "", *reply_help.how_to_reply(view, [], names, _language(seat))]


def act(token: ReplyToken, seat: Seat, lines: list[str]) -> Result:
    clock = clock_command(seat, lines)  # nudge, pause: whatever the version
    if clock is not None:
        return Result(*clock)
    game = Game.objects.get(pk=seat.game_id)
    if game.version != token.version:
        text = _("The game has moved on since the email you answered (it showed version "
                 "%(old)s, the game is now at version %(new)s): nothing was changed.") % {
            "old": token.version, "new": game.version}
        return Result(Outcome.STALE, "stale version", [text, *options(seat)])
    try:
        reply = parse_reply(lines, _language(seat))
    except CommandError as error:
        return _refused(seat, command_error(error))
    said = _talk(seat, reply)
    if reply.move is None:
        if said:
            return Result(Outcome.TALK, "table talk", said)
        return _refused(seat, _("No command was found in your email."))
    _game, view, _legal, names = _situation(seat)
    try:
        move = to_move(reply.move, view, names)
    except CommandError as error:
        return _refused(seat, command_error(error), said)
    return _move(seat, token.version, move, view, names, said)


def _talk(seat: Seat, reply: Reply) -> list[str]:
    """Post the reply's talk lines, at most INBOUND_TALK_LINES and within the talk limit."""
    allowed = max(0, int(settings.INBOUND_TALK_LINES))
    lines = []
    for text in reply.talk[:allowed]:
        try:
            limits.hit("talk_seat", f"seat:{seat.pk}")
            services.post_message(seat, text)
        except limits.Limited as busy:
            lines.append(_("Your message could not be posted: too many messages; try again "
                           "in %(n)s seconds.") % {"n": busy.retry_after})
            break
        except services.ServiceError as refused:
            lines.append(_("Your message could not be posted: %(reason)s") % {
                "reason": refused.message})
        else:
            lines.append(_("Your message was posted to the table: %(text)s") % {"text": text})
    left_out = len(reply.talk) - allowed
    if left_out > 0:
        lines.append(ngettext(
            "%(n)s more line of table talk was not posted: one email holds at most "
            "%(max)s.",
            "%(n)s more lines of table talk were not posted: one email holds at most "
            "%(max)s.", left_out) % {"n": left_out, "max": allowed})
    return lines


def _refused(seat: Seat, reason: str, said: list[str] | None = None) -> Result:
    text = _("Your move was not made: %(reason)s") % {"reason": reason}
    return Result(Outcome.REFUSED, reason, [*(said or []), text, *options(seat)])


def _move(seat: Seat, version: int, move: Move, view: SeatView, names: dict[int, str],
          said: list[str]) -> Result:
    try:
        moves.game_move_submit(actor=moves.BySeat(seat), version=version, move=move)
    except services.StaleVersion as stale:
        return Result(Outcome.STALE, "stale version", [*said, stale.message, *options(seat)])
    except services.ServiceError as refused:
        return _refused(seat, refused.message, said)
    except engine.IllegalMove as illegal:
        return _refused(seat, explain(illegal, view["ruleset"]), said)
    _game, after, legal_after, names = _situation(seat)
    happened = [f"- {describe.event_sentence(event, names, after['ruleset'], seat.number)}"
                for event in view_log(after)[len(view_log(view)):]]
    lines = [*said, _("Your move was made. What happened:"), *happened]
    if legal_after:
        lines += ["", _("It is your turn again."), *options(seat)[1:]]
    return Result(Outcome.MOVED, str(move.get("type")), lines, move)
