"""Emails of playing with strangers: "confirm your new home" (an address that plays nowhere
yet asked /me/ for a home; games.home.services.welcome), "your open table expired" (its wait
ended without enough players and without bots; games.tables.services.starting) and "a moderator
reset your public name" (games.tables.services.naming.reset_name).

Params: new_home {"new_home": row id, "token": ""} (the link is rebuilt from the row when
the email is written, never stored: the row keeps its salt); table_closed {"table": id,
"language"}; name_reset {"name": the name that was reset, the player's own, "language"}.
None carries anything a stranger wrote.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render
from games.mail.services.notification_rows import Spec, address_hash
from games.people.core.home_links import HomeLink, home_link
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.new_homes import NewHome
from games.seats.core.links import purpose_token
from games.tables.core.table_rows import OpenTable

Kind = Notification.Kind
NEW_HOME = "new-home"  # the purpose of the confirmation links (games.seats.core.links)


def new_home_spec(row: NewHome, day: str, language: str) -> list[Spec]:
    """One confirmation email per mailbox and day (`day` makes the key)."""
    return [Spec(key=f"new_home:{row.counted[:16]}:{day}", kind=Kind.NEW_HOME,
                 to_email=row.address, params={"new_home": row.pk, "language": language})]


def table_closed_spec(address: str, table_id: int, language: str) -> list[Spec]:
    return [Spec(key=f"table_closed:{address_hash(address)}:t={table_id}",
                 kind=Kind.TABLE_CLOSED, to_email=address,
                 params={"table": table_id, "language": language})]


def name_reset_spec(address: str, name_id: int, name: str, language: str) -> list[Spec]:
    return [Spec(key=f"name_reset:{address_hash(address)}:n={name_id}", kind=Kind.NAME_RESET,
                 to_email=address, params={"name": name, "language": language})]


def name_reset(note: Notification) -> Letter:
    subject = _("A moderator reset your public name")
    return render("name_reset", subject, {"name": str(note.params.get("name") or ""),
                                          "home": home_link(note.to_email)})


def new_home(note: Notification) -> Letter:
    row = NewHome.objects.filter(pk=note.params.get("new_home")).first()
    if row is None:
        raise Skip("the new home was confirmed or has expired")
    if HomeLink.objects.filter(of_mailbox(row.address)).exists():
        link, confirmed = home_link(row.address), True
    else:
        link = settings.SITE_URL + reverse("games:me-new",
                                           args=[purpose_token(NEW_HOME, row.salt)])
        confirmed = False
    subject = (_("Your home on Saboteur by post") if confirmed
               else _("Confirm your address to get a home on Saboteur by post"))
    return render("new_home", subject, {"link": link, "confirmed": confirmed})


def table_closed(note: Notification) -> Letter:
    table = OpenTable.objects.filter(pk=note.params.get("table")).first()
    if table is None or table.status != OpenTable.Status.EXPIRED:
        raise Skip("the table did not expire")
    subject = _("Your open table did not fill up")
    return render("table_closed", subject, {
        "table": table, "home": home_link(note.to_email),
        "tables": settings.SITE_URL + reverse("games:tables")})
