"""The devices of a home, as JSON (docs/api.md "Alerts"): GET /api/me/<token>/devices lists
them with the server's VAPID public key; POST adds the browser's subscription
(`{"subscription": {"endpoint", "keys": {"p256dh", "auth"}}, "name", "kinds"}`); POST
/api/me/<token>/devices/<id> changes a device's name or kinds; DELETE (or POST .../remove)
removes it. Refusals in the API's envelope: 400 a bad subscription or kind, 404, 405, 409
too many devices, 413, 429 with Retry-After."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, json_object
from games.kit.responses import private
from games.kit.service_errors import ServiceError
from games.people.core.home_links import HomeLink
from games.people.core.mailbox_keys import of_mailbox
from games.people.doors.home_api_access import home_api
from games.push.core.push_rows import AlertKind
from games.push.services import devices

BODY_LIMIT = 4096


def _language(address: str) -> str:
    row = HomeLink.objects.filter(of_mailbox(address)).first()
    return (row.language if row is not None and row.language else "") or settings.LANGUAGE_CODE


def _refusal(refused: ServiceError) -> JsonResponse:
    return json_error(refused.status, refused.code, refused.message)


def listing(address: str) -> dict[str, Any]:
    choice = devices.choice_of(address)
    return {"devices": [devices.device_json(d) for d in devices.devices_of(address)],
            "kinds": [{"kind": k, "label": str(label)} for k, label in AlertKind.choices],
            "push_only": choice.push_only, "fallback_minutes": choice.fallback_minutes,
            "vapid_public_key": settings.VAPID_PUBLIC_KEY or None}


@home_api("GET", "HEAD", "POST", limit="devices_home")
def api_devices(request: HttpRequest, address: str) -> JsonResponse:
    with translation.override(_language(address)):
        if request.method != "POST":
            return private(JsonAnswer(listing(address)))
        if not settings.VAPID_PUBLIC_KEY:
            return json_error(409, "alerts_off", _("Alerts are not available on this server."))
        data = json_object(request, BODY_LIMIT, _(
            'Send {"subscription": ..., "name": ..., "kinds": [...]}.'))
        if isinstance(data, JsonResponse):
            return data
        try:
            subscription = devices.subscription_of(data.get("subscription"))
            kinds = devices.kinds_of(_list_or_none(data.get("kinds")))
            device = devices.add_device(
                address, subscription, name=devices.device_name(data.get("name")),
                kinds=kinds, user_agent=request.headers.get("User-Agent", ""))
        except ServiceError as refused:
            return _refusal(refused)
        return private(JsonAnswer({"device": devices.device_json(device)}, status=201))


def _list_or_none(raw: Any) -> list[Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, list):
        raise devices.DeviceRefused("bad_kinds", _("Send the kinds as a list."))
    return raw


@home_api("POST", "DELETE", limit="devices_home")
def api_device(request: HttpRequest, address: str, device_id: int) -> JsonResponse:
    with translation.override(_language(address)):
        try:
            if request.method == "DELETE":
                devices.remove_device(address, device_id)
                return private(JsonAnswer({"removed": device_id}))
            data = json_object(request, BODY_LIMIT, _('Send {"name": ..., "kinds": [...]}.'))
            if isinstance(data, JsonResponse):
                return data
            name = devices.device_name(data["name"]) if "name" in data else None
            kinds = devices.kinds_of(_list_or_none(data["kinds"])) if "kinds" in data else None
            device = devices.change_device(address, device_id, name=name, kinds=kinds)
        except ServiceError as refused:
            return _refusal(refused)
        return private(JsonAnswer({"device": devices.device_json(device)}))


@home_api("POST", limit="devices_home")
def api_device_remove(request: HttpRequest, address: str, device_id: int) -> JsonResponse:
    with translation.override(_language(address)):
        try:
            devices.remove_device(address, device_id)
        except ServiceError as refused:
            return _refusal(refused)
        return private(JsonAnswer({"removed": device_id}))
