"""Forms of the handover pages: standby signup and settings, taking an offer, asking for
a listed seat, a player inviting someone to an open seat (games.handover)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from games import engine
from games.handover.core.handover_rows import MAX_GAMES_AT_ONCE, MAX_OFFERS_PER_DAY, Volunteer
from games.handover.services.standby import Choices
from games.kit.form_fields import printable_text, zone_field
from games.people.core.deliverable import AddressField, OwnAddressField
from games.seatview.core.words import ruleset_name


class StandbyChoicesForm(forms.Form):
    name = forms.CharField(label=_("Your name at the table"), max_length=60,
                           validators=[printable_text])
    languages = forms.MultipleChoiceField(
        label=_("Languages you play in"), choices=settings.LANGUAGES,
        widget=forms.CheckboxSelectMultiple)
    rulesets = forms.MultipleChoiceField(label=_("Rules"), widget=forms.CheckboxSelectMultiple)
    games_at_once = forms.TypedChoiceField(
        label=_("Games at once, at most"), coerce=int, initial=1,
        choices=[(n, str(n)) for n in range(1, MAX_GAMES_AT_ONCE + 1)])
    offers_per_day = forms.TypedChoiceField(
        label=_("Offers a day, at most"), coerce=int, initial=1,
        choices=[(n, str(n)) for n in range(1, MAX_OFFERS_PER_DAY + 1)])
    time_zone = zone_field(_("Your time zone"), initial="UTC")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rulesets = self.fields["rulesets"]
        assert isinstance(rulesets, forms.MultipleChoiceField)
        rulesets.choices = [(name, ruleset_name(name)) for name in engine.RULESETS]
        if not self.is_bound and "languages" not in self.initial:
            self.initial.update(languages=[translation.get_language() or "en"],
                                rulesets=list(engine.RULESETS))

    def choices(self) -> Choices:
        data = self.cleaned_data
        return Choices(name=data["name"], languages=data["languages"],
                       rulesets=data["rulesets"], games_at_once=data["games_at_once"],
                       offers_per_day=data["offers_per_day"], time_zone=data["time_zone"])

    @classmethod
    def of(cls, volunteer: Volunteer) -> StandbyChoicesForm:
        return cls(initial={
            "name": volunteer.name, "languages": volunteer.languages,
            "rulesets": volunteer.rulesets, "games_at_once": volunteer.games_at_once,
            "offers_per_day": volunteer.offers_per_day, "time_zone": volunteer.time_zone})


class StandbySignupForm(StandbyChoicesForm):
    email = OwnAddressField(label=_("Your email address"), help_text=_(
        "We email it a link to confirm; nothing is offered before you do."))

    field_order = ["email", "name", "languages", "rulesets", "games_at_once",
                   "offers_per_day", "time_zone"]


class TakeSeatForm(forms.Form):
    name = forms.CharField(label=_("Your name at the table"), max_length=60,
                           validators=[printable_text])
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)


class AskSeatForm(forms.Form):
    email = OwnAddressField(label=_("Your email address"), help_text=_(
        "The offer goes to this address: accept it from there."))


class InviteToSeatForm(forms.Form):
    open_seat = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    email = AddressField(label=_("Their email address"))
