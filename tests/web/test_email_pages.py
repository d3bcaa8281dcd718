"""The seat page's email and vacation box, one-click unsubscribe, the debug outbox, the
provider's tracking webhook, and choosing the provider by environment."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from anymail.exceptions import AnymailInsecureWebhookWarning
from django.test import Client, override_settings

from games.game.core.game import EmailMode
from games.game.core.talk_and_notices import GameNotice
from games.mail.core import outbox
from games.mail.core.message import unsubscribe_url
from games.mail.core.notifications import Notification
from games.mail.services import plan, send
from games.people.core.home_links import home_path, home_token
from games.seats.core.seat import Seat
from tests.support import make_game

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_the_seat_page_has_the_email_and_vacation_box(client: Client) -> None:
    g = make_game(players=3, seed=1, start=True)
    body = client.get(g.page(0)).content.decode()
    assert 'id="emails"' in body and 'name="email_mode"' in body
    assert 'value="each_turn" checked' in body
    assert "Vacation left in this game: 7 days." in body
    assert '<option value="168">7 days</option>' in body


def test_vacation_is_counted_in_days_and_hours_on_the_page_the_home_and_the_log(
        client: Client) -> None:
    """The seat page said "Vacation left in this game: 168 hours"; after a vacation ended
    early its rest was "53 hours" everywhere. Days, and hours beyond whole days, in the
    reader's language: the seat page, its last choice, the home, the table's log."""
    g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[0].pk).update(
        vacation_left=timedelta(days=2, hours=5, minutes=20))
    body = client.get(g.page(0)).content.decode()
    assert "Vacation left in this game: 2 days, 5 hours." in body
    assert '<option value="53">all I have left (2 days, 5 hours)</option>' in body
    home = client.get(home_path(home_token("p0@example.com"))).content.decode()
    assert "2 days, 5 hours of vacation left" in home
    Seat.objects.filter(pk=g.seats[0].pk).update(language="de")
    body = client.get(g.page(0)).content.decode()
    assert "Verbleibender Urlaub in dieser Partie: 2 Tage, 5 Stunden." in body
    client.post(g.page(0) + "vacation", {"action": "take", "hours": "53"})
    assert "Player0 is on vacation for 2 days, 5 hours" in client.get(g.page(1)).content.decode()
    Seat.objects.filter(pk=g.seats[2].pk).update(language="it")
    assert "Player0 è in vacanza per 2 giorni, 5 ore" in client.get(g.page(2)).content.decode()


def test_choosing_the_email_setting_on_the_seat_page(client: Client) -> None:
    g = make_game(players=3, seed=1, start=True)
    Seat.objects.filter(pk=g.seats[0].pk).update(email_problem_at="2026-01-01T00:00Z")
    response = client.post(g.page(0) + "emails", {"email_mode": "digest"})
    assert response.status_code == 302 and response["Location"].endswith("#emails")
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.email_mode == EmailMode.DAILY_DIGEST and seat.email_problem_at is None
    client.post(g.page(0) + "emails", {"email_mode": "nonsense"})
    assert Seat.objects.get(pk=g.seats[0].pk).email_mode == EmailMode.DAILY_DIGEST
    assert client.get(g.page(0) + "emails").status_code == 405


def test_taking_and_ending_a_vacation_on_the_seat_page(client: Client) -> None:
    g = make_game(players=3, seed=1, start=True)
    deadline = g.game.deadline_at
    assert deadline is not None
    client.post(g.page(0) + "vacation", {"action": "take", "hours": "48"})
    game = g.refresh()
    assert game.deadline_at is not None and (game.deadline_at - deadline).days == 2
    body = client.get(g.page(0)).content.decode()
    assert "You are on vacation until" in body
    assert GameNotice.objects.filter(game=game, kind="vacation").exists()
    assert "Player0 is on vacation for 2 days" in client.get(g.page(1)).content.decode()
    client.post(g.page(0) + "vacation", {"action": "end"})
    assert Seat.objects.get(pk=g.seats[0].pk).vacation_until is None
    assert "Player0 is back from vacation" in client.get(g.page(2)).content.decode()
    response = client.post(g.page(0) + "vacation", {"action": "take", "hours": "200"}, follow=True)
    assert "more vacation than you have left" in response.content.decode()


def _turn_notification(g: Any) -> Notification:
    [note_id] = plan.create(plan.after_move(g.game.pk, 0))
    return Notification.objects.get(pk=note_id)


def test_unsubscribe_get_shows_a_form_and_post_stops_the_emails() -> None:
    g = make_game(players=3, seed=1, start=True)
    url = unsubscribe_url(_turn_notification(g))
    assert url is not None
    path = url.removeprefix("http://127.0.0.1:8000")
    client = Client(enforce_csrf_checks=True)
    page = client.get(path)
    assert page.status_code == 200 and "Stop these emails" in page.content.decode()
    assert page["Cache-Control"] == "no-store, private"
    assert Seat.objects.get(pk=g.seats[0].pk).email_mode == EmailMode.EACH_TURN
    # RFC 8058 one-click: a POST without cookies or CSRF token.
    done = client.post(path, "List-Unsubscribe=One-Click",
                       content_type="application/x-www-form-urlencoded")
    assert done.status_code == 200 and "Done" in done.content.decode()
    assert Seat.objects.get(pk=g.seats[0].pk).email_mode == EmailMode.LINKS_ONLY
    assert Seat.objects.get(pk=g.seats[1].pk).email_mode == EmailMode.EACH_TURN
    assert client.get(path[:-5] + "xxxx/").status_code == 404


def test_a_digest_unsubscribe_covers_every_digest_seat_of_the_address() -> None:
    first, second = make_game(seed=1), make_game(seed=2)
    for g in (first, second):
        Seat.objects.filter(pk=g.seats[0].pk).update(email_mode=EmailMode.DAILY_DIGEST)
    note = Notification.objects.create(key="digest:x", kind="digest", to_email="P0@example.com",
                                       seat=first.seats[0])
    url = unsubscribe_url(note)
    assert url is not None
    Client().post(url.removeprefix("http://127.0.0.1:8000"))
    modes = set(Seat.objects.filter(email="p0@example.com").values_list("email_mode", flat=True))
    assert modes == {EmailMode.LINKS_ONLY}


def test_the_file_backend_and_the_outbox_page(tmp_path: Path, client: Client,
                                               settings: Any) -> None:
    settings.EMAIL_BACKEND = "games.mail.core.outbox.OutboxBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    settings.DEBUG = True
    g = make_game(players=3, seed=1, start=True)
    note = _turn_notification(g)
    assert send.deliver(note.pk).status == "sent"
    [entry] = outbox.entries()
    assert entry.to == "p0@example.com" and "your turn" in entry.subject
    assert (tmp_path / entry.name).read_bytes().startswith(b"Content-Type: multipart/alternative")
    listing = client.get("/outbox/").content.decode()
    assert entry.subject in listing and f"/outbox/{entry.name}" in listing
    shown = client.get(f"/outbox/{entry.name}")
    assert shown["Content-Type"] == "text/html; charset=utf-8"
    assert "default-src 'none'" in shown["Content-Security-Policy"]
    assert f'href="http://127.0.0.1:8000/play/{g.tokens[0]}/"' in shown.content.decode()
    assert "your turn" in client.get(f"/outbox/{entry.name}?part=text").content.decode()
    assert b"List-Unsubscribe-Post" in client.get(f"/outbox/{entry.name}?part=raw").content
    assert client.get("/outbox/..%2Fdb.sqlite3").status_code == 404
    settings.DEBUG = False
    assert client.get("/outbox/").status_code == 404
    assert client.get(f"/outbox/{entry.name}").status_code == 404


WEBHOOK = "/anymail/postmark/tracking/"


def _post_event(client: Client, payload: dict[str, Any], secret: str = "hook:s3cret") -> Any:
    auth = base64.b64encode(secret.encode()).decode()
    return client.post(WEBHOOK, json.dumps(payload), content_type="application/json",
                       HTTP_AUTHORIZATION=f"Basic {auth}")


@override_settings(ANYMAIL={"WEBHOOK_SECRET": "hook:s3cret"},
                   MODERATOR_EMAILS=["mods@example.com"])
def test_a_bounce_reported_by_the_webhook_flags_the_seat(client: Client) -> None:
    g = make_game(players=3, seed=1, start=True)
    note = _turn_notification(g)
    send.deliver(note.pk)
    note.refresh_from_db()
    assert note.provider_id == note.message_id  # locmem: no provider id of its own
    Notification.objects.filter(pk=note.pk).update(provider_id="pm-123")
    denied = _post_event(client, {"RecordType": "Bounce", "Type": "HardBounce",
                                  "MessageID": "pm-123"}, secret="hook:wrong")
    assert denied.status_code in (400, 401, 403)
    assert Seat.objects.get(pk=g.seats[0].pk).email_problem_at is None
    response = _post_event(client, {"RecordType": "Bounce", "Type": "HardBounce",
                                    "MessageID": "pm-123", "Email": "p0@example.com",
                                    "BouncedAt": "2026-03-02T10:00:00Z"})
    assert response.status_code == 200
    note.refresh_from_db()
    assert note.delivery == "bounced" and note.delivery_at is not None
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.email_problem_at is not None
    alert = Notification.objects.get(kind="mod_alert")
    assert alert.params["topic"] == "email" and alert.to_email == "mods@example.com"
    # Flagged: no more emails to the seat until the player saves their settings again.
    [next_id] = plan.create([plan.Spec(key="turn:again", kind="turn", to_email=seat.email,
                                       game_id=g.game.pk, seat_id=seat.pk)])
    assert send.deliver(next_id).status == "skipped"
    # A late "delivered" does not hide the bounce.
    _post_event(client, {"RecordType": "Delivery", "MessageID": "pm-123",
                         "DeliveredAt": "2026-03-02T10:01:00Z"})
    note.refresh_from_db()
    assert note.delivery == "bounced"


@override_settings(ANYMAIL={})
def test_without_a_webhook_secret_reports_are_ignored(client: Client) -> None:
    g = make_game(players=3, seed=1, start=True)
    note = _turn_notification(g)
    Notification.objects.filter(pk=note.pk).update(provider_id="pm-1")
    with pytest.warns(AnymailInsecureWebhookWarning):  # no basic auth in the tests
        client.post(WEBHOOK, json.dumps({"RecordType": "SpamComplaint", "MessageID": "pm-1"}),
                    content_type="application/json")
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.email_mode == EmailMode.EACH_TURN and seat.email_problem_at is None


@override_settings(ANYMAIL={"WEBHOOK_SECRET": "hook:s3cret"})
def test_delivered_and_complaint_events(client: Client) -> None:
    g = make_game(players=3, seed=1, start=True)
    note = _turn_notification(g)
    Notification.objects.filter(pk=note.pk).update(provider_id="pm-9")
    _post_event(client, {"RecordType": "Delivery", "MessageID": "pm-9",
                         "DeliveredAt": "2026-03-02T10:01:00Z"})
    assert Notification.objects.get(pk=note.pk).delivery == "delivered"
    _post_event(client, {"RecordType": "SpamComplaint", "MessageID": "pm-9",
                         "BouncedAt": "2026-03-02T10:02:00Z"})
    seat = Seat.objects.get(pk=g.seats[0].pk)
    assert seat.email_mode == EmailMode.LINKS_ONLY and seat.email_problem_at is not None
    _post_event(client, {"RecordType": "Delivery", "MessageID": "unknown"})  # ignored


PROVIDERS = """
import importlib, json, os, sys
out = {}
cases = [
    {"EMAIL_PROVIDER": "postmark", "POSTMARK_SERVER_TOKEN": "pm"},
    {"EMAIL_PROVIDER": "mailgun", "MAILGUN_API_KEY": "mg", "MAILGUN_SENDER_DOMAIN": "mg.x"},
    {"EMAIL_PROVIDER": "amazon_ses"},
    {"EMAIL_PROVIDER": "sendgrid", "SENDGRID_API_KEY": "sg"},
    {"EMAIL_PROVIDER": "brevo", "BREVO_API_KEY": "br", "ANYMAIL_WEBHOOK_SECRET": "a:b"},
    {},
    {"EMAIL_PROVIDER": "postmark"},
]
import saboteur_site.settings as s
for case in cases:
    for key in ["EMAIL_PROVIDER", "POSTMARK_SERVER_TOKEN", "MAILGUN_API_KEY",
                "MAILGUN_SENDER_DOMAIN", "SENDGRID_API_KEY", "BREVO_API_KEY",
                "ANYMAIL_WEBHOOK_SECRET"]:
        os.environ.pop(key, None)
    os.environ.update(case)
    try:
        importlib.reload(s)
        out[case.get("EMAIL_PROVIDER", "")] = [s.EMAIL_BACKEND, s.ANYMAIL]
    except Exception as error:
        out["error:" + case.get("EMAIL_PROVIDER", "")] = str(error)
print(json.dumps(out))
"""


def test_the_provider_is_chosen_by_environment_only() -> None:
    env = {"DEBUG": "1", "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", PROVIDERS], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=True)
    found = json.loads(result.stdout)
    # Every provider's HTTP calls wait at most EMAIL_TIMEOUT (a dead send is then known).
    timeout = {"REQUESTS_TIMEOUT": 30}
    assert found["postmark"] == ["anymail.backends.postmark.EmailBackend",
                                 {"POSTMARK_SERVER_TOKEN": "pm", **timeout}]
    assert found["mailgun"] == ["anymail.backends.mailgun.EmailBackend",
                                {"MAILGUN_API_KEY": "mg", "MAILGUN_SENDER_DOMAIN": "mg.x",
                                 **timeout}]
    assert found["amazon_ses"][0] == "anymail.backends.amazon_ses.EmailBackend"
    assert found["sendgrid"][0] == "anymail.backends.sendgrid.EmailBackend"
    assert found["brevo"] == ["anymail.backends.brevo.EmailBackend",
                              {"BREVO_API_KEY": "br", "WEBHOOK_SECRET": "a:b", **timeout}]
    assert found[""] == ["games.mail.core.outbox.OutboxBackend", timeout]
    assert "needs POSTMARK_SERVER_TOKEN" in found["error:postmark"]

