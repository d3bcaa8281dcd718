"""Issue 47's "Done when", end to end on a 390 px phone: a player turns alerts on from their
home, another seat moves, the server's push reaches the stand-in push service
(tests/push/standin.py: it checks the VAPID JWT and decrypts the body), the push is
delivered to the page's own service worker through the DevTools protocol, the worker shows
the notification and posts its receipt, and the player opens the game as the click would
and plays. (The fallback email without a receipt: tests/push/test_fallback.py.)

What headless Chromium cannot do here, and what stands in for it:
- Subscribing: Chromium's push subscriptions go to Google's push service only (no flag
  points them elsewhere, and headless Chromium refuses them: test_alerts_section.py), so
  an init script gives `PushManager.subscribe` the stand-in's subscription (its endpoint
  and receiver keys) after checking it was asked with the server's VAPID public key.
  Everything else of alerts.js runs as it is: the gesture, the permission, the worker's
  registration, the POST of the subscription.
- Delivery: the push service's delivery to the browser is `ServiceWorker.deliverPushMessage`
  with the payload the stand-in decrypted (what the server sent, byte for byte).
- The click: no protocol clicks a notification; the test opens the notification's own URL
  (its `data.url`, what the worker's notificationclick opens) in the page.

Skipped when /usr/bin/chromium is missing (`.ci/run` installs it)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from games.mail.services.move_emails import follow_up_due
from games.people.core.home_links import home_token
from games.push.core.push_rows import PushAlert, PushDevice
from tests.browser.service_workers import ServiceWorkers
from tests.browser.test_keyboard_play import play_otherwise
from tests.browser.test_pages import CHROMIUM, PHONE
from tests.handover.test_takeover import pass_move
from tests.push.standin import StandIn
from tests.support import make_game

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install "
                                                     "chromium)"),
    pytest.mark.django_db(transaction=True),
]

BOB = "p1@example.com"  # seat 1: his turn after seat 0's move

# The browser's subscription, as the stand-in hands it out, if the page asks with the
# server's VAPID key (the key the stand-in then checks the pushes' JWT against).
SUBSCRIBE = """([given, key]) => {
  const asText = bytes => btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/[+]/g, "-").replace(/[/]/g, "_").replace(/=+$/, "");
  PushManager.prototype.getSubscription = () => Promise.resolve(null);
  PushManager.prototype.subscribe = options => asText(options.applicationServerKey) === key
    ? Promise.resolve({endpoint: given.endpoint, toJSON: () => given})
    : Promise.reject(new Error("not the server's VAPID key"));
}"""


def test_a_phone_turns_alerts_on_gets_its_turn_alert_and_plays(
        full_browser: Any, live_server: Any, worker: Any, standin: StandIn,
        monkeypatch: Any) -> None:
    g = make_game(players=3, seed=5)
    subscription = standin.subscribe()
    context = full_browser.new_context(**PHONE)
    context.grant_permissions(["notifications"], origin=live_server.url)
    given = json.dumps([subscription.as_browser_gives_it(), settings.VAPID_PUBLIC_KEY])
    context.add_init_script(f"({SUBSCRIBE})({given})")
    page = context.new_page()
    workers = ServiceWorkers(context, page)
    page.goto(f"{live_server.url}/me/{home_token(BOB)}/")
    page.fill("#alerts-name", "Bob's phone")
    with page.expect_navigation():  # the home reloads once the device is on
        page.click("#alerts-form button[type=submit]")  # the gesture
    assert workers.registered.wait(30)
    device = PushDevice.objects.get()
    assert (device.endpoint, device.name) == (subscription.endpoint, "Bob's phone")

    pass_move(Client(), g.page(0))  # another seat moves: Bob's turn
    follow_up_due()  # the beat plans the move's emails, and a push beside Bob's
    worker.settle()  # the worker sends it
    [push] = standin.received
    assert push.problem == "" and push.payload is not None
    assert push.payload["body"] == "Your turn."

    workers.push_and_wait_for_receipt(monkeypatch, live_server.url, push.payload)
    assert PushAlert.objects.get().shown_at is not None  # the receipt
    [[title, url]] = page.evaluate(
        "navigator.serviceWorker.ready.then(r => r.getNotifications())"
        ".then(n => n.map(x => [x.title, x.data.url]))")
    assert title == "Test game"

    # What the worker's notificationclick opens (no protocol clicks a notification).
    page.goto(live_server.url + url)
    assert page.url.endswith(g.page(1))
    play_otherwise(page)  # Bob plays on his seat page
    g.game.refresh_from_db()
    assert g.game.actor == 2
    context.close()
