"""The turn clock's rules, without side effects: deadlines, reminders, vacations, timeouts.

`games.play.services` uses these when it sets a turn's clock or applies a missed deadline;
`games.play.clock.sweeps` when it sweeps. Keeping them here (pure, small) keeps both honest
about the same arithmetic.

The timeout rule (docs/playing.md "Emails, reminders and deadlines"): when the server
plays for a seat whose deadline passed, it
- passes, discarding the LAST card of the seat's hand as its view lists it. The engine
  appends each drawn card to the end of the hand, so this is the card drawn most
  recently (at the start of a round: the last card dealt). It keeps the cards the
  player has held longest, which are the ones they have had time to plan with.
  With an empty hand it passes without a card. (Saboteur 2 passes name a list of
  cards: the pass is then of that one last card.)
- during the gold hand-out, takes the most valuable gold card offered (the first of
  them in the offered order on a tie): what any player would pick.
- at the end of a Saboteur 2 round, a thief steals from the first player offered
  (the engine lists them in seat order): the thief knows no more than who has a nugget.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta

from games.engine.types import JSON
from games.models import Game, Seat

# Deadlines missed in a row (auto-passed) after which a seat counts as absent.
ABSENT_AFTER_MISSES = 3


def vacation_delay(game: Game, now: datetime,
                   vacations: Mapping[int, datetime | None] | None = None) -> timedelta:
    """How long the clock of the seat to act stays paused: what is left of its vacation.
    `vacations` (seat number -> vacation end), when the caller has read them already."""
    if game.actor is None:
        return timedelta()
    if vacations is not None:
        until = vacations.get(game.actor)
    else:
        until = (Seat.objects.filter(game_id=game.pk, number=game.actor)
                 .values_list("vacation_until", flat=True).first())
    if until is None or until <= now:
        return timedelta()
    return until - now


def reminder_times(deadline: datetime, hours: Iterable[object]) -> list[tuple[int, datetime]]:
    """(hours before, moment) of each configured reminder, latest reminder last."""
    valid = sorted({int(h) for h in hours if isinstance(h, int) and not isinstance(h, bool)
                    and h > 0}, reverse=True)
    return [(h, deadline - timedelta(hours=h)) for h in valid]


def next_reminder_at(deadline: datetime | None, hours: Iterable[object],
                     now: datetime) -> datetime | None:
    """When the reminder sweep should next look at a game whose deadline is `deadline`.

    Reminders already due when the turn starts are skipped (a 12-hour reminder in a
    12-hour turn would arrive together with the turn email).
    """
    if deadline is None:
        return None
    upcoming = [at for _h, at in reminder_times(deadline, hours) if now < at < deadline]
    return min(upcoming, default=None)


def due_reminder(deadline: datetime | None, hours: Iterable[object],
                 now: datetime) -> int | None:
    """The reminder to send now (hours before the deadline), or None.

    If the sweep was down and several are due, only the most urgent one goes out.
    """
    if deadline is None or now >= deadline:
        return None
    due = [h for h, at in reminder_times(deadline, hours) if at <= now]
    return min(due, default=None)


def timeout_move(view: JSON, legal: list[JSON]) -> JSON:
    """The move the server makes for a seat that missed its deadline (see module doc)."""
    if not legal:
        raise ValueError("no legal move to make for the seat")
    wanted: JSON
    if view.get("phase") == "gold" and view.get("gold_offer"):
        best = max(view["gold_offer"], key=lambda g: int(g["value"]))
        wanted = {"type": "pick_gold", "card": best["id"]}
    elif view.get("hand"):
        last = view["hand"][-1]["id"]
        wanted = {"type": "pass", "card": last}
        if any("cards" in m for m in legal if m.get("type") == "pass"):
            wanted = {"type": "pass", "cards": [last]}
    else:
        wanted = {"type": "pass", "card": None}
    for move in legal:
        if all(move.get(k) == v for k, v in wanted.items()):
            return move
    # A ruleset whose moves look different: still a fixed rule, the first pass (or pick)
    # offered, else the first legal move.
    for move in legal:
        if move.get("type") == wanted["type"]:
            return move
    return legal[0]


def set_clock(game: Game, now: datetime,
              vacations: Mapping[int, datetime | None] | None = None) -> None:
    """Start the clock of the turn now beginning (none when nobody is to act)."""
    game.deadline_extension = timedelta()  # moderators' extensions are per turn
    if game.actor is None or game.status != Game.Status.ACTIVE:
        game.turn_started_at = game.deadline_at = None
    else:
        game.turn_started_at = now
        # A seat on vacation: its clock starts when the vacation ends (games.play.clock).
        game.deadline_at = (now + timedelta(hours=game.hours_per_move)
                            + vacation_delay(game, now, vacations))
    game.reminder_at = next_reminder_at(game.deadline_at, game.reminder_hours, now)
