"""HTML written in Python where a page repeats a piece many times (a form on each line of
table talk, a fieldset for each player), as the template would write it: a template tag
per item per refresh was most of such a page's time.

    translated(_("Report"))                   a translated literal, as {% translate %}
                                              writes it
    filled(_("Round %(round)s"), round=2)     a translated sentence with its values, as
                                              {% blocktranslate %} writes it
    csrf_input(token)                         the hidden field {% csrf_token %} writes
    from_template(name, context)              what a plain template writes: the
                                              reference each such writer is held to
                                              (templates/games/reference/)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template import Context
from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe


def translated(text: str) -> SafeString:
    """A literal the catalog translated, as a template's {% translate %} writes it: not
    escaped (the catalog's words are the site's own, like the template's)."""
    return mark_safe(text)  # noqa: S308  (the catalog's text, as in a template)


def filled(text: str, **values: object) -> SafeString:
    """A sentence the catalog translated, with `values` in its %(name)s places, as a
    template's {% blocktranslate %} writes it: the values localized and escaped, the
    catalog's words not."""
    return translated(text % {name: conditional_escape(str(localize(value)))
                              for name, value in values.items()})


def csrf_input(token: object) -> SafeString:
    """The hidden CSRF field with a template context's `csrf_token`, as {% csrf_token %}
    writes it (nothing without a token)."""
    if not token or token == "NOTPROVIDED":  # noqa: S105  (Django's mark for none)
        return mark_safe("")
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def from_template(name: str, values: Context | Mapping[str, Any]) -> SafeString:
    """What the template `name` writes with `values` (a template's context, or a plain
    mapping): a writer's plain reference, rendered only by the tests that hold the
    writer to it (tests/web/test_seat_html_reference.py), never by a page."""
    if isinstance(values, Context):
        values = {str(key): value for key, value in values.flatten().items()}
    return mark_safe(render_to_string(name, values))  # noqa: S308  (escaped by the template)
