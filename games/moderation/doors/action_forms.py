"""The forms of the moderation page: every action asks for a reason.

`reason` is private (kept with the ModeratorAction); `public_note`, where offered,
is shown to every seat next to the neutral line in the game log.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games import engine
from games.engine.types import Move
from games.game.core.game import BotLevel, Game
from games.kit.form_fields import LongSelect, time_zone_choices
from games.moderation.services.acts import MAX_PUBLIC_NOTE, MAX_REASON
from games.moderation.services.game_clock import MAX_EXTENSION, extension_left, hours
from games.people.core.deliverable import AddressField
from games.seatview.core.move_forms import build
from games.seatview.core.words import OUTCOMES

REASON_HELP = _("Kept with the action for the other moderators; players never see it.")
NOTE_HELP = _("Optional. Every player sees it in the game log: never mention a hand, a role "
              "or a goal.")


def choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    return field


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=MAX_REASON, help_text=REASON_HELP,
                             widget=forms.Textarea(attrs={"rows": 2, "cols": 60}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        last = ["reason", "public_note"]  # what to do first, then why
        self.order_fields([f for f in self.fields if f not in last] + last)


class PublicReasonForm(ReasonForm):
    public_note = forms.CharField(label=_("Note for the table"), max_length=MAX_PUBLIC_NOTE,
                                  required=False, help_text=NOTE_HELP,
                                  widget=forms.TextInput(attrs={"size": 60}))


class UndoForm(PublicReasonForm):
    to_version = forms.IntegerField(label=_("Undo to just after move"), min_value=0,
                                    help_text=_("0 goes back to the deal of the first round."))
    expected_version = forms.IntegerField(widget=forms.HiddenInput)
    force = forms.BooleanField(label=_("Force: also undo the end of a round"), required=False)
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["to_version"].widget.attrs["max"] = max(game.version - 1, 0)
        self.fields["to_version"].initial = max(game.version - 1, 0)
        self.fields["expected_version"].initial = game.version


class SeatChoiceForm(ReasonForm):
    seat = forms.TypedChoiceField(label=_("Seat"), coerce=int)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choice_field(self, "seat").choices = [
            (s.pk, f"{s.shown_number}: {s.player_name}" + (" (bot)" if s.is_bot else ""))
            for s in game.seats.order_by("number")]


class ReplaceForm(SeatChoiceForm, PublicReasonForm):
    name = forms.CharField(label=_("New player's name"), max_length=60)
    email = AddressField(label=_("New player's email"))
    time_zone = forms.ChoiceField(label=_("Time zone"), required=False, widget=LongSelect,
                                  help_text=_("Empty: keep the seat's."))
    language = forms.ChoiceField(label=_("Language"), required=False)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, game=game, **kwargs)
        choice_field(self, "time_zone").choices = [("", "—"), *time_zone_choices()]
        choice_field(self, "language").choices = [("", "—"), *settings.LANGUAGES]


class ExtendForm(PublicReasonForm):
    hours = forms.IntegerField(label=_("Extra hours"), min_value=1,
                               max_value=int(hours(MAX_EXTENSION)))

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        left = int(hours(extension_left(game)))
        self.fields["hours"].help_text = _("At most %(max)s hours in total per turn; "
                                           "%(left)s left for this turn.") % {
            "max": int(hours(MAX_EXTENSION)), "left": left}


class CancelForm(PublicReasonForm):
    sure = forms.BooleanField(label=_("Yes, end this game for good"))


class MoveForm(PublicReasonForm):
    move = forms.ChoiceField(label=_("Move"))
    expected_version = forms.IntegerField(widget=forms.HiddenInput)

    def __init__(self, *args: Any, game: Game, legal: list[Move],
                 names: dict[int, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["expected_version"].initial = game.version
        choice_field(self, "move").choices = move_choices(game, legal, names)

    def clean_move(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.cleaned_data["move"])
        return value


def move_choices(game: Game, legal: list[Move],
                 names: dict[int, str]) -> list[Any]:
    """The legal moves grouped by hand card, labelled like the seat's own page."""
    if not legal or game.actor is None:
        return []
    built = build(engine.view(game.state(), game.actor), legal, names)
    grouped: list[Any] = []
    for card in built.hand:
        options = [(c.value, f"{group.label}: {c.label}") for group in card.groups
                   for c in group.choices]
        if options:
            grouped.append((card.name, options))
    if built.other:
        grouped.append((_("Other moves"), [(c.value, c.label) for c in built.other]))
    return grouped


class SeatReasonForm(SeatChoiceForm):
    """Rotate a seat's link."""


class BotLevelForm(ReasonForm):
    level = forms.ChoiceField(label=_("Bot level"), choices=BotLevel.choices)

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["level"].initial = game.bot_level


class HandSeatForm(SeatChoiceForm, PublicReasonForm):
    """Hand a seat to a bot, or give it back to its player."""


class ResolveForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Outcome"), choices=list(OUTCOMES.items()))
    note = forms.CharField(label=_("Note to the player who filed it"), max_length=MAX_REASON,
                           widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
                           help_text=_("Emailed to them; also kept as the reason."))
    public_note = forms.CharField(label=_("Note for the table"), max_length=MAX_PUBLIC_NOTE,
                                  required=False, help_text=NOTE_HELP,
                                  widget=forms.TextInput(attrs={"size": 60}))
