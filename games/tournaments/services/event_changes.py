"""The host changes their event while sign-up is open (docs/playing.md "Hosting a
tournament"): from the home's "Edit" page or POST /api/me/<token>/tournaments/<id>/edit.

- What may change is what a host chooses when creating one (EDITABLE): nothing of it is
  paired yet, so every setting is still safe. The settings are the event's as they are,
  with the changes laid over them, checked whole by the very reading that checks a new
  event (read_settings: the same ranges, a sign-up window to come); and the cap may not
  fall below the players already in. A refusal changes nothing.
- A clock preset, or a pace alone, replaces the event's pace and clock together (as on
  creation); a change of ruleset alone keeps a table size of "as even as the field
  allows" as even (the new ruleset's sizes), and any other size as it is.
- Only the host's home can: another's event is as unknown as none (404); once sign-up
  has closed (or its time has passed before the sweep pairs it), or the event was
  cancelled, 409.
- The members already in are told by email when what they signed up for changed
  (TOLD: the ruleset, the table size, the rounds, the clock, rated): one `event_changed`
  email each, in their language (their home's, else the event's), naming what changed
  and its new value, written at send time. An address that asked to be forgotten gets
  none. Each change is an email of its own (its key holds the moment of the change); the
  home link's limit ("tables_home") bounds how many.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.mail.services.notification_rows import Spec
from games.people.core.player_data import forgotten_among
from games.setup.core.player_defaults import seat_language_and_zone
from games.tournaments.core.event_rows import Tournament
from games.tournaments.core.event_settings import TournamentError, size_setting, stored_clock
from games.tournaments.services.hosting import checked, hosted_open

EDITABLE = frozenset({"name", "ruleset", "players", "rounds", "hours_per_move", "clock_preset",
                      "language", "rated", "duplicate", "cap", "signup_closes", "round_days",
                      "advance_share"})
TOLD = ("ruleset", "players", "rounds", "clock", "rated")  # what the members are told of


def current_settings(event: Tournament) -> dict[str, Any]:
    """The event's settings as read_settings takes them."""
    return {"name": event.name, "ruleset": event.ruleset,
            "players": size_setting(event.ruleset, event.min_size, event.max_size),
            "rounds": event.rounds, "hours_per_move": event.hours_per_move,
            "clock": stored_clock(event.clock), "language": event.language,
            "rated": event.rated, "duplicate": event.duplicate, "cap": event.cap,
            "signup_closes": event.signup_closes_at, "round_days": event.round_days,
            "advance_share": event.advance_share}


def _told(event: Tournament) -> dict[str, Any]:
    return {"ruleset": event.ruleset, "players": (event.min_size, event.max_size),
            "rounds": event.rounds, "clock": (event.hours_per_move, event.clock),
            "rated": event.rated}


def _merged(event: Tournament, changes: Mapping[str, Any]) -> dict[str, Any]:
    for field in changes:
        if field not in EDITABLE:
            raise TournamentError(400, "bad_request", _(
                "%(field)s is not a setting of the tournament you can change.")
                % {"field": str(field)[:30]}, str(field)[:30])
    base = current_settings(event)
    if changes.get("clock_preset") or "hours_per_move" in changes:
        base.pop("hours_per_move")  # a preset or a pace alone: the clock goes with it
        base.pop("clock")
    return {**base, **changes}


def _editable(address: str, event_id: object, *, lock: bool) -> Tournament:
    too_late = _("This tournament is no longer open for sign-up: it can no longer be "
                 "changed.")
    event = hosted_open(address, event_id, lock=lock, started=too_late)
    if event.signup_closes_at <= timezone.now():  # the sweep pairs it at any moment
        raise TournamentError(409, "tournament_started", too_late)
    return event


def to_edit(address: str, event_id: object) -> Tournament:
    """The event the host may change now, for the edit page (nothing changes).
    TournamentError as `edit_hosted` refuses."""
    return _editable(address, event_id, lock=False)


def edit_hosted(address: str, event_id: object, changes: Mapping[str, Any]) -> Tournament:
    """The host changes their event open for sign-up (`changes`: the settings to change,
    as the creation's JSON gives them). TournamentError, nothing changed: 400 naming the
    field at fault, 404 not the address's event, 409 sign-up has closed."""
    with transaction.atomic():
        event = _editable(address, event_id, lock=True)
        chosen = checked(_merged(event, changes))
        joined = event.entries.count()
        if chosen.cap < joined:
            raise TournamentError(400, "bad_request", _(
                "%(n)s players have joined already: the cap cannot be below that.")
                % {"n": joined}, "cap")
        before = _told(event)
        event.name, event.ruleset = chosen.name, chosen.ruleset
        event.min_size, event.max_size = chosen.min_size, chosen.max_size
        event.rounds, event.hours_per_move = chosen.rounds, chosen.hours_per_move
        event.clock, event.language = chosen.clock, chosen.language
        event.rated, event.duplicate, event.cap = chosen.rated, chosen.duplicate, chosen.cap
        event.signup_closes_at, event.round_days = chosen.signup_closes_at, chosen.round_days
        event.advance_share = chosen.advance_share
        event.save(update_fields=[
            "name", "ruleset", "min_size", "max_size", "rounds", "hours_per_move", "clock",
            "language", "rated", "duplicate", "cap", "signup_closes_at", "round_days",
            "advance_share"])
        after = _told(event)
        changed = [field for field in TOLD if before[field] != after[field]]
        if changed:
            _tell_members(event, changed)
        return event


def _tell_members(event: Tournament, changed: list[str]) -> list[int]:
    """Queue one `event_changed` email to each member (in the caller's transaction)."""
    entries = [entry for entry in event.entries.order_by("joined_at", "pk") if entry.address]
    forgotten = forgotten_among([entry.address for entry in entries])
    moment = timezone.now().strftime("%Y%m%dT%H%M%S%f")
    specs = []
    for entry in entries:
        if entry.address in forgotten:
            continue
        language, _zone = seat_language_and_zone(entry.address, game_language=event.language)
        specs.append(Spec(key=f"event_changed:{event.pk}:{entry.pk}:{moment}",
                          kind=Notification.Kind.EVENT_CHANGED, to_email=entry.address,
                          params={"tournament": event.pk, "entry": entry.pk,
                                  "changed": changed, "language": language}))
    return plan.queue(specs)
