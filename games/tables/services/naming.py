"""A player's public name (the home; docs/playing.md "Your public name"): shown at open
tables, in the ratings and as their seat's name in games they join through open tables.

- Unique by a confusable-safe key: the name in Unicode's NFKC form, case folded, and every
  letter that looks like another read as that one, across scripts (`ʙob`, `Bob`, `ВОВ`
  in Cyrillic and `Ｂｏｂ` are one name). The look-alikes come from the `confusables`
  package (Unicode's confusables.txt with case and look-alikes of look-alikes mapped to
  ASCII). A letter with several readings (`0` reads `o` and `0`) gives the name several
  keys, all kept: two names that could be read alike share a key, and keys are unique.
- Never an email address: anything with an `@` that reads as an address is refused.
- Never a name that speaks for the site (games.people.core.reserved_names): its moderators,
  itself, the names it gives seats and writes in the log, in any of its languages.
- Changed at most once a month (choosing the first one is free).
- Chosen with the answer to whether its ratings are listed (docs/playing.md "Who sees a
  rating"): asked once, in the same form; unlisted unless the player says so.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import ClassVar

import confusables
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.kit.service_errors import ServiceError
from games.kit.text import is_clean_line
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.mail.services.notification_rows import Spec, address_hash
from games.people.core.home_links import HomeLink
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import NameKey, PublicName
from games.people.core.reserved_names import reserved_word_in
from games.seats.core.seat import Seat
from games.setup.core.player_defaults import seat_language_and_zone

MIN_LENGTH, MAX_LENGTH = 2, 30
CHANGE_EVERY = timedelta(days=30)
# A name whose look-alike readings multiply past this is refused (`l1Il1Il1...` would
# otherwise have thousands of readings to store and compare).
MAX_READINGS = 256
SPACES = re.compile(r"\s+")


class NameRefused(ServiceError):
    """A name refused: `code` says why (bad_name, name_reserved: bad input; name_taken,
    too_soon: someone has it, or it changed too recently)."""

    STATUS_OF_CODE: ClassVar[dict[str, int]] = {"bad_name": 400, "name_reserved": 400,
                                                "bad_request": 400}


def _readings_of(character: str) -> int:
    return len(confusables.normalize(character, prioritize_alpha=True))


def name_keys(name: str) -> list[str]:
    """Every confusable-safe reading of `name` (NFKC, case folded, look-alikes as ASCII,
    spaces collapsed); [] when it has more readings than MAX_READINGS."""
    folded = SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()
    if math.prod(_readings_of(ch) for ch in folded) > MAX_READINGS:
        return []
    return sorted({SPACES.sub(" ", reading).strip()
                   for reading in confusables.normalize(folded, prioritize_alpha=True)})


def _looks_like_address(name: str) -> bool:
    if "@" not in name:
        return False
    try:
        validate_email(unicodedata.normalize("NFKC", name).replace(" ", ""))
    except ValidationError:
        return False
    return True


def clean_name(name: str) -> tuple[str, list[str]]:
    """The name as it will be shown and its keys, or NameRefused (bad_name)."""
    name = SPACES.sub(" ", (name or "").strip())
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH or not is_clean_line(name):
        raise NameRefused("bad_name", _("A public name is %(min)s to %(max)s visible letters "
                                       "or signs on one line.")
                         % {"min": MIN_LENGTH, "max": MAX_LENGTH})
    if _looks_like_address(name):
        raise NameRefused("bad_name", _("A public name cannot be an email address."))
    keys = name_keys(name)
    if not keys:
        raise NameRefused("bad_name", _("This name mixes too many signs that look alike; "
                                       "choose a plainer one."))
    word = reserved_word_in(keys)
    if word is not None:
        raise NameRefused("name_reserved", _(
            "This name reads like “%(word)s”, which the site keeps for itself, its "
            "moderators or the names it gives players; choose another.") % {"word": word})
    return name, keys


@dataclass(frozen=True)
class NameChosen:
    name: str
    changed_at: datetime
    listed: bool  # whether the ratings are listed under it


def public_name(address: str) -> PublicName | None:
    digest = mailbox_key_hash(address)
    return PublicName.objects.filter(mailbox=digest).first() if digest else None


def name_of(address: str) -> str:
    """The address's public name, "" without one."""
    row = public_name(address)
    return row.name if row else ""


def next_change(row: PublicName) -> datetime:
    return row.changed_at + CHANGE_EVERY


def choose_name(address: str, name: str, *, listed: bool | None = None) -> NameChosen:
    """Give the address `name` (or change its name, at most once a month), with its
    ratings listed or not (`listed`; None keeps the choice, unlisted for a first name).
    Raises NameRefused: bad_name, name_taken (another name reads alike), too_soon; a
    refusal changes nothing, the listing neither."""
    name, keys = clean_name(name)
    digest = mailbox_key_hash(address)
    now = timezone.now()
    try:
        with transaction.atomic():
            row = PublicName.objects.select_for_update().filter(mailbox=digest).first()
            if row is not None and row.name == name:
                if listed is not None and listed != row.ratings_listed:
                    row.ratings_listed = listed
                    row.save(update_fields=["ratings_listed"])
                return NameChosen(name=name, changed_at=row.changed_at,
                                  listed=row.ratings_listed)
            taken = NameKey.objects.filter(key__in=keys)
            if row is not None:
                taken = taken.exclude(owner=row)
            if taken.exists():
                raise _taken()
            if row is not None and now < next_change(row):
                raise NameRefused("too_soon", _(
                    "You changed your public name less than a month ago; you can change it "
                    "again from %(date)s.") % {"date": next_change(row).date().isoformat()})
            if row is None:
                row = PublicName.objects.create(mailbox=digest, name=name, changed_at=now,
                                                ratings_listed=bool(listed))
            else:
                row.name, row.changed_at = name, now
                if listed is not None:
                    row.ratings_listed = listed
                row.save(update_fields=["name", "changed_at", "ratings_listed"])
                row.keys.all().delete()
            NameKey.objects.bulk_create([NameKey(owner=row, key=key) for key in keys])
    except IntegrityError:  # the same key written at the same moment by someone else
        raise _taken() from None
    return NameChosen(name=name, changed_at=now, listed=row.ratings_listed)


def _taken() -> NameRefused:
    return NameRefused("name_taken", _("Someone already has this name, or one that looks "
                                      "just like it; choose another."))


def reset_name(name_id: int) -> str | None:
    """A moderator's reset of a public name: the name and its keys are gone (the player may
    choose another at once, under the same rules) and the player is emailed, in their
    language, once the change commits. The name that was reset; None when there was none."""
    with transaction.atomic():
        row = PublicName.objects.select_for_update().filter(pk=name_id).first()
        if row is None:
            return None
        address = HomeLink.objects.filter(mailbox_key=row.mailbox).values_list(
            "address", flat=True).first()
        row.delete()
        if address:  # a name is chosen on a home: its row names the address
            plan.queue(name_reset_spec(address, name_id, row.name, _language_of(address)))
    return row.name


def _language_of(address: str) -> str:
    """The address's language: chosen on its home, else its newest seat's, else the
    site's."""
    newest = (Seat.objects.filter(of_mailbox(address)).order_by("-created_at")
              .values_list("language", flat=True).first())
    language, _zone = seat_language_and_zone(address, game_language=newest or "")
    return language or settings.LANGUAGE_CODE


def list_ratings(address: str, *, listed: bool) -> bool:
    """Show (or stop showing) the address's ratings to others under its public name: on
    /ratings/ and beside the name at open tables (games.ratings.services.shown); False when it
    has no public name yet."""
    digest = mailbox_key_hash(address)
    return bool(PublicName.objects.filter(mailbox=digest).update(ratings_listed=listed))


def name_reset_spec(address: str, name_id: int, name: str, language: str) -> list[Spec]:
    return [Spec(key=f"name_reset:{address_hash(address)}:n={name_id}",
                 kind=Notification.Kind.NAME_RESET, to_email=address,
                 params={"name": name, "language": language})]
