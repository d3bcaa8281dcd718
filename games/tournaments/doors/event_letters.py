"""The tournaments' letter: "confirm your new tournament" (a host asked for an event on
/tournaments/new/; games.tournaments.services.hosting). Params: {"event_request": row id,
"language"}; the link is rebuilt from the row's salt when the email is written, never
stored. It carries the event's settings as chosen from the form's lists and numbers, and
its name (one line the host typed, as on the event's public page once created)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.kit.link_tokens import purpose_token
from games.mail.core.letter_registry import Builder
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render
from games.tournaments.core.event_rows import EventRequest
from games.tournaments.services.hosting import PURPOSE

Kind = Notification.Kind


def confirm_event(note: Notification) -> Letter:
    row = EventRequest.objects.filter(pk=note.params.get("event_request")).first()
    if row is None or row.tournament_id is not None:
        raise Skip("the tournament was confirmed or has expired")
    link = settings.SITE_URL + reverse("games:tournament-confirm",
                                       args=[purpose_token(PURPOSE, row.salt)])
    return render("confirm_event", _("Confirm your new tournament on Saboteur by post"),
                  {"link": link, "ruleset": row.settings.get("ruleset", "base")})


LETTERS: dict[str, Builder] = {Kind.CONFIRM_EVENT: confirm_event}
