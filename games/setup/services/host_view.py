"""The host's page for a game they set up on the web (games.setup.services.web_setup): who has
accepted, an invitation sent again, the game cancelled before it starts.

It opens with the host's link (the confirmation link's token: only its hash is stored).
It shows names and whether each seat is taken, never a hand, a role, any seat's link or
any address: the addresses the host typed are theirs already, and a seat may have
passed to someone the host never named (a takeover, a moderator's replacement), whose
address is none of the host's business. The host is not a player there (and when they
are, their own seat page is where they play).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.game.core.aliases import holder_name
from games.game.core.game import Game, SeatKind
from games.kit.events import publish
from games.kit.service_errors import SetupError
from games.mail.services import plan
from games.moves.core.turn_events import GameEnded
from games.people.core.mailboxes import mailbox_hash
from games.seats.core.invitations import Invitation, one_at_a_time
from games.seats.core.seat import Seat
from games.setup.services.web_setup import check_caps, pending_game

__all__ = ["HostRow", "cancel_game", "host_game", "host_rows", "resend_invitation"]


def host_game(token: str) -> Game | None:
    """The game whose host's link carries `token` (None when it is wrong)."""
    return pending_game(token)


@dataclass(frozen=True)
class HostRow:
    number: int
    name: str
    bot: bool
    accepted: bool
    # The host may send this seat's invitation again (the game waits for its player).
    can_resend: bool


def host_rows(game: Game) -> list[HostRow]:
    """Each seat as the host sees it: who plays it and whether they have accepted."""
    waiting = game.status == Game.Status.SETUP and game.host_confirmed_at is not None
    rows = []
    for seat in game.seats.order_by("number"):
        bot = seat.kind == SeatKind.BOT
        accepted = bot or seat.accepted
        name = holder_name(game, seat.number, seat.player_name, bot=bot)
        rows.append(HostRow(number=seat.number, name=name, bot=bot, accepted=accepted,
                            can_resend=waiting and not accepted and bool(seat.email)))
    return rows


def resend_invitation(game_id: int, number: int) -> Seat:
    """Email seat `number`'s invitation again (its player's own link, to their address
    only). Counted like any invitation by the setup caps (the host's and the recipient's
    mailbox per day). Raises SetupError when the seat no longer waits or a cap is
    reached."""
    now = timezone.now()
    with transaction.atomic():
        one_at_a_time()
        game = Game.objects.select_for_update().get(pk=game_id)
        seat = game.seats.filter(number=number, kind=SeatKind.PERSON).first()
        if (seat is None or game.status != Game.Status.SETUP or game.host_confirmed_at is None
                or seat.accepted or not seat.email):
            raise SetupError("not_waiting", _("This seat does not wait for an invitation "
                                              "any more."))
        check_caps(game.host_email, [seat.email], new_game=False)
        # A row of its own (no seat: the seat's first invitation keeps its row).
        Invitation.objects.create(recipient_hash=mailbox_hash(seat.email),
                                  host_hash=mailbox_hash(game.host_email), game=game,
                                  created_at=now)
        again = Invitation.objects.filter(game=game, seat__isnull=True,
                                          recipient_hash=mailbox_hash(seat.email)).count()
        plan.queue(plan.invitation(seat, again=again))
    return seat


def cancel_game(game_id: int) -> Game:
    """The host calls off a game that has not started. Raises SetupError once it has."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.SETUP:
            raise SetupError("already_started", _("Only a game that has not started can be "
                                                  "cancelled here."))
        game.status = Game.Status.CANCELLED
        game.save(update_fields=["status", "updated_at"])
        publish(GameEnded(game, timezone.now(), cancelled=True))
    return game
