"""/me/<token>/theme: the home's switch between "as my device", light and dark (games.home
.services.theme). A refused value is the home again with the reason and a 400."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.home.doors.home_pages import render_home, with_home
from games.home.services import page, theme
from games.kit.service_errors import ServiceError, http_status


@require_POST
@with_home
def home_theme(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        theme.set_theme(address, request.POST.get("theme", "")[:16])
    except ServiceError as refused:
        messages.error(request, refused.message)
        return render_home(request, address, token, status=http_status(refused))
    messages.success(request, _("Saved: your pages' colours."))
    return redirect(page.home_path(token) + "#theme")
