"""Letters of open tables: "your open table expired" (its wait ended without enough
players and without bots; games.tables.services.starting) and "a moderator reset your
public name" (games.tables.services.naming.reset_name).

Params: table_closed {"table": id, "language"}; name_reset {"name": the name that was
reset, the player's own, "language"}. Neither carries anything a stranger wrote.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.mail.core.letter_registry import Builder
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render
from games.people.core.home_links import home_link
from games.tables.core.table_rows import OpenTable

Kind = Notification.Kind


def name_reset(note: Notification) -> Letter:
    subject = _("A moderator reset your public name")
    return render("name_reset", subject, {"name": str(note.params.get("name") or ""),
                                          "home": home_link(note.to_email)})


def table_closed(note: Notification) -> Letter:
    table = OpenTable.objects.filter(pk=note.params.get("table")).first()
    if table is None or table.status != OpenTable.Status.EXPIRED:
        raise Skip("the table did not expire")
    subject = _("Your open table did not fill up")
    return render("table_closed", subject, {
        "table": table, "home": home_link(note.to_email),
        "tables": settings.SITE_URL + reverse("games:tables")})


LETTERS: dict[str, Builder] = {Kind.NAME_RESET: name_reset, Kind.TABLE_CLOSED: table_closed}
