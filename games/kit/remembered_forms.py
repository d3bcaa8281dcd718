"""Forms whose fields, while nobody has filled them in, are written once per process for
each language, id scheme and initial value, and remembered: the same HTML Django's widget
templates write (a seat page renders three such forms on every refresh, each field's
label, widget and empty error list through a template of its own, about a tenth of the
page's time).

    class TalkForm(RememberedForm): ...

A remembered form's fields must be its class's own, the same for every instance (no
`__init__` changing a field, its widget or its choices): what a field writes is then a
function of the form's class, the field, the form's `auto_id`, `prefix` and
`label_suffix`, the field's initial value and the language active now, and the key
holds them all. A bound form (a POST shown again with its errors) is written as Django
writes it, every time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.forms.boundfield import BoundField
from django.forms.utils import ErrorList
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from games.kit.lru import BoundedLRU

# A few hundred bytes a field (a time zone list: 25 KB, once per zone and language used).
ENTRIES = 512

_written: BoundedLRU[tuple[Any, ...], SafeString] = BoundedLRU(ENTRIES)


def _remembered(key: tuple[Any, ...], write: Callable[[], SafeString]) -> SafeString:
    found = _written.get(key)
    if found is None:
        found = write()
        _written.put(key, found)
    return found


class RememberedField(BoundField):
    """A field that writes its widget and its label once per key while its form is
    unbound (see the module)."""

    def _key(self, part: str) -> tuple[Any, ...]:
        form = self.form
        return (type(form), self.name, part, form.auto_id, form.prefix, form.label_suffix,
                repr(self.value()), get_language())

    def __str__(self) -> SafeString:
        if self.form.is_bound:
            return super().__str__()
        return _remembered(self._key("widget"), lambda: SafeString(super(
            RememberedField, self).__str__()))

    def label_tag(self, contents: str | None = None, attrs: dict[str, Any] | None = None,
                  label_suffix: str | None = None, tag: str | None = None) -> SafeString:
        if self.form.is_bound or contents or attrs or label_suffix is not None or tag:
            return super().label_tag(contents, attrs, label_suffix, tag)
        return _remembered(self._key("label"), lambda: super(
            RememberedField, self).label_tag())


class QuietErrorList(ErrorList):
    """An error list that writes nothing, without a template, when it is empty (Django's
    templates write nothing then either)."""

    def render(self, template_name: str | None = None, context: dict[str, Any] | None = None,
               renderer: Any = None) -> SafeString:
        if not self.data:
            return mark_safe("")
        return super().render(template_name, context, renderer)

    # Django's mixin binds these to its own render: they must be bound again here.
    __str__ = render
    __html__ = render


class RememberedForm(forms.Form):
    """A form whose unbound fields are remembered (see the module)."""

    bound_field_class = RememberedField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("error_class", QuietErrorList)
        super().__init__(*args, **kwargs)
