"""Emails of the handover (games.handover): a volunteer's standby link, and the offer of
an open seat. Written in the volunteer's (or the invitation's) language, given in the
notification's params (games.mail.core.letter_registry); they carry no player's address, and the
offer's facts come from the spectator's view (games.handover.services.open_seat_facts).

Params: standby {"volunteer": id, "language", "mailbox"}; offer {"offer": id, "language",
"mailbox"}. The links are rebuilt when the email is written, never stored.

An offer goes to someone who is not at the table (a volunteer, whoever a player named,
whoever asked on the open-seats page): it carries nothing a host or a player wrote (not
the game's name), only the facts, so the offer cannot carry anyone's text to a stranger's
mailbox. The offer's page, behind its private link, names the game.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.handover.core.handover_rows import SeatOffer, Volunteer, offer_token, volunteer_token
from games.handover.services.open_seat_facts import seat_facts
from games.mail.core.letter_registry import Builder
from games.mail.core.message import unsubscribe_url
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render

Kind = Notification.Kind


def standby(note: Notification) -> Letter:
    volunteer = Volunteer.objects.filter(pk=note.params.get("volunteer")).first()
    if volunteer is None or not volunteer.email:
        raise Skip("the volunteer left")
    link = _standby_url(volunteer)
    confirmed = volunteer.confirmed_at is not None and volunteer.left_at is None
    subject = (_("Your standby link for open Saboteur seats") if confirmed
               else _("Confirm: stand by for open Saboteur seats"))
    return render("standby", subject, {"link": link, "confirmed": confirmed,
                                       "unsubscribe": unsubscribe_url(note)})


def seat_offer(note: Notification) -> Letter:
    offer = (SeatOffer.objects.select_related("open_seat", "open_seat__game",
                                              "open_seat__seat", "volunteer")
             .filter(pk=note.params.get("offer")).first())
    if (offer is None or offer.state != SeatOffer.State.PENDING
            or offer.open_seat.closed_at is not None):
        raise Skip("the seat was taken, or it no longer needs a player")
    row = offer.open_seat
    link = settings.SITE_URL + reverse("games:seat-offer", args=[offer_token(offer)])
    # The subject carries nothing a host or a player wrote (what a mailbox shows unopened).
    subject = _("A seat in a Saboteur game is free: will you take it over?")
    return render("seat_offer", subject, {
        "link": link, "facts": seat_facts(row), "ruleset": row.game.ruleset,
        "source": offer.source, "unsubscribe": unsubscribe_url(note),
        "standby_link": _own_standby_link(offer)})


def _own_standby_link(offer: SeatOffer) -> str:
    """The volunteer's own standby settings (pause, change, leave), for an offer made to a
    standby volunteer; "" for the others (they are on no standby)."""
    volunteer = offer.volunteer
    if offer.source != SeatOffer.Source.STANDBY or volunteer is None or not volunteer.email:
        return ""
    return _standby_url(volunteer)


def _standby_url(volunteer: Volunteer) -> str:
    return settings.SITE_URL + reverse("games:standby-manage", args=[volunteer_token(volunteer)])


LETTERS: dict[str, Builder] = {Kind.STANDBY: standby, Kind.SEAT_OFFER: seat_offer}
