"""An admin action that asks for the moderator's reason first (the Django admin's pattern
of an intermediate page, as "delete selected" has): the action's first POST, from the
list, answers a page that names the chosen rows and asks for a reason; that page's POST
(CSRF, the same rows, `post`) runs the action with the reason. An empty reason shows the
page again with the error (400), and nothing changes.

The tournaments' "Cancel" (the reason goes into the players' email) and the challenges'
"Withdraw" (the reason stays in the admin's log) use it; each action keeps its reason
in the admin's own log (LogEntry), as the game's moderator actions keep theirs
(ModeratorAction: a row of a game, which these rows are not).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import QuerySet
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.utils.translation import gettext_lazy as _

from games.moderation.services.acts import MAX_REASON


class ActionReasonForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"), max_length=MAX_REASON,
        error_messages={"required": _("Give a reason: it is kept with the action.")},
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}))

    def __init__(self, *args: Any, help_text: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"].help_text = help_text


def ask_reason(model_admin: admin.ModelAdmin[Any], request: HttpRequest,
               queryset: QuerySet[Any], *, action: str, title: str, question: str,
               help_text: str, button: str,
               describe: Callable[[Any], str] = str) -> str | TemplateResponse:
    """The reason given on the action's page, or the page asking for it (first time, or
    again with the error). `describe`: a chosen row in the page's list."""
    given = "post" in request.POST
    form = ActionReasonForm(request.POST if given else None, help_text=help_text)
    if given and form.is_valid():
        return str(form.cleaned_data["reason"])
    opts = model_admin.model._meta
    rows = [(row.pk, describe(row)) for row in queryset]
    context = {
        **model_admin.admin_site.each_context(request),
        "title": title, "question": question, "button": button, "action": action,
        "rows": rows, "form": form, "opts": opts,
        "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
    }
    return TemplateResponse(request, "admin/reason_action.html", context,
                            status=400 if given else 200)
