"""Helpers of the push tests: a device turned on as the home's script does it."""

from __future__ import annotations

from typing import Any

from django.test import Client

from games.people.core.home_links import home_token
from games.push.core.push_rows import PushDevice
from tests.push.standin import StandIn, Subscription

CHROME = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
          "Chrome/131.0.0.0 Mobile Safari/537.36")


def turn_on_alerts(client: Client, address: str, standin: StandIn,
                   kinds: list[str] | None = None, name: str = "My phone") -> tuple[
                       PushDevice, Subscription]:
    """POST /api/me/<token>/devices with a subscription of the stand-in, as alerts.js."""
    subscription = standin.subscribe()
    body: dict[str, Any] = {"subscription": subscription.as_browser_gives_it(), "name": name}
    if kinds is not None:
        body["kinds"] = kinds
    answer = client.post(f"/api/me/{home_token(address)}/devices", body,
                         content_type="application/json", HTTP_USER_AGENT=CHROME)
    assert answer.status_code == 201, answer.content
    return PushDevice.objects.get(pk=answer.json()["device"]["id"]), subscription
