"""Settings chosen once on the home, applied to every game the address plays (a game's
own page can still change that game's afterwards): language and time zone, which emails,
and a vacation in every game at once (each game's own budget applies)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from games.clock.services import vacations
from games.game.core.game import Game
from games.kit.service_errors import ServiceError
from games.kit.time_zones import valid_time_zone
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat, going_on_seats
from games.setup.core.player_defaults import remember_preferences


def set_language_and_zone(address: str, *, language: str, time_zone: str) -> int:
    """Every game going on of the address in this language and time zone, and both kept
    as the address's defaults for new games; the number of seats changed."""
    if not valid_time_zone(time_zone):
        raise ServiceError("bad_time_zone", _("Unknown time zone %(zone)s.") % {"zone": time_zone})
    if language not in {code for code, _label in settings.LANGUAGES}:
        raise ServiceError("bad_language", _("Unknown language %(code)s.") % {"code": language})
    remember_preferences(address, language, time_zone)
    return Seat.objects.filter(pk__in=list(going_on_seats(address).values_list("pk", flat=True))
                               ).update(language=language, time_zone=time_zone)


def set_email_mode_everywhere(address: str, mode: str) -> int:
    """The same emails (each turn, one daily digest, links only) in every game going on."""
    ids = list(going_on_seats(address).values_list("pk", flat=True))
    services.set_email_mode(ids, mode)
    return len(ids)


def set_email_options_everywhere(address: str, *, talk_in_emails: bool,
                                 skip_seen_turns: bool) -> int:
    """The table talk in the emails, and no email for a turn seen on the open page, the
    same in every game going on."""
    ids = list(going_on_seats(address).values_list("pk", flat=True))
    services.set_email_options(ids, talk_in_emails=talk_in_emails,
                               skip_seen_turns=skip_seen_turns)
    return len(ids)


@dataclass
class VacationOutcome:
    """Which games the vacation (or its end) applies to, and why the others refused."""

    done: list[str] = field(default_factory=list)  # game names
    refused: list[tuple[str, str]] = field(default_factory=list)  # (game name, why)


def take_vacation_everywhere(address: str, length: timedelta) -> VacationOutcome:
    """A vacation of `length` in every started game, each from its own budget: a game
    whose budget is too small (or where the seat is already away) says why, the others
    take it."""
    outcome = VacationOutcome()
    for seat in going_on_seats(address).exclude(game__status=Game.Status.SETUP):
        try:
            vacations.take_vacation(seat.pk, length)
        except ServiceError as refused:
            outcome.refused.append((seat.game.title, refused.message))
        else:
            outcome.done.append(seat.game.title)
    return outcome


def end_vacation_everywhere(address: str) -> VacationOutcome:
    """Back early in every game where the address is on vacation."""
    outcome = VacationOutcome()
    for seat in going_on_seats(address).filter(vacation_until__isnull=False):
        try:
            vacations.end_vacation(seat.pk)
        except ServiceError:
            continue  # that vacation was over already
        outcome.done.append(seat.game.title)
    return outcome
