"""The home's "Alerts" section in a real browser on a 390 px phone (issue 47): reached and
used by keyboard alone (name the device, choose the kinds, turn alerts on after the
press; remove a device), and the service worker receiving a push through the DevTools
protocol (`ServiceWorker.deliverPushMessage`): it shows the notification and posts its
receipt. Headless Chromium has no push service of its own, so subscribing itself fails
there and the section says so (what a real push service does is the stand-in's part:
tests/push).

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

from typing import Any

import pytest

from games.mail.core.notifications import Notification
from games.people.core.home_links import home_token
from games.push.core.alert_words import payload
from games.push.core.push_rows import PushAlert, PushDevice
from games.push.services.devices import Subscription, add_device
from tests.browser.service_workers import ServiceWorkers
from tests.browser.test_pages import CHROMIUM, PHONE, serious_violations
from tests.home.support import ANN, anns_games

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]


def tab_to(page: Any, selector: str, most: int = 200) -> None:
    """Press Tab until `selector` has the focus (by keyboard alone, as a person would)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"{selector} is not reachable by Tab")


def test_the_alerts_section_works_by_keyboard_on_a_phone(
        full_browser: Any, live_server: Any, monkeypatch: Any) -> None:
    games = anns_games(invite=False)
    add_device(ANN, Subscription("https://push.example.org/old", "BAAA", "AAAA"),
               name="Old phone", kinds=["turn"], user_agent="Firefox/120.0")
    context = full_browser.new_context(**PHONE)
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    page.goto(f"{live_server.url}/me/{games.token}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []
    page.goto(f"{live_server.url}/me/{games.token}/")
    assert page.locator("#alerts .alerts-needs-script").is_hidden()
    tab_to(page, "#alerts-name")
    page.keyboard.type("Kitchen tablet")
    tab_to(page, "#alerts-form input[value=talk]")
    page.keyboard.press("Space")
    assert page.locator("#alerts-form input[value=talk]").is_checked()
    tab_to(page, "#alerts-form button[type=submit]")
    workers = ServiceWorkers(context, page)
    page.keyboard.press("Enter")  # the gesture: permission, the worker, the subscription
    status = page.locator("#alerts-status")
    status.filter(has_not_text="Turning alerts on").wait_for()
    # Said in the live region: headless Chromium refuses a push subscription.
    assert status.inner_text() == "Alerts could not be turned on. Try again later."
    assert workers.registered.wait(30)  # the worker is registered at the root

    # A push delivered to the worker as the push service would (the data in the clear:
    # the encryption is the stand-in's part), and its receipt.
    seat = games.soon.seats.get(email=ANN)
    note = Notification.objects.create(key="turn:test", kind="turn", to_email=ANN,
                                       game=games.soon, seat=seat,
                                       params={"version": games.soon.version})
    device = PushDevice.objects.get(name="Old phone")
    alert = PushAlert.objects.create(notification=note, device=device, kind="turn",
                                     browser="chrome", status=PushAlert.Status.SENT,
                                     game=games.soon, seat=seat, to_email=ANN)
    data = payload(alert, home_token(ANN), "en", None)
    workers.push_and_wait_for_receipt(monkeypatch, live_server.url, data)
    alert.refresh_from_db()
    assert alert.shown_at is not None
    shown = page.evaluate("navigator.serviceWorker.ready.then(r => r.getNotifications())"
                          ".then(n => n.map(x => [x.title, x.body, x.tag]))")
    assert shown == [[data["title"], "Your turn.", data["tag"]]]

    # Removing a device by keyboard: the form's own button, Enter.
    tab_to(page, "#alerts button[value=remove]")
    assert page.evaluate("document.activeElement.textContent") == "Remove Old phone"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "The device is removed" in page.content()
    assert not PushDevice.objects.filter(name="Old phone").exists()
    context.close()
