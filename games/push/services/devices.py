"""A person's devices: turned on from the home (or POST /api/me/<token>/devices), named,
with the kinds of alert each wants; listed, changed and removed there; in the data export
and gone with "forget me". One row per browser subscription: subscribing again from the
same browser (the same endpoint) updates its row."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games.kit.service_errors import ServiceError
from games.people.core.home_links import home_address
from games.people.core.mailbox_keys import of_mailbox
from games.push.core.browsers import browser_family
from games.push.core.endpoints import BadEndpoint, check_endpoint
from games.push.core.push_rows import (
    DEFAULT_FALLBACK_MINUTES,
    AlertKind,
    PushAlert,
    PushChoice,
    PushDevice,
)

MAX_DEVICES = 10
MAX_NAME = 60
FALLBACK_CHOICES = (30, 60, 120, 240, 480)  # minutes the turn email waits for a receipt
DEFAULT_KINDS = (AlertKind.TURN, AlertKind.DEADLINE, AlertKind.START_END)


class DeviceRefused(ServiceError):
    STATUS = 400
    STATUS_OF_CODE = {"not_found": 404, "too_many_devices": 409}


@dataclass(frozen=True)
class Subscription:
    """What the browser's PushManager.subscribe() gave, checked."""

    endpoint: str
    p256dh: str
    auth: str


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _key(raw: Any, longest: int) -> str:
    if not isinstance(raw, str) or not raw or len(raw) > longest or not all(
            c.isalnum() or c in "-_=" for c in raw):
        raise DeviceRefused("bad_subscription", _("The browser's subscription is not valid."))
    return raw


def subscription_of(data: Any) -> Subscription:
    """The subscription in a browser's JSON (`{"endpoint", "keys": {"p256dh", "auth"}}`),
    its endpoint on a public https address (games.push.core.endpoints)."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise DeviceRefused("bad_subscription", _("The browser's subscription is not valid."))
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str):
        raise DeviceRefused("bad_subscription", _("The browser's subscription is not valid."))
    try:
        check_endpoint(endpoint)
    except BadEndpoint as refused:
        raise DeviceRefused("bad_endpoint", _(
            "This browser's push service cannot be used (%(why)s).") % {"why": refused}) from None
    return Subscription(endpoint=endpoint, p256dh=_key(data["keys"].get("p256dh"), 200),
                        auth=_key(data["keys"].get("auth"), 100))


def kinds_of(raw: Iterable[Any] | None) -> list[str]:
    """The chosen kinds, known ones only, in the list's order; None: the default ones."""
    if raw is None:
        return [str(k) for k in DEFAULT_KINDS]
    chosen = {str(k) for k in raw}
    unknown = chosen - set(AlertKind.values)
    if unknown:
        raise DeviceRefused("bad_kinds", _("Unknown kinds of alert: %(kinds)s.")
                            % {"kinds": ", ".join(sorted(unknown))})
    return [k for k in AlertKind.values if k in chosen]


def device_name(raw: Any) -> str:
    name = " ".join(str(raw or "").split())[:MAX_NAME]
    return name or _("My device")


def add_device(address: str, subscription: Subscription, *, name: str, kinds: list[str],
               user_agent: str) -> PushDevice:
    """Turn alerts on for a device of the address's person (or update its row)."""
    address = home_address(address)
    digest = endpoint_hash(subscription.endpoint)
    with transaction.atomic():
        found = PushDevice.objects.select_for_update().filter(endpoint_hash=digest).first()
        if found is None and PushDevice.objects.filter(of_mailbox(address)).count() >= MAX_DEVICES:
            raise DeviceRefused("too_many_devices", _(
                "You have %(n)s devices with alerts: remove one first.") % {"n": MAX_DEVICES})
        fields = {"address": address, "name": name, "kinds": kinds,
                  "endpoint": subscription.endpoint, "p256dh": subscription.p256dh,
                  "auth": subscription.auth, "browser": browser_family(user_agent)}
        if found is None:
            return PushDevice.objects.create(endpoint_hash=digest, **fields)
        for field, value in fields.items():  # the same browser, perhaps another home
            setattr(found, field, value)
        found.save()
        return found


def devices_of(address: str) -> list[PushDevice]:
    return list(PushDevice.objects.filter(of_mailbox(address)).order_by("created_at", "pk"))


def _own(address: str, device_id: int) -> PushDevice:
    found = PushDevice.objects.filter(of_mailbox(address), pk=device_id).first()
    if found is None:
        raise DeviceRefused("not_found", _("There is no such device at this home."))
    return found


def change_device(address: str, device_id: int, *, name: str | None = None,
                  kinds: list[str] | None = None) -> PushDevice:
    device = _own(address, device_id)
    if name is not None:
        device.name = name
    if kinds is not None:
        device.kinds = kinds
    device.save(update_fields=["name", "kinds"])
    return device


def remove_device(address: str, device_id: int) -> None:
    _own(address, device_id).delete()


def choice_of(address: str) -> PushChoice:
    """The person's choice (unsaved defaults when they never chose)."""
    found = PushChoice.objects.filter(of_mailbox(address)).first()
    return found or PushChoice(address=home_address(address),
                               fallback_minutes=DEFAULT_FALLBACK_MINUTES)


def set_choice(address: str, *, push_only: bool, fallback_minutes: int) -> PushChoice:
    if fallback_minutes not in FALLBACK_CHOICES:
        raise DeviceRefused("bad_fallback", _("Choose how long the turn email waits."))
    with transaction.atomic():
        found = PushChoice.objects.select_for_update().filter(of_mailbox(address)).first()
        if found is None:
            return PushChoice.objects.create(address=home_address(address),
                                             push_only=push_only,
                                             fallback_minutes=fallback_minutes)
        found.push_only, found.fallback_minutes = push_only, fallback_minutes
        found.save(update_fields=["push_only", "fallback_minutes"])
        return found


def device_json(device: PushDevice) -> dict[str, Any]:
    """What the person sees of a device: never its endpoint or keys (a capability)."""
    return {"id": device.pk, "name": device.name, "kinds": list(device.kinds),
            "browser": device.browser, "created_at": device.created_at.isoformat(),
            "last_ok_at": device.last_ok_at.isoformat() if device.last_ok_at else None}


def export_alerts(address: str) -> dict[str, Any]:
    """The data export's part (games.home.services.export): the devices, the choice and
    the alerts sent to them."""
    choice = choice_of(address)
    devices = devices_of(address)
    alerts = (PushAlert.objects.filter(of_mailbox(address, "to_key"))
              .select_related("game").order_by("created_at", "pk"))
    return {
        "alert_devices": [device_json(d) for d in devices],
        "alert_choice": {"push_only": choice.push_only,
                         "fallback_minutes": choice.fallback_minutes},
        "alerts_sent_to_you": [
            {"kind": a.kind, "status": a.status, "browser": a.browser,
             "game": a.game.public_id,
             "created_at": a.created_at.isoformat(),
             "sent_at": a.sent_at.isoformat() if a.sent_at else None,
             "shown_at": a.shown_at.isoformat() if a.shown_at else None,
             "clicked_at": a.clicked_at.isoformat() if a.clicked_at else None}
            for a in alerts],
    }


def forget_alerts(address: str) -> None:
    """"Forget me" (games.home.services.erase): the devices, the choice and the alerts."""
    PushAlert.objects.filter(of_mailbox(address, "to_key")).delete()
    PushDevice.objects.filter(of_mailbox(address)).delete()
    PushChoice.objects.filter(of_mailbox(address)).delete()
