"""Remembered forms (games.kit.remembered_forms) write what Django writes: the seat page's
talk, preferences and dispute forms, unbound in every language and with other initial
values, and bound with their errors, field by field against the same form rendered by
Django's own bound fields."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.utils import translation

from games.kit.remembered_forms import QuietErrorList, RememberedForm
from games.moderation.doors.dispute_form import DisputeForm
from games.play.doors.seat_forms import SeatPreferencesForm, TalkForm

LANGUAGES = ("en", "it", "nl", "es", "de")


def plain(form: RememberedForm) -> forms.Form:
    """The same form as Django writes it: its class's fields, Django's bound fields and
    error list."""
    class Plain(forms.Form):
        pass

    Plain.base_fields = type(form).base_fields
    copy = Plain(form.data if form.is_bound else None, auto_id=form.auto_id,
                 prefix=form.prefix, initial=form.initial)
    if form.is_bound:
        copy.is_valid()  # the same fields, the same data: the same errors
    return copy


def written(form: forms.Form) -> list[str]:
    parts = [str(form.non_field_errors())]
    for name in form.fields:
        field = form[name]
        parts += [str(field.label_tag()), str(field), str(field.errors)]
    return parts


FORMS: list[Any] = [
    lambda: TalkForm(auto_id="talk_%s"),
    lambda: DisputeForm(auto_id="dispute_%s"),
    lambda: SeatPreferencesForm(initial={"time_zone": "UTC", "language": "en",
                                         "confirm_moves": "touch"}),
    lambda: SeatPreferencesForm(initial={"time_zone": "Asia/Tokyo", "language": "de",
                                         "confirm_moves": "never"}),
]


@pytest.mark.parametrize("make", FORMS)
def test_an_unbound_form_is_written_as_django_writes_it_in_every_language(make: Any) -> None:
    for language in LANGUAGES:
        with translation.override(language):
            for _twice in range(2):  # written, then remembered
                form = make()
                assert written(form) == written(plain(form))


def test_another_initial_value_or_language_is_never_answered_from_memory() -> None:
    tokyo = SeatPreferencesForm(initial={"time_zone": "Asia/Tokyo"})
    paris = SeatPreferencesForm(initial={"time_zone": "Europe/Paris"})
    assert 'value="Asia/Tokyo" selected' in str(tokyo["time_zone"])
    assert 'value="Europe/Paris" selected' in str(paris["time_zone"])
    english = str(TalkForm(auto_id="talk_%s")["text"].label_tag())
    with translation.override("nl"):
        dutch = str(TalkForm(auto_id="talk_%s")["text"].label_tag())
        assert dutch == str(plain(TalkForm(auto_id="talk_%s"))["text"].label_tag())
    assert dutch != english


@pytest.mark.parametrize(("make", "data"), [
    (lambda data: TalkForm(data, auto_id="talk_%s"), {"text": ""}),
    (lambda data: TalkForm(data, auto_id="talk_%s"), {"text": "hello\u0007"}),
    (lambda data: DisputeForm(data, auto_id="dispute_%s"), {"text": "", "move_number": "x"}),
    (lambda data: SeatPreferencesForm(data), {"time_zone": "Mars/Olympus", "language": "xx"}),
])
def test_a_bound_form_keeps_its_values_and_errors(make: Any, data: dict[str, str]) -> None:
    form = make(data)
    assert not form.is_valid()
    assert written(form) == written(plain(form))
    assert any("errorlist" in part for part in written(form))


def test_an_empty_error_list_writes_nothing_and_a_full_one_its_errors() -> None:
    assert str(QuietErrorList()) == "" and QuietErrorList().__html__() == ""
    full = QuietErrorList(["Say what is wrong."])
    assert str(full) == '<ul class="errorlist"><li>Say what is wrong.</li></ul>'
