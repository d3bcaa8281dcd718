"""The handover in the admin (games.handover): open seats, offers and standby volunteers
listed; on a game's moderation page, "look for a new player for a seat" and "give an open
seat to someone" (forms and handlers used by games.moderation.doors.moderate)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.game.core.game import Game
from games.handover.core.handover_rows import OpenSeat, SeatOffer, Volunteer
from games.handover.services import takeover
from games.moderation.doors.action_forms import (
    PublicReasonForm,
    ReasonForm,
    SeatChoiceForm,
    choice_field,
)
from games.moderation.doors.admin_base import ReadOnlyAdmin
from games.moderation.doors.admin_records import GameColumn
from games.moderation.doors.permissions import moderator
from games.moderation.services import moderator_handover
from games.people.core.deliverable import AddressField

# ---- the moderation page's two actions ---------------------------------------------------


class OpenSeatForm(SeatChoiceForm, PublicReasonForm):
    """Look for a new player for a seat (offers go to standby volunteers)."""


class AssignSeatForm(ReasonForm):
    open_seat = forms.TypedChoiceField(label=gettext_lazy("Open seat"), coerce=int)
    name = forms.CharField(label=gettext_lazy("New player's name"), max_length=60)
    email = AddressField(label=gettext_lazy("New player's email"))
    language = forms.ChoiceField(label=gettext_lazy("Language"), choices=settings.LANGUAGES)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "open_seat").choices = [
            (row.pk, f"{row.seat.shown_number}: {row.left_name}")
            for row in OpenSeat.objects.filter(game=game, closed_at__isnull=True)
            .select_related("seat").order_by("seat__number")]


def open_seat_action(request: HttpRequest, site: admin.AdminSite, game: Game,
                     form: forms.Form) -> tuple[Game, str]:
    data = form.cleaned_data
    row = moderator_handover.open_seat(data["seat"], moderator=moderator(request),
                                  reason=data["reason"], public_note=data["public_note"])
    return game, _("Seat %(n)s is looking for a new player; offers go to volunteers on "
                   "standby.") % {"n": row.seat.shown_number}


def assign_action(request: HttpRequest, site: admin.AdminSite, game: Game,
                  form: forms.Form) -> tuple[Game, str]:
    data = form.cleaned_data
    seat = moderator_handover.assign(data["open_seat"], takeover.Newcomer(
        name=data["name"], email=data["email"], language=data["language"]),
        moderator=moderator(request), reason=data["reason"])
    return game, _("Seat %(n)s now belongs to %(name)s; their own link is on its way to "
                   "them and the old link no longer works.") % {
        "n": seat.shown_number, "name": seat.player_name}


# ---- the lists --------------------------------------------------------------------------


@admin.register(OpenSeat)
class OpenSeatAdmin(GameColumn, ReadOnlyAdmin):
    list_display = ("game_name", "seat_number", "left_name", "reason", "while_open",
                    "opened_at", "offered_at", "pending_offers", "outcome", "closed_at")
    list_filter = ("outcome", "reason", "while_open")
    list_select_related = ("game", "seat")
    fields = ("game", "seat", "reason", "while_open", "left_name", "version", "opened_at",
              "offered_at", "closed_at", "outcome")

    @admin.display(description=gettext_lazy("seat"))
    def seat_number(self, row: OpenSeat) -> int:
        return row.seat.number

    @admin.display(description=gettext_lazy("offers waiting"))
    def pending_offers(self, row: OpenSeat) -> int:
        return row.offers.filter(state=SeatOffer.State.PENDING).count()


@admin.register(SeatOffer)
class SeatOfferAdmin(ReadOnlyAdmin):
    list_display = ("open_seat", "to_email", "source", "state", "created_at", "answered_at")
    list_filter = ("state", "source")
    search_fields = ("to_email",)
    list_select_related = ("open_seat",)
    # Never the link's salt: with the link key it rebuilds the offer's link.
    fields = ("open_seat", "volunteer", "to_email", "source", "invited_by", "state",
              "created_at", "answered_at")


@admin.register(Volunteer)
class VolunteerAdmin(ReadOnlyAdmin):
    list_display = ("name", "email", "languages", "rulesets", "games_at_once",
                    "offers_per_day", "confirmed_at", "paused_at", "left_at")
    list_filter = (("confirmed_at", admin.EmptyFieldListFilter),
                   ("paused_at", admin.EmptyFieldListFilter),
                   ("left_at", admin.EmptyFieldListFilter))
    search_fields = ("name", "email")
    fields = ("name", "email", "languages", "rulesets", "games_at_once", "offers_per_day",
              "time_zone", "created_at", "confirmed_at", "paused_at", "left_at")

