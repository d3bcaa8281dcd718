"""Moves by email: one inbound message through the same move service as the page and
the API (`services.submit_move`, with the version from the reply token).

    receive(incoming) -> Result

Silently dropped (no row, no answer): auto-replies, bounces and list mail, and
replies with no words of their own. Then the message is recorded once (its
Message-ID and provider event id are unique: a second delivery is a `duplicate`).
A token we do not know gets no answer (the From address is not trusted, and answering
it would make us a spam relay). Everything else gets an answer email, to the seat's own
address (it shows the hand; the From is not trusted): the move made
and what followed, or why nothing was done with the legal options listed; at most
INBOUND_ANSWERS_PER_HOUR answers per sender and hour.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import engine
from games.engine.types import JSON
from games.mail.inbound import answer, tokens
from games.mail.inbound.commands import CommandError, Reply, parse_reply, to_move
from games.mail.inbound.incoming import Incoming
from games.mail.inbound.text import is_automatic, reply_lines
from games.models import Game, InboundMail, ReplyToken, Seat
from games.play import services
from games.present import describe, pages
from games.present.move_errors import explain

log = logging.getLogger("games.inbound")
Outcome = InboundMail.Outcome


@dataclass(frozen=True)
class Result:
    outcome: str  # an InboundMail outcome, or "dropped" / "duplicate"
    detail: str = ""
    answer: list[str] = field(default_factory=list)  # the answer's lines ([]: none sent)
    move: JSON | None = None


def receive(incoming: Incoming) -> Result:
    if is_automatic(incoming.headers, incoming.sender):
        return Result("dropped", "an automatic message (auto-reply, bounce or list mail)")
    lines = reply_lines(incoming.text)
    if not lines:
        return Result("dropped", "no words above the quoted text")
    record = _claim(incoming)
    if record is None:
        return Result("duplicate", "this message was handled before")
    token = tokens.find(incoming.recipients)
    if token is None:
        _finish(record, Result(Outcome.UNKNOWN_TOKEN, "no reply token of ours"))
        return Result(Outcome.UNKNOWN_TOKEN, "no reply token of ours")
    seat = token.seat
    record.seat, record.game_id = seat, token.game_id
    record.from_mismatch = incoming.sender.strip().lower() != seat.email.strip().lower()
    with translation.override(seat.language):
        result = _act(token, seat, lines)
        if result.answer and _may_answer(incoming.sender):
            # To the seat's own address: an answer shows the hand, the From is not trusted.
            answer.send(seat.email, incoming, result.answer, _next_reply_to(seat))
            record.answered = True
        elif result.answer:
            result = Result(result.outcome, result.detail + " (answer limit reached)",
                            [], result.move)
    _finish(record, result)
    return result


def _claim(incoming: Incoming) -> InboundMail | None:
    """The message's row, or None when one with its Message-ID or event id exists."""
    try:
        with transaction.atomic():
            return InboundMail.objects.create(message_id=incoming.message_id,
                                              event_id=incoming.event_id,
                                              sender=incoming.sender.strip().lower()[:254])
    except IntegrityError:
        return None


def _finish(record: InboundMail, result: Result) -> None:
    record.outcome = result.outcome
    record.detail = result.detail[:2000]
    record.save()


def _may_answer(sender: str) -> bool:
    since = timezone.now() - timedelta(hours=1)
    sent = InboundMail.objects.filter(sender=sender.strip().lower(), answered=True,
                                      received_at__gte=since).count()
    return sent < settings.INBOUND_ANSWERS_PER_HOUR


def _next_reply_to(seat: Seat) -> str | None:
    """A fresh token when the answer's reader is (still, or again) to act."""
    game = Game.objects.get(pk=seat.game_id)
    if game.status == Game.Status.ACTIVE and game.actor == seat.number:
        return tokens.issue(seat, game.version)
    return None


def _language(seat: Seat) -> str:
    return (translation.get_language() or seat.language)[:2]


def _situation(seat: Seat) -> tuple[Game, JSON, list[JSON], dict[int, str]]:
    game = Game.objects.get(pk=seat.game_id)
    state = game.state()
    view = engine.view(state, seat.number)
    mine = game.status == Game.Status.ACTIVE and state.actor == seat.number
    legal = engine.legal_moves(state) if mine else []
    names = pages.seat_names(game)
    return game, view, legal, names


def _options(seat: Seat) -> list[str]:
    game, view, legal, names = _situation(seat)
    if not legal:
        return [_("It is not your turn now: you will get an email when it is.")]
    return ["", _("Your options:"), *(f"  {line}" for line in
                                       answer.options(view, legal, names, _language(seat))),
            "", *answer.how_to_reply(view, [], names, _language(seat))]


def _act(token: ReplyToken, seat: Seat, lines: list[str]) -> Result:
    game = Game.objects.get(pk=seat.game_id)
    if game.version != token.version:
        text = _("The game has moved on since the email you answered (it showed version "
                 "%(old)s, the game is now at version %(new)s): nothing was changed.") % {
            "old": token.version, "new": game.version}
        return Result(Outcome.STALE, "stale version", [text, *_options(seat)])
    try:
        reply = parse_reply(lines)
    except CommandError as error:
        return _refused(seat, answer.command_error(error))
    said = _talk(seat, reply)
    if reply.move is None:
        if said:
            return Result(Outcome.TALK, "table talk", said)
        return _refused(seat, _("No command was found in your email."))
    _game, view, _legal, names = _situation(seat)
    try:
        move = to_move(reply.move, view, names)
    except CommandError as error:
        return _refused(seat, answer.command_error(error), said)
    return _move(seat, token.version, move, view, names, said)


def _talk(seat: Seat, reply: Reply) -> list[str]:
    lines = []
    for text in reply.talk:
        try:
            services.post_message(seat, text)
        except services.ServiceError as refused:
            lines.append(_("Your message could not be posted: %(reason)s") % {
                "reason": refused.message})
        else:
            lines.append(_("Your message was posted to the table: %(text)s") % {"text": text})
    return lines


def _refused(seat: Seat, reason: str, said: list[str] | None = None) -> Result:
    text = _("Your move was not made: %(reason)s") % {"reason": reason}
    return Result(Outcome.REFUSED, reason, [*(said or []), text, *_options(seat)])


def _move(seat: Seat, version: int, move: JSON, view: JSON, names: dict[int, str],
          said: list[str]) -> Result:
    seat.game = Game.objects.get(pk=seat.game_id)
    try:
        services.submit_move(seat, version, move)
    except services.StaleVersion as stale:
        return Result(Outcome.STALE, "stale version", [*said, stale.message, *_options(seat)])
    except services.ServiceError as refused:
        return _refused(seat, refused.message, said)
    except engine.IllegalMove as illegal:
        return _refused(seat, explain(illegal, view["ruleset"]), said)
    _game, after, legal_after, names = _situation(seat)
    happened = [f"- {describe.event_sentence(event, names, after['ruleset'], seat.number)}"
                for event in after["log"][len(view["log"]):]]
    lines = [*said, _("Your move was made. What happened:"), *happened]
    if legal_after:
        lines += ["", _("It is your turn again."), *_options(seat)[1:]]
    return Result(Outcome.MOVED, str(move.get("type")), lines, move)
