"""The tournaments' letters:

- confirm_event: "confirm your new tournament" (a host asked for an event on
  /tournaments/new/; games.tournaments.services.hosting). Params: {"event_request": row
  id, "language"}; the link is rebuilt from the row's salt when the email is written,
  never stored. It carries the event's settings as chosen from the form's lists and
  numbers, and its name (one line the host typed, as on the event's public page once
  created).
- event_result: the event has ended (games.tournaments.services.event_end), to each
  member and the host. Params: {"tournament", "entry": the member's entry id (None for
  the host), "outcome": finished, too_few, host or moderators, "reason": the moderators'
  words (a cancel of theirs), "language"}. Finished: the reader's place and score in the
  field, the top of the standings and the link to the event's page; cancelled: why (the
  moderators' reason quoted as they wrote it), and the link. The standings are the event page's
  (public names, else "Player N"; never an address), and nothing of any game's hands.
  The subject carries no name (the event's name is text its host typed, and the
  subject is the line a mailbox shows unopened).
- event_changed: the host changed what a member signed up for while sign-up was open
  (games.tournaments.services.event_changes), to each member. Params: {"tournament",
  "entry", "changed": the settings changed (ruleset, players, rounds, clock, rated),
  "language"}. Each named with its value now, the sign-up's end, the event's page and
  the member's home (where they may leave it). Skipped once the event is no longer open
  for sign-up (its start or its cancel says the rest) or the member has left. No name in
  the subject either.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clock.core.clock_presets import clock_words
from games.clock.core.rules import zone_of
from games.kit.link_tokens import purpose_token
from games.mail.core.letter_registry import Builder
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render
from games.people.core.home_links import home_link
from games.setup.core.player_defaults import seat_language_and_zone
from games.tournaments.core.event_rows import Entry, EventRequest, Tournament
from games.tournaments.core.event_settings import stored_clock
from games.tournaments.services.event_end import FINISHED, OUTCOMES
from games.tournaments.services.event_list import event_page
from games.tournaments.services.hosting import PURPOSE

Kind = Notification.Kind
TOP = 5  # the standings' first rows an event's result email shows


def confirm_event(note: Notification) -> Letter:
    row = EventRequest.objects.filter(pk=note.params.get("event_request")).first()
    if row is None or row.tournament_id is not None:
        raise Skip("the tournament was confirmed or has expired")
    link = settings.SITE_URL + reverse("games:tournament-confirm",
                                       args=[purpose_token(PURPOSE, row.salt)])
    return render("confirm_event", _("Confirm your new tournament on Saboteur by post"),
                  {"link": link, "ruleset": row.settings.get("ruleset", "base")})


def event_result(note: Notification) -> Letter:
    event_id, entry_id = note.params.get("tournament"), note.params.get("entry")
    outcome = str(note.params.get("outcome") or "")
    page = event_page(event_id) if isinstance(event_id, int) else None
    if page is None or outcome not in OUTCOMES:
        raise Skip("the tournament is gone")
    finished = outcome == FINISHED
    if page.event.status != (Tournament.Status.FINISHED if finished
                             else Tournament.Status.CANCELLED):
        raise Skip("the tournament did not end so")
    mine = next((row for row in page.standings if row.standing.member == entry_id), None)
    if entry_id is not None and mine is None:
        raise Skip("the entry is gone")
    subject = (_("Your tournament on Saboteur by post has ended") if finished
               else _("Your tournament on Saboteur by post was cancelled"))
    return render("event_result", subject, {
        "event": page.event, "outcome": outcome, "mine": mine,
        "field": len(page.standings), "top": page.standings[:TOP] if finished else [],
        "ruleset": page.event.ruleset, "reason": str(note.params.get("reason") or ""),
        "link": settings.SITE_URL + reverse("games:tournament", args=[page.event.id])})


def event_changed(note: Notification) -> Letter:
    event = Tournament.objects.filter(pk=note.params.get("tournament")).first()
    if event is None or event.status != Tournament.Status.OPEN:
        raise Skip("the tournament is no longer open for sign-up")
    if not Entry.objects.filter(tournament=event, pk=note.params.get("entry")).exists():
        raise Skip("the member has left")
    changed = [str(field) for field in note.params.get("changed") or []]
    _language, zone = seat_language_and_zone(note.to_email, game_language=event.language)
    with timezone.override(zone_of(zone)):  # the sign-up's end in the member's time
        return render("event_changed", _("A tournament you joined has changed"), {
            "event": event, "changed": changed, "ruleset": event.ruleset,
            "clock_words": clock_words(event.hours_per_move, stored_clock(event.clock)),
            "link": settings.SITE_URL + reverse("games:tournament", args=[event.pk]),
            "home": home_link(note.to_email) + "#tournaments"})


LETTERS: dict[str, Builder] = {Kind.CONFIRM_EVENT: confirm_event,
                               Kind.EVENT_RESULT: event_result,
                               Kind.EVENT_CHANGED: event_changed}
