"""The setup page's clock fields (games.clock.core.clock_setup checks them): a preset
(games.clock.core.clock_presets), or a time bank instead of the fixed time per move,
weekdays off, dates off."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.clock.core import timing as timing
from games.clock.core.clock_presets import preset_choices, preset_named
from games.clock.core.clock_setup import clock_settings
from games.game.core.clock_fields import MAX_BANK_HOURS
from games.kit.service_errors import SetupError

WEEKDAY_CHOICES = [(name, label) for name, label in zip(timing.WEEKDAYS, [
    _("Monday"), _("Tuesday"), _("Wednesday"), _("Thursday"), _("Friday"), _("Saturday"),
    _("Sunday")], strict=True)]


def preset_field() -> forms.ChoiceField:
    """The choice of a clock preset, "" for the host's own clock (the fields below)."""
    return forms.ChoiceField(
        label=_("Clock"), required=False, initial="",
        help_text=_("A preset sets the pace and the clock; choose “my own” to use the "
                    "hours per move and the fields below."))


class ClockFields(forms.Form):
    clock_preset = preset_field()
    bank_hours = forms.IntegerField(
        label=_("Time bank per seat (hours)"), required=False, min_value=1,
        max_value=MAX_BANK_HOURS,
        help_text=_("Empty: the fixed hours per move. Else each seat's moves take time "
                    "from its own bank, and a move adds the time below, up to the cap."))
    increment_hours = forms.IntegerField(
        label=_("Hours added per move"), required=False, min_value=0, max_value=MAX_BANK_HOURS)
    bank_max_hours = forms.IntegerField(
        label=_("Most hours a bank can hold"), required=False, min_value=1,
        max_value=MAX_BANK_HOURS)
    days_off = forms.MultipleChoiceField(
        label=_("Days off"), required=False, choices=WEEKDAY_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("No clock runs on these weekdays, in each player's own time zone."))
    dates_off = forms.CharField(
        label=_("Dates off"), required=False, max_length=800,
        help_text=_("Holidays on which no clock runs, e.g. 2026-12-25, 2027-01-01."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        chosen = self.fields["clock_preset"]
        assert isinstance(chosen, forms.ChoiceField)
        chosen.choices = [("", _("my own: the hours per move and the fields below")),
                          *preset_choices()]  # in the language of the request

    def clock_rows(self) -> list[forms.BoundField]:
        return [self[name] for name in ("clock_preset", "bank_hours", "increment_hours",
                                        "bank_max_hours", "dates_off")]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        preset = preset_named(data.get("clock_preset") or "")
        if preset is not None:  # the preset's pace and clock, whatever the fields say
            data["hours_per_move"], data["clock"] = preset.hours_per_move, preset.clock
            return data
        try:
            data["clock"] = clock_settings(
                bank_hours=data.get("bank_hours"), increment_hours=data.get("increment_hours"),
                bank_max_hours=data.get("bank_max_hours"),
                days_off=",".join(data.get("days_off") or []),
                dates_off=(data.get("dates_off") or "").replace(";", ",").split(","))
        except SetupError as refused:
            raise forms.ValidationError(refused.message) from None
        return data
