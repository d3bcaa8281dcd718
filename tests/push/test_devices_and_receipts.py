"""Devices per home (issue 47, item 2) through POST /api/me/<token>/devices, the SSRF guard
on their endpoints (item 5), receipts (item 4), the data export and "forget me"."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

from games.home.services.export import export_player_data
from games.home.services.forget import forget_player
from games.people.core.home_links import home_token
from games.push.core.alert_words import receipt_id
from games.push.core.endpoints import BadEndpoint, check_endpoint
from games.push.core.push_rows import PushAlert, PushDevice
from saboteur_site.log_redaction import redact
from tests.handover.test_takeover import pass_move
from tests.ops.test_settings import PRODUCTION, manage
from tests.push.standin import StandIn
from tests.push.support import turn_on_alerts
from tests.support import make_game

BOB = "p1@example.com"


def devices_api(address: str) -> str:
    return f"/api/me/{home_token(address)}/devices"


@pytest.mark.django_db
def test_a_device_is_listed_without_its_endpoint_and_can_be_removed(
        client: Client, standin: StandIn) -> None:
    make_game(players=3, seed=5)
    device, subscription = turn_on_alerts(client, BOB, standin, name="  Bob's   phone ")
    listing = client.get(devices_api(BOB))
    assert listing.status_code == 200
    data = listing.json()
    assert [d["name"] for d in data["devices"]] == ["Bob's phone"]
    assert data["devices"][0]["kinds"] == ["turn", "deadline", "start_end"]
    assert data["devices"][0]["browser"] == "chrome"
    assert data["vapid_public_key"]
    assert subscription.endpoint not in listing.content.decode()
    # Another home cannot touch it.
    other = client.delete(f"/api/me/{home_token('p2@example.com')}/devices/{device.pk}")
    assert other.status_code == 404 and other.json()["error"]["code"] == "not_found"
    changed = client.post(f"{devices_api(BOB)}/{device.pk}", {"kinds": ["turn"]},
                          content_type="application/json")
    assert changed.json()["device"]["kinds"] == ["turn"]
    removed = client.post(f"{devices_api(BOB)}/{device.pk}/remove")
    assert removed.status_code == 200
    assert client.get(devices_api(BOB)).json()["devices"] == []


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "code"), [
    ({"subscription": {"endpoint": "https://10.1.2.3/push/x",
                       "keys": {"p256dh": "BAAA", "auth": "AAAA"}}}, "bad_endpoint"),
    ({"subscription": {"endpoint": "https://127.0.0.1/push/x",
                       "keys": {"p256dh": "BAAA", "auth": "AAAA"}}}, "bad_endpoint"),
    ({"subscription": {"endpoint": "http://[::1]:8000/push/x",
                       "keys": {"p256dh": "BAAA", "auth": "AAAA"}}}, "bad_endpoint"),
    ({"subscription": {"endpoint": "https://169.254.169.254/latest",
                       "keys": {"p256dh": "BAAA", "auth": "AAAA"}}}, "bad_endpoint"),
    ({"subscription": "nope"}, "bad_subscription"),
    ({"subscription": {"endpoint": "https://8.8.8.8/p", "keys": {"p256dh": "<x>",
                                                                  "auth": "A"}}},
     "bad_subscription"),
    ({"subscription": {"endpoint": "https://8.8.8.8/p", "keys": {"p256dh": "BA",
                                                                  "auth": "A"}},
      "kinds": ["turn", "spam"]}, "bad_kinds"),
])
@override_settings(PUSH_ALLOW_LOOPBACK=False)
def test_a_bad_subscription_is_refused_in_json_and_adds_nothing(
        client: Client, body: dict[str, Any], code: str) -> None:
    make_game(players=3, seed=5)
    answer = client.post(devices_api(BOB), body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == code
    assert not PushDevice.objects.exists()


@override_settings(PUSH_ALLOW_LOOPBACK=False)
def test_the_endpoint_guard_resolves_names_and_wants_every_address_public() -> None:
    def resolver(addresses: list[str]) -> Any:
        return lambda host: addresses

    assert check_endpoint("https://push.example/x", resolver(["142.250.1.1"]))
    for inside in (["10.0.0.5"], ["142.250.1.1", "192.168.1.1"], ["::1"], ["fe80::1"],
                   ["100.64.0.1"], []):
        with pytest.raises(BadEndpoint):
            check_endpoint("https://push.example/x", resolver(inside))
    with pytest.raises(BadEndpoint):
        check_endpoint("http://push.example/x", resolver(["142.250.1.1"]))
    with pytest.raises(BadEndpoint):
        check_endpoint("https://user:pw@push.example/x", resolver(["142.250.1.1"]))


def test_loopback_endpoints_are_refused_without_debug() -> None:
    refused = manage("check", env={**PRODUCTION, "PUSH_ALLOW_LOOPBACK": "1"})
    assert refused.returncode != 0
    assert "PUSH_ALLOW_LOOPBACK=1 is for tests and local runs" in refused.stderr


@pytest.mark.django_db
def test_a_receipt_with_a_bad_signature_is_refused_in_json(
        client: Client, commit: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    turn_on_alerts(client, BOB, standin)
    with commit():
        pass_move(client, g.page(0))
    alert = PushAlert.objects.get()
    good = receipt_id(alert.pk)
    forged = receipt_id(alert.pk)[:-2] + ("AA" if not good.endswith("AA") else "BB")
    for path in (f"/push/receipt/{forged}", f"/push/receipt/{alert.pk}",
                 f"/push/receipt/{receipt_id(alert.pk + 1)}"):
        answer = client.post(path, {"event": "shown"}, content_type="application/json")
        assert answer.status_code == 403
        assert answer.json()["error"]["code"] == "bad_receipt"
    bad_event = client.post(f"/push/receipt/{good}", {"event": "read"},
                            content_type="application/json")
    assert bad_event.status_code == 400 and bad_event.json()["error"]["code"] == "bad_event"
    not_json = client.post(f"/push/receipt/{good}", "shown", content_type="text/plain")
    assert not_json.status_code == 400
    got = client.get(f"/push/receipt/{good}")
    assert got.status_code == 405 and got["Allow"] == "POST"
    alert.refresh_from_db()
    assert alert.shown_at is None  # nothing changed
    assert client.post(f"/push/receipt/{good}", {"event": "shown"},
                       content_type="application/json").json()["first"] is True
    alert.refresh_from_db()
    assert alert.shown_at is not None


@pytest.mark.django_db
def test_export_holds_the_devices_and_alerts_and_forget_removes_them(
        client: Client, commit: Any, standin: StandIn) -> None:
    g = make_game(players=3, seed=5)
    _, subscription = turn_on_alerts(client, BOB, standin, name="Tablet")
    with commit():
        pass_move(client, g.page(0))
    data = export_player_data(BOB)
    assert [d["name"] for d in data["alert_devices"]] == ["Tablet"]
    assert [a["kind"] for a in data["alerts_sent_to_you"]] == ["turn"]
    assert data["alert_choice"] == {"push_only": False, "fallback_minutes": 120}
    assert subscription.endpoint not in str(data)
    assert export_player_data("p2@example.com")["alert_devices"] == []
    forget_player(BOB)
    assert not PushDevice.objects.exists()
    assert not PushAlert.objects.filter(notification__to_email=BOB).exists()


def test_no_log_line_holds_a_receipt_id_or_a_home_token() -> None:
    """A receipt id marks an alert shown (and so skips a push-only player's turn email):
    it is a secret like the home token in the devices' API."""
    signed = receipt_id(25)
    line = (f"POST /push/receipt/{signed} 200; POST /api/me/{'T' * 43}/devices 201; "
            f"GET /me/{'T' * 43}/open/g1 302")
    cleaned = redact(line)
    assert signed not in cleaned and "T" * 43 not in cleaned
    assert "/push/receipt/" in cleaned and "/open/g1" in cleaned


@pytest.mark.django_db
def test_the_home_installs_as_an_app_whose_worker_caches_nothing(client: Client) -> None:
    make_game(players=3, seed=5)
    token = home_token(BOB)
    manifest = client.get(f"/me/{token}/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["start_url"] == f"/me/{token}/" and data["display"] == "standalone"
    assert {icon["sizes"] for icon in data["icons"]} == {"192x192", "512x512"}
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert client.get(f"/me/{'x' * 43}/manifest.webmanifest").status_code == 404
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    source = worker.content
    assert b'addEventListener("push"' in source
    assert b'"fetch"' not in source and b"caches." not in source  # nothing is cached
    home = client.get(f"/me/{token}/").content.decode()
    assert f'rel="manifest" href="/me/{token}/manifest.webmanifest"' in home
    assert 'id="alerts"' in home and "/static/games/alerts.js" in home


@pytest.mark.django_db
def test_an_alert_s_click_opens_the_seat_through_the_home(client: Client) -> None:
    g = make_game(players=3, seed=5)
    token = home_token(BOB)
    opened = client.get(f"/me/{token}/open/{g.game.public_id}")
    assert opened.status_code == 302 and opened["Location"] == g.page(1)
    elsewhere = client.get(f"/me/{token}/open/nogame")
    assert elsewhere["Location"] == f"/me/{token}/"
    assert client.post(f"/me/{token}/open/{g.game.public_id}").status_code == 405


@pytest.mark.django_db
def test_the_home_s_forms_choose_push_only_and_a_device_s_kinds(
        client: Client, standin: StandIn) -> None:
    make_game(players=3, seed=5)
    device, _ = turn_on_alerts(client, BOB, standin)
    token = home_token(BOB)
    saved = client.post(f"/me/{token}/alerts", {"push_only": "1", "fallback_minutes": "60"},
                        follow=True)
    assert "Your choice of alerts is saved." in saved.content.decode()
    assert export_player_data(BOB)["alert_choice"] == {"push_only": True,
                                                       "fallback_minutes": 60}
    refused = client.post(f"/me/{token}/alerts", {"push_only": "1", "fallback_minutes": "7"},
                          follow=True)
    assert "Choose how long the turn email waits." in refused.content.decode()
    assert export_player_data(BOB)["alert_choice"]["fallback_minutes"] == 60
    client.post(f"/me/{token}/alerts/{device.pk}", {"action": "save",
                                                    "kinds": ["turn", "talk"]})
    device.refresh_from_db()
    assert device.kinds == ["turn", "talk"]
    assert client.get(f"/me/{token}/alerts").status_code == 405
