"""HTML forms. They only check shapes; the rules are the engine's, the writes the services'."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games.game.core.choices import ConfirmMoves
from games.kit import jsonsafe
from games.kit.form_fields import printable_message, zone_field
from games.kit.remembered_forms import RememberedForm
from games.moves.services.seat_services import MAX_MESSAGE_LENGTH

CARD_ID = re.compile(r"\A[a-z0-9-]{1,20}\Z")
MAX_CARD_IDS = 12






















class CardIdsField(forms.Field):
    """Card ids from checkboxes sharing one name (the discard form): a list, maybe empty."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[str]:
        ids = [str(v) for v in value or []]
        if len(ids) > MAX_CARD_IDS or any(not CARD_ID.fullmatch(i) for i in ids):
            raise forms.ValidationError(_("Those cards could not be read."))
        return ids


class MoveForm(forms.Form):
    """A move: chosen whole (`move`, the JSON of a legal move) or composed from the
    discard form's checkboxes (`compose` = "pass" or "free", `cards`, `remove`)."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    move = forms.CharField(max_length=2000, required=False)
    compose = forms.ChoiceField(required=False, choices=[("", ""), ("pass", "pass"),
                                                         ("free", "free")])
    cards = CardIdsField(required=False)
    remove = forms.RegexField(CARD_ID, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        compose = data.get("compose")
        if compose:
            data["move"] = self.composed(compose, data)
        elif data.get("move"):
            data["move"] = self.parsed(data["move"])
        else:
            raise forms.ValidationError(_("Choose a move first."))
        return data

    @staticmethod
    def composed(kind: str, data: dict[str, Any]) -> dict[str, Any]:
        """The move the discard form describes; the engine judges it."""
        move: dict[str, Any] = {"type": kind, "cards": list(data.get("cards") or [])}
        if kind == "free":
            if not data.get("remove"):
                raise forms.ValidationError(_("Choose the card in front of you to remove."))
            move["remove"] = data["remove"]
        return move

    @staticmethod
    def parsed(raw: str) -> dict[str, Any]:
        try:
            move = jsonsafe.loads(raw)
        except ValueError:
            raise forms.ValidationError(_("That move could not be read.")) from None
        if not isinstance(move, dict):
            raise forms.ValidationError(_("That move could not be read."))
        return move


class TalkForm(RememberedForm):
    text = forms.CharField(label=_("Say something to the table"), max_length=MAX_MESSAGE_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 2}),
                           validators=[printable_message])




class PreferencesForm(RememberedForm):
    time_zone = zone_field(_("Time zone"))
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)

    def refusal(self) -> str:
        """Why the preferences were not saved, naming what was wrong ("Unknown time zone
        Mars/Olympus.")."""
        reasons = [str(error) for errors in self.errors.values() for error in errors]
        return " ".join([str(_("Those preferences could not be saved.")), *reasons])


class SeatPreferencesForm(PreferencesForm):
    """The seat page's settings: the person's time zone and language as on the home, and
    whether this seat's page asks once more before a card is played (mis-taps on phones).
    Not required: a page from before the setting existed keeps the seat's choice."""

    confirm_moves = forms.ChoiceField(label=_("Confirm my move"), required=False,
                                      choices=ConfirmMoves.choices, widget=forms.Select(
                                          attrs={"aria-describedby": "confirm-moves-hint"}))




