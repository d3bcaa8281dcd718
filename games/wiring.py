"""Who listens to what, and who writes which letter: every subscription to a feature's
events (games.kit.events) and every feature's letters, in one list, made when Django
starts (games.apps). A feature publishes what happened; the features above it that care
listen here, so a lower feature never imports a higher one."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save

from games.challenges.doors import challenge_letters
from games.clock.core.clock_events import DeadlineMissed, PauseProposed, TurnNudged
from games.clock.services import misses, turn_clock
from games.game.core.talk_and_notices import Message
from games.handover.doors import handover_letters
from games.handover.services import opening
from games.home.doors import home_letters
from games.kit.events import subscribe
from games.mail.core.letter_parts import add_part
from games.mail.core.letter_registry import register_letters, registered_kinds
from games.mail.core.mail_events import NotificationsPlanned
from games.mail.core.notifications import Notification
from games.mail.doors import mail_letters
from games.mail.services import clock_mail, former_holders, plan, talk_mail
from games.moderation.doors import dispute_letters
from games.moves.core.talk_events import TalkPosted
from games.moves.core.turn_events import (
    GameEnded,
    MovesUndone,
    RoundEnded,
    TurnBeginning,
    TurnEnding,
)
from games.push.services import planning as push_planning
from games.push.services import talk_alerts
from games.ratings.doors import rating_letters
from games.ratings.services import rating_outbox
from games.seats.core.seat_events import HolderChanged, SeatAccepted
from games.setup.services import game_setup
from games.tables.doors import table_letters
from games.talk.core.mention_events import Mentioned
from games.talk.services import reading
from games.tournaments.doors import event_letters
from games.tournaments.services import table_ends


def wire() -> None:
    # Every feature's letters, by kind, for the sender (games.mail.services.send).
    for letters in (mail_letters, dispute_letters, handover_letters, table_letters,
                    home_letters, challenge_letters, event_letters):
        register_letters(letters.LETTERS)
    unwritten = set(Notification.Kind.values) - registered_kinds()
    if unwritten:  # a kind no letter writes would be planned and never sent
        raise RuntimeError(f"no letter for the kinds {sorted(unwritten)}")
    # Accepted through an invitation: the own link by email, then the game may start.
    subscribe(SeatAccepted, plan.own_link_after_invitation)
    subscribe(SeatAccepted, game_setup.start_when_every_seat_accepted)
    # A seat changed hands: what was planned for its holder before never reaches them.
    subscribe(HolderChanged, former_holders.on_holder_changed)
    # An open seat a moderator gave to a person (or back to its player) stops looking.
    subscribe(HolderChanged, opening.on_holder_changed)
    # Another person took the seat in its running turn: a whole turn, under their settings.
    subscribe(HolderChanged, turn_clock.on_holder_changed)
    # The clock's emails.
    subscribe(TurnNudged, clock_mail.on_nudged)
    subscribe(PauseProposed, clock_mail.on_pause_proposed)
    subscribe(DeadlineMissed, clock_mail.on_deadline_missed)
    # A move ends a turn and begins the next: the clock keeps the banks and deadlines.
    subscribe(TurnEnding, turn_clock.on_turn_ending)
    subscribe(TurnBeginning, turn_clock.on_turn_beginning)
    # A round of a rated game ended: the ratings' outbox row, written with the move.
    subscribe(RoundEnded, rating_outbox.on_round_ended)
    # A game ended: its tournament table ends with it, the standings at once; a deadline
    # missed by the move that ended it counts as the no-show it is.
    subscribe(GameEnded, table_ends.on_game_ended)
    subscribe(DeadlineMissed, table_ends.on_deadline_missed)
    # A moderator's undo took the game's end back: its table opens again, unless the
    # event has moved on. (The ratings need nothing: games.ratings.services.rating_outbox.)
    subscribe(MovesUndone, table_ends.on_moves_undone)
    # The deadlines missed in the undone turns leave their people's records: after the
    # table above read them to take back the no-shows its close counted.
    subscribe(MovesUndone, misses.on_moves_undone)
    # The round's end told by email: what it did to the ratings, once it is rated.
    add_part(rating_outbox.ROUND_LETTERS, rating_letters.rating_part,
             rating_letters.rating_pending)
    # Emails planned: a push beside each of the kinds a person's devices want.
    subscribe(NotificationsPlanned, push_planning.on_notifications_planned)
    subscribe(TalkPosted, talk_alerts.on_talk_posted)  # a line of talk: alerts too
    # A new talk line: its `@name` calls (games.talk), told by email (games.mail).
    post_save.connect(_line_posted, sender=Message, dispatch_uid="talk-line-posted")
    subscribe(Mentioned, talk_mail.on_mentioned)


def _line_posted(sender: type[Message], instance: Message, **saved: Any) -> None:
    """Django's post_save of a talk line, whoever wrote it (the page, the API, a reply);
    not a fixture's (`raw`)."""
    if saved.get("created") and not saved.get("raw"):
        reading.after_line_posted(instance)
