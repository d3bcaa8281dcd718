"""Setting up games on the web page, abuse-proof (docs/playing.md "Setting up a game").

The page is open to anyone, so it must not make the server email strangers for them:
- the host gives their own address and confirms it through a link emailed there before
  any invitation leaves (the confirmation email carries none of the host's text, and an
  invitation's subject none either);
- per client address, a few setups an hour (games.kit.limits); per host's mailbox per
  day, a few games and a bounded number of invitations; per recipient's mailbox per day,
  a few invitations whoever sends them. Every cap counts by mailbox
  (games.people.core.mailboxes: `Ann+1@x.org` is `ann@x.org`) and counts only what a host
  confirmed (games.seats.core.invitations.Invitation): a setup nobody confirmed takes
  nothing from the host it names nor from its players, whoever typed it. The caps are
  checked when the setup is asked for and again when it is confirmed, the only moment
  invitations leave;
- a mailbox gets at most CONFIRMATIONS_PER_DAY confirmation emails a day for
  setups it has not confirmed: a further setup naming it waits unsent, listed on the
  pages those emails open (so a stranger who used them up locks its owner out of
  nothing: the owner confirms their own game from there);
- a setup not confirmed within CONFIRM_HOURS expires: its link opens nothing from
  then on (checked when it is opened), and the beat's sweep deletes it with the
  addresses typed in it (`expire_unconfirmed`);
- a recipient who unsubscribes from a host's invitation is never invited by that host
  again;
- SETUP = "closed" turns the page off: only `manage.py creategame` and moderators then.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.game.core.game import Game, SeatKind
from games.kit import limits
from games.kit.link_tokens import hash_token
from games.kit.service_errors import SetupError
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.people.core.mailboxes import mailbox, mailbox_hash
from games.people.core.player_data import forgotten_among
from games.seats.core.invitations import Invitation, one_at_a_time, record_invitations
from games.seats.core.links import (
    confirm_token,
    is_confirm_token,
    rebuilt_confirm_token,
    seat_link,
)
from games.seats.core.seat import Seat
from games.setup.core.host_limits import HostBlock
from games.setup.services.game_setup import (
    CreatedGame,
    PlayerSpec,
    create_game,
    invite_seat,
    start_game,
)

DAY = timedelta(days=1)
# A mailbox gets at most this many confirmation emails a day for setups it has not
# confirmed; a setup not confirmed within CONFIRM_HOURS expires.
CONFIRMATIONS_PER_DAY = 2
CONFIRM_HOURS = 24
# PostgreSQL advisory lock held while a setup or a confirmation checks the caps and
# records its invitations (any fixed number no other code uses).


def case_folded_hash(address: str) -> str:
    """The hash host refusals were first kept under (the address, case folded): still
    honoured, beside the mailbox's hash they are kept under now."""
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()


@dataclass(frozen=True)
class Requested:
    game: Game
    # False: the host's mailbox had its confirmation emails for the day; this setup is
    # listed on their pages instead.
    emailed: bool


def request_game(*, host_email: str, client: str, players: Sequence[PlayerSpec],
                 start: bool, **game: Any) -> Requested:
    """A game waiting for its host to confirm their address; nothing goes to the players
    yet, and nothing counts against the caps until the host confirms. Raises SetupError
    (refused, with the reason) or limits.Limited (too many)."""
    if settings.SETUP != "open":
        raise SetupError("setup_closed", _("Setting up games on this site is closed; ask "
                                           "its operator."))
    host_email = host_email.strip()
    limits.hit("setup_client", client)
    with transaction.atomic():
        one_at_a_time()
        check_caps(host_email, [p.email for p in players if not p.bot])
        emailed = _confirmations_today(host_email) < CONFIRMATIONS_PER_DAY
        made = create_game(players=players, start=False, invite=False, **game)
        made.game.host_email = host_email
        made.game.host_mailbox = mailbox_hash(host_email)
        made.game.start_when_confirmed = start
        made.game.host_token_hash = hash_token(confirm_token(made.game))
        made.game.save(update_fields=["host_email", "host_mailbox", "start_when_confirmed",
                                      "host_token_hash"])
        record_invitations([seat for seat, _link in made.seats if seat.kind == SeatKind.PERSON],
                           host_email=host_email, waiting=True)
        if emailed:
            plan.queue(plan.confirm_setup(made.game, host_email,
                                          translation.get_language() or ""))
    return Requested(game=made.game, emailed=emailed)


def _unconfirmed(now: datetime | None = None) -> QuerySet[Game]:
    """Web setups waiting for their host, not expired."""
    since = (now or timezone.now()) - timedelta(hours=CONFIRM_HOURS)
    return Game.objects.filter(status=Game.Status.SETUP, host_confirmed_at__isnull=True,
                               created_at__gt=since).exclude(host_mailbox="")


def _confirmations_today(host: str) -> int:
    """Confirmation emails the host's mailbox got in the last day for setups it has not
    confirmed (an expired setup's too: it was not confirmed)."""
    return Notification.objects.filter(
        kind=Notification.Kind.CONFIRM_SETUP, created_at__gte=timezone.now() - DAY,
        game__host_mailbox=mailbox_hash(host), game__host_confirmed_at__isnull=True).count()


def waiting_beside(game: Game) -> list[tuple[Game, str]]:
    """The other setups naming the same mailbox as host that wait for its confirmation,
    with the path of each one's confirmation page (shown on this one's: whoever opened
    this page holds that mailbox)."""
    others = (_unconfirmed().filter(host_mailbox=game.host_mailbox).exclude(pk=game.pk)
              .order_by("created_at"))
    found = [(other, rebuilt_confirm_token(other)) for other in others]
    return [(other, reverse("games:setup-confirm", args=[token]))
            for other, token in found if token is not None]


def expire_unconfirmed(now: datetime | None = None) -> int:
    """The beat: delete the setups nobody confirmed in time, with every address typed in
    them and their invitations (which never left); how many."""
    since = (now or timezone.now()) - timedelta(hours=CONFIRM_HOURS)
    expired = list(Game.objects.filter(
        status=Game.Status.SETUP, host_confirmed_at__isnull=True, created_at__lte=since)
        .exclude(host_mailbox="").values_list("pk", flat=True))
    with transaction.atomic():
        Invitation.objects.filter(game_id__in=expired, waiting=True).delete()
        Game.objects.filter(pk__in=expired).delete()
    return len(expired)



def check_caps(host: str, recipients: Sequence[str], game: Game | None = None, *,
               new_game: bool = True) -> None:
    """Raise SetupError if `host` inviting `recipients` now would pass a daily cap.
    Counts by mailbox every invitation sent in the last day (a setup not confirmed counts
    for nothing), except those of `game` (the one being confirmed: `recipients` are its
    own). `new_game` False: an invitation of a game already set up, sent again (the
    games a host sets up a day are not counted then)."""
    recent = Invitation.objects.filter(created_at__gte=timezone.now() - DAY, waiting=False)
    if game is not None:
        recent = recent.exclude(game=game)
    hosted = recent.filter(host_hash=mailbox_hash(host))
    if new_game and (hosted.values("game").distinct().count()
                     >= settings.SETUP_GAMES_PER_HOST_PER_DAY):
        raise SetupError("host_limit", _("This address has set up as many games today as one "
                                         "address may; try again tomorrow."))
    if hosted.count() + len(recipients) > settings.SETUP_INVITATIONS_PER_HOST_PER_DAY:
        raise SetupError("host_limit", _("This address has invited as many players today as "
                                         "one address may; try again tomorrow."))
    forgotten = forgotten_among([host, *recipients])
    if host in forgotten:
        raise SetupError("refused", _("%(email)s does not take emails from this server.")
                         % {"email": host})
    for email in recipients:
        received = recent.filter(recipient_hash=mailbox_hash(email)).count()
        if received >= settings.SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY:
            raise SetupError("recipient_limit", _("%(email)s has been invited as often today "
                                                  "as anyone may; try again tomorrow.")
                             % {"email": email})
        if email in forgotten:
            raise SetupError("refused", _("%(email)s does not take invitations from this "
                                          "server.") % {"email": email})
        if _refuses(email, host):
            raise SetupError("refused", _("%(email)s does not want invitations from you.")
                             % {"email": email})


def _refuses(recipient: str, host: str) -> bool:
    return HostBlock.objects.filter(
        host_hash__in={mailbox_hash(host), case_folded_hash(host)},
        recipient_hash__in={mailbox_hash(recipient), case_folded_hash(recipient)}).exists()


def pending_game(token: str) -> Game | None:
    """The web-set-up game whose confirmation link carries `token` (also its host's page);
    None once it expired unconfirmed."""
    if not isinstance(token, str) or not 20 <= len(token) <= 64:
        return None
    game = Game.objects.filter(host_token_hash=hash_token(token)).first()
    if game is None or not is_confirm_token(game, token):
        return None
    expires = game.created_at + timedelta(hours=CONFIRM_HOURS)
    if game.host_confirmed_at is None and game.host_mailbox and timezone.now() >= expires:
        return None
    return game


@dataclass(frozen=True)
class Confirmed:
    game: Game
    # The host's invitation links, shown once; empty when the game was confirmed before.
    created: CreatedGame | None


def confirm_game(game_id: int) -> Confirmed:
    """The host confirmed: invite the players (once) and give the host their invitation
    links. A second confirmation sends and shows nothing again. Raises SetupError when
    the invitations would now pass a cap (the setup waited, or others were sent since):
    nothing is sent, and the host may confirm again once the day has passed."""
    now = timezone.now()
    with transaction.atomic():
        one_at_a_time()
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.host_confirmed_at is not None or game.status != Game.Status.SETUP:
            return Confirmed(game=game, created=None)
        people = list(game.seats.filter(Seat.accepted_q(accepted=False),
                                        kind=SeatKind.PERSON))
        check_caps(game.host_email, [seat.email for seat in people], game=game)
        # They leave now: a day's caps count them from now on.
        Invitation.objects.filter(game=game).update(created_at=now, waiting=False)
        game.host_confirmed_at = now
        game.save(update_fields=["host_confirmed_at"])
        seats = []
        for seat in people:
            seats.append((seat, seat_link(seat.invite())))
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
        if host and seat.email and mailbox(host) != mailbox(seat.email):
            try:
                with transaction.atomic():
                    HostBlock.objects.create(host_hash=mailbox_hash(host),
                                             recipient_hash=mailbox_hash(seat.email))
            except IntegrityError:
                pass  # refused before
