"""The setup page's form: the game's name, rules, pace, seating and clock, and its players."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games import engine
from games.clock.doors.clock_forms import ClockFields
from games.game.core.game import MAX_HOURS_PER_MOVE, BotLevel, TimeoutPolicy, WhileOpen
from games.kit.form_fields import printable_text, valid_zone, zone_datalist, zone_field
from games.people.core.deliverable import AddressField, OwnAddressField
from games.seatview.core.words import option_label, option_value_label, ruleset_name
from games.setup.core.player_defaults import seat_language_and_zone
from games.setup.services.game_setup import PlayerSpec, bot_players

MAX_PLAYERS = max(rules.max_seats for rules in engine.RULESETS.values())


PLAYER_ZONES = "id_time_zone_zones"  # the datalist id the player rows' zone boxes use


def ruleset_label(ruleset: str) -> str:
    """'Saboteur 2 (the expansion), 2 to 12 players' for the setup page's choice."""
    rules = engine.rules_for(ruleset)
    return _("%(name)s, %(min)s to %(max)s players") % {
        "name": ruleset_name(ruleset), "min": rules.min_seats, "max": rules.max_seats}


class SetupForm(ClockFields, forms.Form):
    name = forms.CharField(label=_("Name of the game"), max_length=100,
                           validators=[printable_text])
    host_email = OwnAddressField(
        label=_("Your email address"),
        help_text=_("We email you a link to check the game; the invitations leave only "
                    "once you have opened it."))
    ruleset = forms.ChoiceField(label=_("Rules"))
    hours_per_move = forms.IntegerField(
        label=_("Hours per move"), min_value=1, max_value=MAX_HOURS_PER_MOVE,
        initial=settings.DEFAULT_HOURS_PER_MOVE)
    seating = forms.ChoiceField(label=_("Seating"), initial="order", choices=[
        ("order", _("in the order entered")), ("random", _("at random"))])
    start = forms.ChoiceField(label=_("Start"), initial="accepted", choices=[
        ("accepted", _("when every player has accepted")), ("now", _("at once"))])
    spectators_allowed = forms.BooleanField(label=_("Allow spectators"), required=False)
    rated = forms.BooleanField(
        label=_("Rated: the rounds count for the players' ratings"), required=False,
        help_text=_("A round counts only when every seat is played by a different player who "
                    "took it from their own address: each player must play through their "
                    "own link (accepting through an invitation link you hand out is not "
                    "enough)."))
    anonymous = forms.BooleanField(
        label=_("Anonymous: every player is known by an animal's or a stone's name until "
                "the game ends"), required=False,
        help_text=_("Nobody sees the players' names while the game goes on, not even you on "
                    "your host's page: the server never sends them. The seats are taken in a "
                    "random order; the names appear when the game is over."))
    bots = forms.IntegerField(
        label=_("Bots"), min_value=0, max_value=MAX_PLAYERS - 1, initial=0, required=False,
        help_text=_("Bots take this many more seats: they play from their own seat's view, "
                    "like any player, a few seconds after their turn starts."))
    bot_level = forms.ChoiceField(
        label=_("How bots play"), choices=BotLevel.choices, initial=BotLevel.NORMAL,
        required=False,
        help_text=_("A strong bot guesses the others' roles from what they play and "
                    "tries its moves out before it plays one."))
    timeout_policy = forms.ChoiceField(label=_("When a deadline passes"),
                                       choices=TimeoutPolicy.choices, required=False,
                                       initial=TimeoutPolicy.AUTO_PASS)
    time_zone = zone_field(_("Players' time zone"), initial="UTC")
    language = forms.ChoiceField(label=_("Players' language"), choices=settings.LANGUAGES,
                                 initial="en")
    # When a player leaves (games.handover).
    while_seat_open = forms.ChoiceField(
        label=_("While a seat looks for a new player"), choices=WhileOpen.choices,
        initial=WhileOpen.BOT, required=False)
    open_absent_seats = forms.BooleanField(
        label=_("Look for a new player for a seat that missed 3 deadlines in a row"),
        required=False)
    list_open_seats = forms.BooleanField(
        label=_("List this game's open seats on the public open-seats page"), required=False,
        help_text=_("Only the rules, the pace and how far the game is: no names."))

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
                label=_("Player %(n)s") % {"n": i + 1}, max_length=60, required=False,
                validators=[printable_text],
                widget=forms.TextInput(attrs={"placeholder": _("name"),
                                              "autocomplete": "off"}))
            self.fields[f"player_{i}_email"] = AddressField(
                label=_("Email address of player %(n)s") % {"n": i + 1}, required=False,
                widget=forms.EmailInput(attrs={"placeholder": _("email address"),
                                               "autocomplete": "off"}))
            # Empty: what the player chose for all their games, else the game's choice.
            self.fields[f"player_{i}_language"] = forms.ChoiceField(
                label=_("Language of player %(n)s") % {"n": i + 1}, required=False,
                choices=[("", _("as for the game")), *settings.LANGUAGES])
            self.fields[f"player_{i}_time_zone"] = forms.CharField(
                label=_("Time zone of player %(n)s") % {"n": i + 1}, required=False,
                max_length=64, validators=[valid_zone], widget=forms.TextInput(attrs={
                    "placeholder": _("time zone as for the game"), "autocomplete": "off",
                    "spellcheck": "false", "list": PLAYER_ZONES}))

    def game_rows(self) -> list[forms.BoundField]:
        names = ["name", "host_email", "ruleset", "hours_per_move", "timeout_policy", "seating",
                 "start",
                 "time_zone", "language", "bots", "bot_level"]
        return [self[name] for name in names]

    def player_rows(self) -> list[tuple[forms.BoundField, ...]]:
        """(name, email, language, time zone) of each player row."""
        return [tuple(self[f"player_{i}_{part}"]
                      for part in ("name", "email", "language", "time_zone"))
                for i in range(MAX_PLAYERS)]

    def option_rows(self) -> list[forms.BoundField]:
        return [self[key] for key in self.option_fields]

    def player_zones(self) -> SafeString:
        """The zones each player row's box offers as you type (one list for all rows)."""
        return zone_datalist(PLAYER_ZONES)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        extra = [key for key in self.data if re.fullmatch(r"player_\d+_(name|email)", key)
                 and int(key.split("_")[1]) >= MAX_PLAYERS and self.data.get(key)]
        if extra:
            raise forms.ValidationError(_("A game has at most %(max)s players.")
                                        % {"max": MAX_PLAYERS})
        players = []
        half_filled = False
        for i in range(MAX_PLAYERS):
            name = (data.get(f"player_{i}_name") or "").strip()
            email = (data.get(f"player_{i}_email") or "").strip()
            if name and email:
                language, zone = seat_language_and_zone(
                    email, language=data.get(f"player_{i}_language") or "",
                    time_zone=data.get(f"player_{i}_time_zone") or "",
                    game_language=data.get("language") or "en",
                    game_time_zone=data.get("time_zone") or "UTC")
                players.append(PlayerSpec(name=name, email=email, time_zone=zone,
                                          language=language))
            elif name or email:
                half_filled = True
                self.add_error(f"player_{i}_name", _("Player %(n)s: give both a name and an "
                                                     "email address.") % {"n": i + 1})
        if not players and half_filled:
            return data  # the row's own error says what is missing, nothing else does
        if not players:
            raise forms.ValidationError(_("Add at least one player: a game cannot be only "
                                          "bots."))
        players += bot_players(data.get("bots") or 0, [p.name for p in players])
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
        data["timeout_policy"] = data.get("timeout_policy") or TimeoutPolicy.AUTO_PASS
        data["while_seat_open"] = data.get("while_seat_open") or WhileOpen.BOT
        data["bot_level"] = data.get("bot_level") or BotLevel.NORMAL
        return data
