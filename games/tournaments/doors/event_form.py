"""The form of /tournaments/new/: a tournament's settings as a host gives them, and the
host's address. The form checks the shape of each field; the rules (table sizes per
ruleset, a sign-up window to come) are read_settings', whose refusal names the field.
EventEditForm: the same settings on the host's edit page, filled with the event's."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from games.clock.core.clock_presets import clock_words, matching_preset, preset_choices
from games.tournaments.core.event_rows import Tournament
from games.tournaments.core.event_settings import (
    MAX_CAP,
    MAX_ROUND_DAYS,
    MAX_ROUNDS,
    size_setting,
    stored_clock,
)


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name of the tournament"), max_length=100)
    ruleset = forms.ChoiceField(label=_("Game"), choices=[
        ("base", _("Saboteur")), ("saboteur2", _("Saboteur 2"))])
    players = forms.CharField(
        label=_("Players at a table"), max_length=10, initial="even",
        help_text=_("A number (5), a range (4-6), or “even”: as even as the field allows."))
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS,
                                initial=3)
    clock_preset = forms.ChoiceField(label=_("Clock"), initial="day")
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    rated = forms.BooleanField(label=_("Rated"), required=False)
    duplicate = forms.BooleanField(label=_("The same deal at every table"), required=False)
    cap = forms.IntegerField(label=_("Most players"), min_value=2, max_value=MAX_CAP,
                             initial=64)
    signup_closes = forms.DateTimeField(
        label=_("Sign-up closes"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                   format="%Y-%m-%dT%H:%M"))
    round_days = forms.IntegerField(label=_("Days a round lasts at most"), min_value=1,
                                    max_value=MAX_ROUND_DAYS, initial=30)
    host_email = forms.EmailField(
        label=_("Your email"),
        help_text=_("We email you a link to confirm the tournament: it is created only "
                    "then."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The presets' words in the language of this request.
        self.fields["clock_preset"].choices = preset_choices()  # type: ignore[attr-defined]
        language = translation.get_language() or ""
        if language in dict(settings.LANGUAGES):
            self.fields["language"].initial = language  # the page's, unless chosen
        self.fields["signup_closes"].help_text = _("Time zone: %(zone)s.") % {
            "zone": timezone.get_current_timezone_name()}

    def event_settings(self) -> dict[str, Any]:
        """The settings as JSON (kept until the host confirms; read by read_settings)."""
        data = self.cleaned_data
        players = data["players"].strip()
        return {"name": data["name"], "ruleset": data["ruleset"],
                "players": int(players) if players.isdigit() else players,
                "rounds": data["rounds"], "clock_preset": data["clock_preset"],
                "language": data["language"], "rated": data["rated"],
                "duplicate": data["duplicate"], "cap": data["cap"],
                "signup_closes": data["signup_closes"].isoformat(),
                "round_days": data["round_days"]}



class EventEditForm(EventForm):
    """The host's edit page: the creation's settings (and its checks) without the host's
    address, filled with the event's. An event whose clock is no preset's (made by the
    API or the operator) is offered "as it is now" first, which keeps it."""

    def __init__(self, *args: Any, event: Tournament, **kwargs: Any) -> None:
        clock = stored_clock(event.clock)
        preset = matching_preset(event.hours_per_move, clock)
        kwargs["initial"] = {
            "name": event.name, "ruleset": event.ruleset,
            "players": size_setting(event.ruleset, event.min_size, event.max_size),
            "rounds": event.rounds, "clock_preset": preset.name if preset else "",
            "language": event.language, "rated": event.rated, "duplicate": event.duplicate,
            "cap": event.cap, "signup_closes": event.signup_closes_at,
            "round_days": event.round_days}
        super().__init__(*args, **kwargs)
        del self.fields["host_email"]
        if preset is None:
            own = _("As it is now: %(clock)s") % {
                "clock": clock_words(event.hours_per_move, clock)}
            field = self.fields["clock_preset"]
            field.choices = [("", own), *preset_choices()]  # type: ignore[attr-defined]
