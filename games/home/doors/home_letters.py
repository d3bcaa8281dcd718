"""The home's letter: "confirm your new home" (an address that plays nowhere yet asked
/me/ for a home; games.home.services.welcome). Params: {"new_home": row id, "language"};
the link is rebuilt from the row when the email is written, never stored (the row keeps
its salt). It carries nothing anyone wrote."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.home.services.welcome import NEW_HOME
from games.kit.link_tokens import purpose_token
from games.mail.core.letter_registry import Builder
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render
from games.people.core.home_links import HomeLink, home_link
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.new_homes import NewHome

Kind = Notification.Kind


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


LETTERS: dict[str, Builder] = {Kind.NEW_HOME: new_home}
