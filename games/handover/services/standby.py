"""Standby volunteers: addresses that take over open seats (docs/playing.md "When a player leaves").

Signing up asks for the address, the name the table will see, the languages it plays in,
the rules, how many games at once and how many offers a day (at most 3). Nothing is
offered until the address confirms: the signup emails it a private link (GET shows a
button, POST confirms), and the same link later manages the signup (settings, pause,
leave). The page answers the same whatever the address, and a mailbox gets at most one
such email a day, so a signup form cannot be used to flood someone's mailbox or to learn
who is on standby.

Leaving, and "stop these emails" in any offer or standby email, refuses every offer for
good: the row keeps only the mailbox's hash, and no offer (from volunteers' rounds, a
player's invitation or the open-seats page) reaches that mailbox again unless it signs up
and confirms anew.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.handover.core.handover_errors import HandoverError
from games.handover.core.handover_rows import (
    MAX_GAMES_AT_ONCE,
    MAX_OFFERS_PER_DAY,
    SeatOffer,
    Volunteer,
    volunteer_link_parts,
)
from games.kit import limits
from games.kit.text import is_clean_line
from games.kit.time_zones import valid_time_zone
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.people.core.deliverable import refusal
from games.people.core.mailboxes import mailbox_hash
from games.people.core.player_data import is_forgotten

EMAIL_EVERY = timedelta(days=1)  # at most one standby email per mailbox in this time


@dataclass(frozen=True)
class Choices:
    """What a volunteer chooses (the signup and the settings form)."""

    name: str
    languages: Sequence[str]
    rulesets: Sequence[str]
    games_at_once: int = 1
    offers_per_day: int = 1
    time_zone: str = "UTC"


def check_choices(choices: Choices) -> Choices:
    name = choices.name.strip()
    if not name or len(name) > 60 or not is_clean_line(name):
        raise HandoverError("bad_name", _("Give the name the table will see (at most 60 "
                                          "characters, on one line)."))
    known = [code for code, _label in settings.LANGUAGES]
    languages = [code for code in known if code in choices.languages]
    if not languages:
        raise HandoverError("no_language", _("Choose at least one language you play in."))
    rulesets = [name for name in engine.RULESETS if name in choices.rulesets]
    if not rulesets:
        raise HandoverError("no_rules", _("Choose at least one of the rules."))
    if not 1 <= choices.games_at_once <= MAX_GAMES_AT_ONCE:
        raise HandoverError("bad_games", _("Choose how many games at once (1 to %(max)s).")
                            % {"max": MAX_GAMES_AT_ONCE})
    if not 1 <= choices.offers_per_day <= MAX_OFFERS_PER_DAY:
        raise HandoverError("bad_offers", _("Choose how many offers a day (1 to %(max)s).")
                            % {"max": MAX_OFFERS_PER_DAY})
    zone = choices.time_zone if valid_time_zone(choices.time_zone) else "UTC"
    return Choices(name=name, languages=languages, rulesets=rulesets, time_zone=zone,
                   games_at_once=choices.games_at_once, offers_per_day=choices.offers_per_day)


def _apply(volunteer: Volunteer, choices: Choices) -> None:
    volunteer.name, volunteer.time_zone = choices.name, choices.time_zone
    volunteer.languages, volunteer.rulesets = list(choices.languages), list(choices.rulesets)
    volunteer.games_at_once, volunteer.offers_per_day = (choices.games_at_once,
                                                         choices.offers_per_day)


def sign_up(email: str, choices: Choices, client: str, page_language: str = "") -> None:
    """Email the address its standby link (to confirm, or to manage a confirmed signup).
    Raises HandoverError for bad input and limits.Limited per client address; says
    nothing about whether the address was known. The email is in the language of the
    page they signed up on, if they play in it."""
    email = email.strip()
    why = refusal(email)
    if why:
        raise HandoverError("bad_email", why)
    choices = check_choices(choices)
    limits.hit("standby_client", client)
    if is_forgotten(email):
        return  # nothing is kept of it, and the answer is the one anybody gets
    now = timezone.now()
    box = mailbox_hash(email)
    with transaction.atomic():
        volunteer = Volunteer.objects.select_for_update().filter(mailbox=box).first()
        if volunteer is None:
            salt, digest = volunteer_link_parts()
            volunteer = Volunteer(mailbox=box, link_salt=salt, token_hash=digest)
            try:
                with transaction.atomic():
                    _apply(volunteer, choices)
                    volunteer.email = email
                    volunteer.save()
            except IntegrityError:  # the same mailbox, signed up at this very moment
                return
        elif volunteer.confirmed_at is None or volunteer.left_at is not None:
            # Not (or no longer) on standby: these choices wait for the confirmation.
            _apply(volunteer, choices)
            volunteer.email = email
            volunteer.save()
        if volunteer.confirm_sent_at and volunteer.confirm_sent_at > now - EMAIL_EVERY:
            return
        Volunteer.objects.filter(pk=volunteer.pk).update(confirm_sent_at=now)
        plan.queue([plan.Spec(
            key=f"standby:{volunteer.pk}:{int(now.timestamp())}",
            kind=Notification.Kind.STANDBY, to_email=volunteer.email or email,
            params={"volunteer": volunteer.pk,
                    "language": page_language if page_language in choices.languages
                    else choices.languages[0],
                    "mailbox": box})])


def confirm(volunteer_id: int) -> Volunteer:
    """The address confirmed through its link: on standby from now on."""
    now = timezone.now()
    with transaction.atomic():
        volunteer = Volunteer.objects.select_for_update().get(pk=volunteer_id)
        if not volunteer.email:
            raise HandoverError("no_address", _("This link is no longer valid: sign up "
                                                "again."))
        if volunteer.confirmed_at is None or volunteer.left_at is not None:
            volunteer.confirmed_at, volunteer.left_at, volunteer.paused_at = now, None, None
            volunteer.save(update_fields=["confirmed_at", "left_at", "paused_at"])
    return volunteer


def update(volunteer_id: int, choices: Choices) -> Volunteer:
    choices = check_choices(choices)
    with transaction.atomic():
        volunteer = Volunteer.objects.select_for_update().get(pk=volunteer_id)
        _apply(volunteer, choices)
        volunteer.save()
    return volunteer


def pause_volunteer(volunteer_id: int, *, paused: bool) -> None:
    """No offers while paused (offers already sent stay valid); resumed, they come again."""
    Volunteer.objects.filter(pk=volunteer_id, left_at__isnull=True).update(
        paused_at=timezone.now() if paused else None)


def leave(volunteer_id: int) -> None:
    """Leave standby for good: no offer reaches this mailbox again."""
    box = Volunteer.objects.values_list("mailbox", flat=True).get(pk=volunteer_id)
    refuse_offers(box)


def refuse_offers(box: str) -> None:
    """The mailbox (its hash) wants no more offers of seats ("stop these emails", or
    leaving standby): its address is forgotten and its pending offers die."""
    now = timezone.now()
    with transaction.atomic():
        volunteer = Volunteer.objects.select_for_update().filter(mailbox=box).first()
        if volunteer is None:
            salt, digest = volunteer_link_parts()
            volunteer = Volunteer.objects.create(mailbox=box, link_salt=salt,
                                                 token_hash=digest, name="")
        volunteer.email, volunteer.left_at = "", volunteer.left_at or now
        volunteer.save(update_fields=["email", "left_at"])
        SeatOffer.objects.filter(mailbox=box, state=SeatOffer.State.PENDING).update(
            state=SeatOffer.State.VOID, answered_at=now)
