"""The home's "Alerts" section, its forms (POST with CSRF, no script needed): the
push-only choice and its window (/me/<token>/alerts), a device's kinds or its removal
(/me/<token>/alerts/<id>). Turning alerts on needs the browser's script (static/games/
alerts.js, through POST /api/me/<token>/devices: games.push.doors.api_devices)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.home.doors.home_pages import with_home
from games.home.services import page
from games.kit import limits
from games.kit.responses import too_many
from games.kit.service_errors import ServiceError
from games.push.services import devices


def _back(token: str) -> HttpResponse:
    return redirect(page.home_path(token) + "#alerts")


@require_POST
@with_home
def home_alerts(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        limits.hit("devices_home", address)
        minutes = int(request.POST.get("fallback_minutes", ""))
    except limits.Limited as busy:
        return too_many(request, busy)
    except ValueError:
        minutes = -1
    try:
        devices.set_choice(address, push_only=request.POST.get("push_only") == "1",
                           fallback_minutes=minutes)
    except ServiceError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, _("Your choice of alerts is saved."))
    return _back(token)


@require_POST
@with_home
def home_device(request: HttpRequest, address: str, token: str, device_id: int) -> HttpResponse:
    try:
        limits.hit("devices_home", address)
    except limits.Limited as busy:
        return too_many(request, busy)
    try:
        if request.POST.get("action") == "remove":
            devices.remove_device(address, device_id)
            messages.success(request, _("The device is removed: it gets no more alerts."))
        else:
            kinds = devices.kinds_of(request.POST.getlist("kinds"))
            devices.change_device(address, device_id, kinds=kinds)
            messages.success(request, _("The device's alerts are saved."))
    except ServiceError as refused:
        messages.error(request, refused.message)
    return _back(token)
