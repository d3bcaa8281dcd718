"""The lesson's page (games.learn.services.lessons):

    GET  /learn/        what the lesson is, and its form: language and time zone; creates
                        nothing
    POST /learn/start   (CSRF) starts a lesson and redirects to the learner's own seat
                        link, where the guide stands beside the maze; 400 with the page
                        again for a language or time zone we do not know, 429 past the
                        client's limit (nothing made either way)
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from games.kit import limits
from games.kit.client import client_address
from games.kit.form_fields import UNCHOSEN_ZONE, zone_field
from games.kit.responses import private, too_many
from games.kit.service_errors import SetupError
from games.learn.services import lessons


class LessonForm(forms.Form):
    language = forms.ChoiceField(label=_("Language of the lesson"), choices=settings.LANGUAGES)
    time_zone = zone_field(_("Your time zone"))


def _page(request: HttpRequest, form: LessonForm, status: int = 200) -> HttpResponse:
    return render(request, "games/learn.html", {"form": form}, status=status)


@require_GET
def learn_page(request: HttpRequest) -> HttpResponse:
    """The page in the reader's language (`?lang=` chooses another, as on the rules
    pages); the form starts in it too."""
    language = request.GET.get("lang", "")
    known = {code for code, _label in settings.LANGUAGES}
    chosen = language if language in known else translation.get_language()
    with translation.override(chosen):
        form = LessonForm(initial={"language": chosen, "time_zone": UNCHOSEN_ZONE})
        return _page(request, form)


@require_POST
def learn_start(request: HttpRequest) -> HttpResponse:
    form = LessonForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        path = lessons.start_lesson(language=form.cleaned_data["language"],
                                    time_zone=form.cleaned_data["time_zone"],
                                    client=client_address(request))
    except limits.Limited as busy:
        return too_many(request, busy)
    except SetupError as refused:
        form.add_error(None, refused.message)
        return _page(request, form, status=400)
    return private(redirect(path))
