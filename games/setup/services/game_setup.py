"""Creating games, inviting their players and starting them (re-exported by services).

Bot seats (`SeatSpec.bot`) are accepted from the start and get no invitation: a game
of one person and bots starts as soon as that person accepts (or at once with `start`).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.clock.core.clock_setup import ClockSettings, clock_fields
from games.clock.services.turn_clock import set_clock
from games.engine.types import Move
from games.game.core.aliases import draw_aliases
from games.game.core.game import (
    MAX_HOURS_PER_MOVE,
    BotLevel,
    Game,
    TimeoutPolicy,
    WhileOpen,
)
from games.kit.service_errors import SetupError
from games.kit.text import is_clean_line
from games.kit.time_zones import valid_time_zone
from games.mail.services import follow_ups
from games.moves.services.move_store import queue_follow_up
from games.people.core.mailboxes import mailbox
from games.push.services.planning import plan_start_alerts
from games.records.core import fairness
from games.seats.core.invitations import record_invitations
from games.seats.core.links import seat_link
from games.seats.core.seat import Seat
from games.seats.core.seat_events import SeatAccepted

SEED_BITS = 62


@dataclass(frozen=True)
class PlayerSpec:
    name: str
    email: str = ""  # a bot has none
    time_zone: str = "UTC"
    language: str = "en"
    bot: bool = False


def bot_player(name: str) -> PlayerSpec:
    return PlayerSpec(name=name, bot=True)


BOT_NAMES = ["Bert", "Carla", "Dirk", "Elena", "Femke", "Gino", "Hilde", "Ivo", "Jet", "Kees",
             "Lotte", "Mia", "Nico", "Olga"]


def bot_players(count: int, taken: Sequence[str] = ()) -> list[PlayerSpec]:
    """`count` bots named so no two seats of the table share a name."""
    used = {name.strip().casefold() for name in taken}
    names = [name for name in BOT_NAMES if name.casefold() not in used]
    names += [f"Bot {n}" for n in range(1, count + 1)]
    return [bot_player(name) for name in names[:count]]


@dataclass(frozen=True)
class CreatedGame:
    game: Game
    # Each seat with its absolute invitation link (shown once, to the host): it works
    # until the seat's player accepts; the player's own link goes to them by email only.
    # "" for a bot's seat (the bot moves through games.moves.services.bot_turns, not through a
    # link) and for a seat accepted from the start (`create_game(accepted=True)`).
    seats: list[tuple[Seat, str]]


def create_game(
    *,
    name: str,
    players: Sequence[PlayerSpec],
    ruleset: str = "base",
    options: dict[str, Any] | None = None,
    hours_per_move: int | None = None,
    seed: int | None = None,
    shuffle_seats: bool = False,
    start: bool = False,
    spectators_allowed: bool = False,
    timeout_policy: str = TimeoutPolicy.AUTO_PASS,
    invite: bool = True,
    accepted: bool = False,
    list_open_seats: bool = False,
    open_absent_seats: bool = False,
    while_seat_open: str = WhileOpen.BOT,
    bot_level: str = BotLevel.NORMAL,
    rated: bool = False,
    clock: ClockSettings | None = None,
    script: Sequence[Move] = (),
    anonymous: bool = False,
) -> CreatedGame:
    """Create a game with one seat per player and invite them (unless `invite` is False:
    the host has not confirmed their address yet, games.setup.services.web_setup); optionally start.
    `accepted`: the people took their seats already (an open table's, games.tables): no
    invitation link, and each seat's link works at once.
    `rated`: its rounds count for the players' ratings (games.ratings). `clock`: a time
    bank and days off (games.clock.core.clock_setup; None: the fixed time per move).
    `script`: the game's first moves, set (a lesson: games.moves.core.script).
    `anonymous`: every seat named by an alias until the game is over
    (games.game.core.aliases), the seats in a random order (so that not even the order
    the host typed the players in tells who sits where).
    A person may have no address only in a game `accepted` from the start without
    invitations (a lesson's learner): their link is handed to them at once, and no email
    can ever go to them."""
    name = name.strip()
    hours = settings.DEFAULT_HOURS_PER_MOVE if hours_per_move is None else hours_per_move
    _check_setup(name, players, hours, addressless=accepted and not invite)
    if timeout_policy not in TimeoutPolicy.values:
        raise SetupError("bad_setup", _("Unknown timeout policy %(policy)s.")
                         % {"policy": timeout_policy})
    if while_seat_open not in WhileOpen.values:
        raise SetupError("bad_setup", _("Unknown choice for an open seat: %(value)s.")
                         % {"value": while_seat_open})
    if bot_level not in BotLevel.values:
        raise SetupError("bad_setup", _("Unknown bot level %(level)s.") % {"level": bot_level})
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    order = list(players)
    if shuffle_seats or anonymous:
        secrets.SystemRandom().shuffle(order)
    aliases = (draw_aliases(seed, len(order), [player.name for player in order])
               if anonymous else [])
    try:
        state = engine.new_game(len(order), seed, ruleset, options)
    except ValueError as error:
        raise SetupError("bad_setup", str(error)) from None
    now = timezone.now()
    with transaction.atomic():
        salt = fairness.new_salt()
        commitment = fairness.commitment(salt, seed)
        game = Game.objects.create(
            name=name, ruleset=ruleset, options=state.options, seed=seed, salt=salt,
            commitment=commitment, chain_head=commitment,  # h_0: no move yet
            hours_per_move=hours, snapshot=state.to_json(include_log=False),
            opening_log=state.log, log_length=len(state.log), actor=state.actor,
            spectators_allowed=spectators_allowed, created_at=now,
            timeout_policy=timeout_policy, list_open_seats=list_open_seats,
            open_absent_seats=open_absent_seats, while_seat_open=while_seat_open,
            bot_level=bot_level, rated=rated, script=list(script), aliases=aliases,
            **clock_fields(clock),
        )
        created = []
        for number, player in enumerate(order):
            seat, invitation = Seat.make(
                game, number, name=player.name.strip(), email=player.email.strip(),
                time_zone=player.time_zone, language=player.language, bot=player.bot,
                accepted=accepted, now=now)
            created.append((seat, seat_link(invitation) if invitation else ""))
            if invite and not player.bot:
                invite_seat(seat)
        if start or all(player.bot for player in order):
            _start(game, now)
    return CreatedGame(game=game, seats=created)


def _check_setup(name: str, players: Sequence[PlayerSpec], hours: int, *,
                 addressless: bool = False) -> None:
    """`addressless`: people may come without an address (see create_game)."""
    if not name:
        raise SetupError("bad_setup", _("The game needs a name."))
    if not is_clean_line(name) or not all(is_clean_line(p.name.strip()) for p in players):
        raise SetupError("bad_setup", _("Names may hold visible letters and signs only, on "
                                        "one line."))
    if not 1 <= hours <= MAX_HOURS_PER_MOVE:
        raise SetupError(
            "bad_setup",
            _("The pace must be between 1 and %(max)s hours per move.")
            % {"max": MAX_HOURS_PER_MOVE},
        )
    # One mailbox, one seat: its mail would show both hands (games.people.core.mailboxes).
    emails = [mailbox(p.email) for p in players if not p.bot and p.email.strip()]
    if len(set(emails)) != len(emails):
        raise SetupError("bad_setup", _("Each player needs a different email address."))
    languages = {code for code, _label in settings.LANGUAGES}
    for player in players:
        if not player.name.strip():
            raise SetupError("bad_setup", _("Every player needs a name and an email address."))
        if not player.bot and not player.email.strip() and not addressless:
            raise SetupError("bad_setup", _("Every player needs a name and an email address."))
        if not valid_time_zone(player.time_zone):
            raise SetupError(
                "bad_setup", _("Unknown time zone %(zone)s.") % {"zone": player.time_zone}
            )
        if player.language not in languages:
            raise SetupError(
                "bad_setup", _("Unknown language %(code)s.") % {"code": player.language}
            )








def invite_seat(seat: Seat) -> None:
    """Queue the seat's invitation for after the commit (follow_ups.send_invitation); the
    email carries the player's own link, rebuilt from the seat."""
    record_invitations([seat])  # what the setup page's caps count (games.setup.services.web_setup)
    follow_ups.send_invitation(seat.pk)


def start_game(game_id: int) -> Game:
    """Start a game still in setup now, whoever has accepted. No-op otherwise."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status == Game.Status.SETUP:
            _start(game, timezone.now())
    return game


def _start(game: Game, now: datetime) -> None:
    game.status = Game.Status.ACTIVE
    set_clock(game, now)
    game.save(update_fields=["status", "turn_started_at", "deadline_at", "deadline_extension",
                             "reminder_at", "turn_clock", "updated_at"])
    queue_follow_up(game.pk, game.version, now)  # the first turn email
    follow_ups.after_game_started(game.pk, game.version)
    plan_start_alerts(game, now)  # the players' "game started" pushes


def start_when_every_seat_accepted(event: SeatAccepted) -> None:
    """A game in setup starts when its last seat is accepted (games.wiring)."""
    game = event.game
    if game.status == Game.Status.SETUP and not game.seats.filter(
            Seat.accepted_q(accepted=False)).exists():
        _start(game, event.at)
