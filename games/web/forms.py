"""HTML forms. They only check shapes; the rules are the engine's, the writes the services'."""

from __future__ import annotations

import json
import re
import zoneinfo
from functools import cache, lru_cache
from typing import Any

from django import forms
from django.conf import settings
from django.forms.renderers import BaseRenderer
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games import engine
from games.models import MAX_HOURS_PER_MOVE
from games.play.services import MAX_MESSAGE_LENGTH, PlayerSpec
from games.present.words import option_label, option_value_label, ruleset_name

MAX_PLAYERS = max(rules.max_seats for rules in engine.RULESETS.values())
CARD_ID = re.compile(r"\A[a-z0-9-]{1,20}\Z")
MAX_CARD_IDS = 12


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    zones = sorted(zoneinfo.available_timezones() - {"localtime", "Factory"})
    return [(z, z) for z in ["UTC", *[z for z in zones if z != "UTC"]]]


@lru_cache(maxsize=16)
def _options_html(choices: tuple[tuple[str, str], ...]) -> str:
    return format_html_join("", '<option value="{}">{}</option>', choices)


class LongSelect(forms.Select):
    """A select for long lists (time zones): its options are rendered once and cached.
    forms.Select renders a template per option, tens of milliseconds for 600 zones."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None,
               renderer: BaseRenderer | None = None) -> SafeString:
        final = self.build_attrs(self.attrs, attrs)
        options = _options_html(tuple((str(key), str(label)) for key, label in self.choices))
        if value is not None:
            chosen = format_html('value="{}">', value)
            options = options.replace(chosen, chosen[:-1] + " selected>", 1)
        attributes = format_html_join(
            "", ' {}="{}"', ((k, k if v is True else v) for k, v in final.items()
                             if v is not False and v is not None))
        return format_html('<select name="{}"{}>{}</select>', name, attributes,
                           mark_safe(options))  # built by format_html_join above


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
            move = json.loads(raw)
        except ValueError:
            raise forms.ValidationError(_("That move could not be read.")) from None
        if not isinstance(move, dict):
            raise forms.ValidationError(_("That move could not be read."))
        return move


class TalkForm(forms.Form):
    text = forms.CharField(label=_("Say something to the table"), max_length=MAX_MESSAGE_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 2}))


class PreferencesForm(forms.Form):
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=time_zone_choices,
                                  widget=LongSelect)
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)


def ruleset_label(ruleset: str) -> str:
    """'Saboteur 2 (the expansion), 2 to 12 players' for the setup page's choice."""
    rules = engine.rules_for(ruleset)
    return _("%(name)s, %(min)s to %(max)s players") % {
        "name": ruleset_name(ruleset), "min": rules.min_seats, "max": rules.max_seats}


class SetupForm(forms.Form):
    name = forms.CharField(label=_("Name of the game"), max_length=100)
    ruleset = forms.ChoiceField(label=_("Rules"))
    hours_per_move = forms.IntegerField(
        label=_("Hours per move"), min_value=1, max_value=MAX_HOURS_PER_MOVE,
        initial=settings.DEFAULT_HOURS_PER_MOVE)
    seating = forms.ChoiceField(label=_("Seating"), initial="order", choices=[
        ("order", _("in the order entered")), ("random", _("at random"))])
    start = forms.ChoiceField(label=_("Start"), initial="accepted", choices=[
        ("accepted", _("when every player has accepted")), ("now", _("at once"))])
    spectators_allowed = forms.BooleanField(label=_("Allow spectators"), required=False)
    time_zone = forms.ChoiceField(label=_("Players' time zone"), choices=time_zone_choices,
                                  initial="UTC", widget=LongSelect)
    language = forms.ChoiceField(label=_("Players' language"), choices=settings.LANGUAGES,
                                 initial="en")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The players most likely read what the host reads: the page's own language.
        self.fields["language"].initial = translation.get_language() or "en"
        ruleset_field = self.fields["ruleset"]
        assert isinstance(ruleset_field, forms.ChoiceField)
        ruleset_field.choices = [(name, ruleset_label(name)) for name in engine.RULESETS]
        self.option_fields: list[str] = []
        for ruleset, rules in engine.RULESETS.items():
            for option, values in rules.option_choices.items():
                key = f"option_{ruleset}_{option}"
                self.fields[key] = forms.ChoiceField(
                    label=f"{ruleset_name(ruleset)}: {option_label(option)}",
                    choices=[(json.dumps(v), option_value_label(option, v)) for v in values],
                    initial=json.dumps(rules.default_options[option]),
                    required=False)  # only the chosen rules' options count
                self.option_fields.append(key)
        for i in range(MAX_PLAYERS):
            self.fields[f"player_{i}_name"] = forms.CharField(
                label=_("Player %(n)s") % {"n": i + 1}, max_length=60, required=False)
            self.fields[f"player_{i}_email"] = forms.EmailField(
                label=_("Email"), required=False)

    def game_rows(self) -> list[forms.BoundField]:
        names = ["name", "ruleset", "hours_per_move", "seating", "start", "time_zone", "language"]
        return [self[name] for name in names]

    def player_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"player_{i}_name"], self[f"player_{i}_email"])
                for i in range(MAX_PLAYERS)]

    def option_rows(self) -> list[forms.BoundField]:
        return [self[key] for key in self.option_fields]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        players = []
        for i in range(MAX_PLAYERS):
            name = (data.get(f"player_{i}_name") or "").strip()
            email = (data.get(f"player_{i}_email") or "").strip()
            if name and email:
                players.append(PlayerSpec(name=name, email=email,
                                          time_zone=data.get("time_zone", "UTC"),
                                          language=data.get("language", "en")))
            elif name or email:
                self.add_error(f"player_{i}_name", _("Give both a name and an email."))
        ruleset = data.get("ruleset")
        if ruleset in engine.RULESETS:
            rules = engine.rules_for(ruleset)
            if not rules.min_seats <= len(players) <= rules.max_seats:
                raise forms.ValidationError(
                    _("These rules need %(min)s to %(max)s players.")
                    % {"min": rules.min_seats, "max": rules.max_seats})
            data["options"] = {
                option: json.loads(data[f"option_{ruleset}_{option}"])
                for option in rules.option_choices
                if data.get(f"option_{ruleset}_{option}")
            }
        data["players"] = players
        return data
