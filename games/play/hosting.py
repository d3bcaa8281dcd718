"""Setting up games on the web page, abuse-proof (README "Setting up a game").

The page is open to anyone, so it must not make the server email strangers for them:
- the host gives their own address and confirms it through a link emailed there before
  any invitation leaves (the confirmation email carries none of the host's text);
- per client address, a few setups an hour (games.play.limits); per host address per
  day, a few games and a bounded number of invitations; per recipient per day, a few
  invitations whoever sends them;
- a recipient who unsubscribes from a host's invitation is never invited by that host
  again;
- SETUP = "closed" turns the page off: only `manage.py creategame` and moderators then.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.mail import plan
from games.models import Game, HostBlock, Notification, Seat, SeatKind
from games.models.links import confirm_token, hash_token, new_invitation, seat_link
from games.play import limits
from games.play.errors import SetupError
from games.play.setup import CreatedGame, PlayerSpec, create_game, invite_seat, start_game

DAY = timedelta(days=1)


def address_hash(address: str) -> str:
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()


def request_game(*, host_email: str, client: str, players: Sequence[PlayerSpec],
                 start: bool, **game: Any) -> Game:
    """A game waiting for its host to confirm their address; nothing goes to the players
    yet. Raises SetupError (refused, with the reason) or limits.Limited (too many)."""
    if settings.SETUP != "open":
        raise SetupError("setup_closed", _("Setting up games on this site is closed; ask "
                                           "its operator."))
    host_email = host_email.strip()
    limits.hit("setup_client", client)
    _check_host(host_email, players)
    with transaction.atomic():
        made = create_game(players=players, start=False, invite=False, **game)
        made.game.host_email = host_email
        made.game.start_when_confirmed = start
        made.game.host_token_hash = hash_token(confirm_token(made.game))
        made.game.save(update_fields=["host_email", "start_when_confirmed", "host_token_hash"])
        plan.queue(plan.confirm_setup(made.game, host_email))
    return made.game


def _check_host(host: str, players: Sequence[PlayerSpec]) -> None:
    since = timezone.now() - DAY
    games_today = Game.objects.filter(host_email__iexact=host, created_at__gte=since).count()
    if games_today >= settings.SETUP_GAMES_PER_HOST_PER_DAY:
        raise SetupError("host_limit", _("This address has set up as many games today as one "
                                         "address may; try again tomorrow."))
    people = [p for p in players if not p.bot]
    invited = Seat.objects.filter(game__host_email__iexact=host, kind=SeatKind.PERSON,
                                  game__created_at__gte=since).count()
    if invited + len(people) > settings.SETUP_INVITATIONS_PER_HOST_PER_DAY:
        raise SetupError("host_limit", _("This address has invited as many players today as "
                                         "one address may; try again tomorrow."))
    host_hash = address_hash(host)
    for person in people:
        received = Notification.objects.filter(
            kind=Notification.Kind.INVITATION, to_email__iexact=person.email.strip(),
            created_at__gte=since).count()
        if received >= settings.SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY:
            raise SetupError("recipient_limit", _("%(email)s has been invited as often today "
                                                  "as anyone may; try again tomorrow.")
                             % {"email": person.email})
        if HostBlock.objects.filter(host_hash=host_hash,
                                    recipient_hash=address_hash(person.email)).exists():
            raise SetupError("refused", _("%(email)s does not want invitations from you.")
                             % {"email": person.email})


def pending_game(token: str) -> Game | None:
    """The web-set-up game whose confirmation link carries `token`."""
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    game = Game.objects.filter(host_token_hash=hash_token(token)).first()
    if game is None or not hmac.compare_digest(confirm_token(game), token):
        return None
    return game


@dataclass(frozen=True)
class Confirmed:
    game: Game
    # The host's invitation links, shown once; empty when the game was confirmed before.
    created: CreatedGame | None


def confirm_game(game_id: int) -> Confirmed:
    """The host confirmed: invite the players (once) and give the host their invitation
    links. A second confirmation sends and shows nothing again."""
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.host_confirmed_at is not None or game.status != Game.Status.SETUP:
            return Confirmed(game=game, created=None)
        game.host_confirmed_at = now
        game.save(update_fields=["host_confirmed_at"])
        seats = []
        for seat in game.seats.filter(kind=SeatKind.PERSON, accepted_at__isnull=True):
            token, digest = new_invitation()
            seat.invite_hash = digest
            seat.save(update_fields=["invite_hash"])
            seats.append((seat, seat_link(token)))
            invite_seat(seat)
        bots = [(seat, "") for seat in game.seats.filter(kind=SeatKind.BOT)]
        if game.start_when_confirmed:
            game = start_game(game.pk)
    ordered = sorted(seats + bots, key=lambda pair: pair[0].number)
    return Confirmed(game=game, created=CreatedGame(game=game, seats=ordered))


def refuse_host(seats: Sequence[Seat]) -> None:
    """The players of `seats` unsubscribed: the hosts of those games invite them no more."""
    for seat in seats:
        host = seat.game.host_email
        if host and seat.email and host.lower() != seat.email.lower():
            try:
                with transaction.atomic():
                    HostBlock.objects.create(host_hash=address_hash(host),
                                             recipient_hash=address_hash(seat.email))
            except IntegrityError:
                pass  # refused before
