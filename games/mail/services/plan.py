"""Which emails a change causes: Notification rows with unique keys, written before sending
(games.mail.services.notification_rows), sent after the commit (games.mail.services.send).

A key names one email for good, so writing it twice (a task run twice, two sweeps, a
retried hook) finds the row already there and sends nothing more:

    invitation:seat=12:link=<hash of the link's salt>  (a new link is a new invitation)
    turn:seat=12:v41.9876                        reminder:seat=12:v41.9876:h=1:d=<deadline>
    missed:seat=12:v41.9876                      round_end:seat=12:r=2       game_end:seat=12
    digest:<hash of the address>:2026-11-22      mod_alert:absent:seat=12:v41.9876:to=<hash>
    pause:seat=12:by=2:at=<when it was proposed>

(A reminder that is not whole hours before the deadline, in a short turn: `m=30`.)

`v41.9876` names a turn: the game's version and the id of the Move row that made it.
After a moderator's undo the same version comes back with a new Move row, so the
replayed turn gets its own emails.

Planning is convergent: `after_move` looks at the game as it is (not at what the move
was) and creates whatever rows are missing, so a missed or late hook catches up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import date, datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from games.clock.core import rules as clock_rules
from games.game.core.game import EmailMode, Game, Move
from games.kit.events import publish
from games.mail.core import seen_turns
from games.mail.core.mail_events import NotificationsPlanned
from games.mail.core.notifications import Notification
from games.mail.services.notification_rows import (
    WANTED_BY,
    Spec,
    address_hash,
    create,
    moderator_addresses,
    moderator_alert,
    wants,
    written,
)
from games.mail.services.send import send_after_commit
from games.people.core.mailbox_keys import of_mailbox
from games.seats.core.seat import Seat
from games.seats.core.seat_events import SeatAccepted

__all__ = ["WANTED_BY", "Spec", "address_hash", "create", "moderator_addresses",
           "moderator_alert", "queue", "wants"]

Kind = Notification.Kind

def turn_tag(game_id: int, version: int) -> str:
    move_id = (_the_move(game_id, version).values_list("pk", flat=True).first())
    return _tag(version, move_id)


def _the_move(game_id: int, version: int) -> QuerySet[Move]:
    """The Move row that made `version` (one at most): no ordering, so no join to the game
    that Move's default ordering would add."""
    return Move.objects.filter(game_id=game_id, number=version).order_by("pk")


def _tag(version: int, move_id: int | None) -> str:
    return f"v{version}.{move_id or 0}"


def told_this_turn(seat: Seat, tag: str) -> bool:
    """Whether the seat's player now (their mailbox) has had a turn email for the turn
    `tag` names already: at most one turn email per seat and turn reaches a person."""
    key = f"turn:seat={seat.pk}:{tag}"
    return bool(seat.email) and Notification.objects.filter(
        Q(key=key) | Q(key__startswith=key + ":"), of_mailbox(seat.email, "to_key"),
        kind=Kind.TURN, seat_id=seat.pk).exists()


def queue(specs: Sequence[Spec]) -> list[int]:
    """Create the missing rows and send them after the commit."""
    notes = written(specs)
    ids = [note.pk for note in notes]
    send_after_commit(ids)
    if notes:  # other channels plan theirs beside them (games.push, through games.wiring)
        publish(NotificationsPlanned(tuple(notes)))
    return ids


# Held until the end of the seat's quiet hours (games.clock.services.quiet_hours).
QUIET_KINDS = {Kind.TURN, Kind.REMINDER, Kind.NUDGE, Kind.PAUSE, Kind.MENTION}


def _seat_spec(kind: str, key: str, seat: Seat, **params: Any) -> Spec:
    held = clock_rules.quiet_until(seat, timezone.now()) if kind in QUIET_KINDS else None
    return Spec(key=key, kind=kind, to_email=seat.email, game_id=seat.game_id,
                seat_id=seat.pk, params=params, not_before=held)


# ---- what each event causes -------------------------------------------------------------


def invitation(seat: Seat, again: int = 0) -> list[Spec]:
    """The seat's invitation; `again` > 0: the host sent it again (that many times)."""
    link = hashlib.sha256(seat.link_salt.encode()).hexdigest()[:12]
    if not wants(seat, Kind.INVITATION):
        return []
    key = f"invitation:seat={seat.pk}:link={link}" + (f":again={again}" if again else "")
    return [_seat_spec(Kind.INVITATION, key, seat)]


def after_move(game_id: int, version: int) -> list[Spec]:
    """Round and game results once settled, then the turn email for the seat now to act:
    in that order, which is the order a player reads them in (games.mail.services.send sends a
    game's emails to a person in the order their rows were written)."""
    game = Game.objects.get(pk=game_id)
    return after_move_of(game, {s.number: s for s in game.seats.all()}, version)


def after_move_of(game: Game, seats: dict[int, Seat], version: int) -> list[Spec]:
    """`after_move` of a game and its seats by number that the caller read already (the
    follow-up reads a whole batch's at once: `games_and_seats`)."""
    return results(game, seats) + turn_email(game, seats, version)


def games_and_seats(game_ids: Collection[int]) -> dict[int, tuple[Game, dict[int, Seat]]]:
    """The games and each one's seats by number, in two queries however many games; each
    seat's game is the one read here (no query when the planning names it)."""
    games = {game.pk: game for game in Game.objects.filter(pk__in=list(game_ids)).order_by()}
    seats: dict[int, dict[int, Seat]] = {game_id: {} for game_id in games}
    # In number order (as `game.seats` reads them), without the join to the game that
    # Seat's default ordering would add.
    for seat in Seat.objects.filter(game_id__in=list(games)).order_by("number"):
        seat.game = games[seat.game_id]
        seats[seat.game_id][seat.number] = seat
    return {game_id: (game, seats[game_id]) for game_id, game in games.items()}


def turn_email(game: Game, seats: dict[int, Seat], version: int) -> list[Spec]:
    if (game.status != Game.Status.ACTIVE or game.version != version or game.actor is None
            or game.actor not in seats):
        return []
    # The move that made this version: who made it, and its id, which names the turn.
    move_id, made_by = None, None
    if version > 0:
        move = _the_move(game.pk, version).values_list("pk", "actor_kind", "seat_number").first()
        if move is not None:
            move_id, made_by = move[0], (move[1], move[2])
    if game.snapshot.get("phase") == "play" and made_by == (Move.Actor.SEAT, game.actor):
        return []  # the same seat goes on (it is on its page right now)
    seat = seats[game.actor]
    if not wants(seat, Kind.TURN):
        return []
    tag = _tag(version, move_id)
    if told_this_turn(seat, tag):  # a change of hands told them already
        return []
    spec = _seat_spec(Kind.TURN, f"turn:seat={seat.pk}:{tag}", seat, version=version)
    # The player may be looking at the game: the email waits to see (games.mail.core.seen_turns).
    looking = seen_turns.wait_when_planned(seat, timezone.now())
    held = [t for t in (spec.not_before, looking) if t is not None]
    return [replace(spec, not_before=max(held, default=None))]


def results(game: Game, seats: dict[int, Seat]) -> list[Spec]:
    """Round ends once the round's gold is handed out (the next round has begun; the
    last round is told in the game-end email), and the game end."""
    if game.status != Game.Status.FINISHED and game.snapshot.get("round", 2) <= 1:
        return []  # nothing is settled during round 1: skip reading the log
    state = game.state_without_log()
    # The rounds whose result the log holds (a view's round_results: its round_end
    # events) before the round being played; no view is built for that.
    settled = [event["round"] for event in game.full_log()
               if event["type"] == "round_end" and event["round"] < state.round]
    specs = []
    for seat in seats.values():
        if wants(seat, Kind.ROUND_END):
            specs += [_seat_spec(Kind.ROUND_END, f"round_end:seat={seat.pk}:r={r}", seat,
                                 round=r) for r in settled]
        if state.finished and wants(seat, Kind.GAME_END):
            specs.append(_seat_spec(Kind.GAME_END, f"game_end:seat={seat.pk}", seat))
    return specs


def reminder(game: Game, seat: Seat, minutes: int, *, last: bool) -> list[Spec]:
    """The reminder `minutes` before the deadline; `last`: the final one before it
    (digest players get only that one)."""
    if not wants(seat, Kind.REMINDER) or game.deadline_at is None:
        return []
    if seat.email_mode == EmailMode.DAILY_DIGEST and not last:
        return []
    tag = turn_tag(game.pk, game.version)
    stamp = int(game.deadline_at.timestamp())
    before = f"h={minutes // 60}" if minutes % 60 == 0 else f"m={minutes}"
    key = f"reminder:seat={seat.pk}:{tag}:{before}:d={stamp}"
    spec = _seat_spec(Kind.REMINDER, key, seat, version=game.version, minutes=minutes)
    # Quiet hours hold it only while it can still come before the deadline.
    held = clock_rules.reminder_held_until(seat, timezone.now(), game.deadline_at)
    return [replace(spec, not_before=held)]


def nudge(game: Game, seat: Seat, by: Seat) -> list[Spec]:
    """The one short email of a nudge (once per turn: the key names the turn)."""
    if not wants(seat, Kind.NUDGE):
        return []
    key = f"nudge:seat={seat.pk}:{turn_tag(game.pk, game.version)}"
    return [_seat_spec(Kind.NUDGE, key, seat, version=game.version, by=by.number)]


def mention(seat: Seat, message_id: int) -> list[Spec]:
    """The email of a talk line calling the seat's player by `@name` (games.talk limits
    them to one an hour a game)."""
    if not wants(seat, Kind.MENTION):
        return []
    return [_seat_spec(Kind.MENTION, f"mention:seat={seat.pk}:line={message_id}", seat,
                       line=message_id)]


def pause_proposal(game: Game, seat: Seat) -> list[Spec]:
    """The table's pause proposal, to a player who has not agreed yet: one per seat and
    proposal (the key names the proposer and the moment it was made)."""
    pause = game.pause or {}
    if not wants(seat, Kind.PAUSE) or not pause.get("proposed_at"):
        return []
    stamp = pause["proposed_at"]
    key = f"pause:seat={seat.pk}:by={pause.get('by')}:at={stamp}"
    return [_seat_spec(Kind.PAUSE, key, seat, proposed_at=stamp)]


def deadline_missed(game: Game, seat: Seat, version: int, absent_after: int) -> list[Spec]:
    """The missed-deadline email, and the moderators' alert when the game waits or the
    seat has just been marked absent."""
    tag = turn_tag(game.pk, version)
    absent = seat.absent_since is not None
    specs = []
    if wants(seat, Kind.MISSED):
        specs.append(_seat_spec(Kind.MISSED, f"missed:seat={seat.pk}:{tag}", seat,
                                policy=game.timeout_policy, missed=seat.missed_turns,
                                absent=absent, absent_after=absent_after))
    if game.timeout_policy == "wait":
        specs += moderator_alert("waiting", game, seat, tag)
    elif absent and seat.missed_turns == absent_after:
        specs += moderator_alert("absent", game, seat, tag, missed=seat.missed_turns)
    return specs


def digest(address: str, seat: Seat, local_day: date) -> list[Spec]:
    """One digest per address and local day; `seat` gives its language and time zone."""
    key = f"digest:{address_hash(address)}:{local_day.isoformat()}"
    return [Spec(key=key, kind=Kind.DIGEST, to_email=address, seat_id=seat.pk,
                 params={"day": local_day.isoformat()})]


# ---- moderators -------------------------------------------------------------------------


def email_problem(seat: Seat, event: str, when: datetime) -> list[Spec]:
    """A bounce or complaint for a seat's address: the moderators hear of it once a day."""
    return moderator_alert("email", seat.game, seat, f"d{when.date().isoformat()}",
                           event=event, address=seat.email)


def own_links(address: str, seats: Sequence[Seat], reason: str, tag: str) -> list[Spec]:
    """One email to `address` with its own links to `seats` (games.mail.doors.link_letters):
    `reason` is "accepted", "rotated" or "asked"; `tag` makes the key (one email per tag)."""
    if not seats or not address:
        return []
    first = seats[0]
    return [Spec(key=f"links:{address_hash(address)}:{reason}:{tag}", kind=Kind.LINKS,
                 to_email=address, game_id=first.game_id if len(seats) == 1 else None,
                 seat_id=first.pk, params={"seats": [s.pk for s in seats], "reason": reason})]


def confirm_setup(game: Game, host: str, language: str = "") -> list[Spec]:
    """The host's "confirm your game" email (games.mail.doors.link_letters): one per game, in
    the language of the page the host set it up on (it went out in English)."""
    return [Spec(key=f"confirm_setup:game={game.pk}", kind=Kind.CONFIRM_SETUP, to_email=host,
                 game_id=game.pk, params={"language": language} if language else {})]


def own_link_after_invitation(event: SeatAccepted) -> None:
    """Accepted through the host's invitation link: the player's own link goes to the
    seat's address, and only there (games.wiring)."""
    if event.by_invitation:
        seat = event.seat
        queue(own_links(seat.email, [seat], "accepted", f"seat={seat.pk}"))

