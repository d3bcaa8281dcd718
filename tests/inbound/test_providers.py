"""The webhook speaks each provider's language: it reads Postmark's, Mailgun's, Amazon
SES's, Brevo's and SendGrid's posts itself (the reply address from the provider's
envelope, the message kept as posted for the worker) and keeps anymail's credential
checks; and it answers so that a provider retries only what the server could not store
(issue 34, items 2 and 3)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.db import OperationalError
from django.test import Client, override_settings

from games.inbound.core.inbound_mail import InboundMail
from games.inbound.services import process
from games.moves.services import seat_services as services
from games.seats.core import reply_tokens as tokens
from tests import provider_posts as post
from tests.inbound_support import raw_reply, reply_address
from tests.support import GameWithLinks, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def secured() -> Iterator[None]:
    with post.webhook_settings():
        yield


@pytest.fixture
def g(commit: Any) -> GameWithLinks:
    with commit():
        return make_game(players=3, seed=1, start=True)


def stored_then_moved(commit: Any, g: GameWithLinks, answer: Any, payload_format: str,
                      event_id: str = "") -> InboundMail:
    """The post was answered 200 and stored unread; the worker then made the move."""
    assert answer.status_code == 200 and answer.json() == {"outcomes": ["received"]}
    stored = InboundMail.objects.get()
    assert stored.outcome == "received" and stored.payload_format == payload_format
    assert stored.seat_id == g.seats[0].pk and g.refresh().version == 0
    if event_id:
        assert stored.event_id == event_id
    with commit():
        assert process.process(stored.pk).outcome == "moved"
    assert g.refresh().version == 1
    stored.refresh_from_db()
    assert stored.answered and stored.sender == "p0@example.com"
    return stored


# ---- each provider, both of its ways of posting a message -----------------------------------


def test_postmark_raw_and_parsed(commit: Any, g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.postmark_raw(Client(), raw_reply(address, "pass 1"), address)
    stored_then_moved(commit, g, answer, "mime", "postmark:pm-raw")
    InboundMail.objects.all().delete()
    address = reply_address("p1@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.postmark_fields(Client(), address, "pass 1")
    assert answer.status_code == 200 and InboundMail.objects.get().payload_format == "fields"


def test_mailgun_raw_and_parsed_with_its_signature(commit: Any, g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.mailgun_mime(Client(), raw_reply(address, "pass 1"), address)
    stored_then_moved(commit, g, answer, "mime")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        forged = post.mailgun_mime(Client(), raw_reply(address, "pass 2"), address,
                                   key="not-the-key")
    assert forged.status_code == 403 and InboundMail.objects.count() == 1
    InboundMail.objects.all().delete()
    address = reply_address("p1@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.mailgun_parsed(Client(), address, "pass 1")
    assert answer.status_code == 200
    stored = InboundMail.objects.get()
    assert stored.payload_format == "fields" and stored.seat_id == g.seats[1].pk


@pytest.fixture
def boto3_installed() -> Iterator[None]:
    """anymail's SES view wants boto3 (requirements/ses.txt), which the test environment
    does not install: its client settings are all the webhook's checks read of it."""
    from anymail.webhooks import amazon_ses

    def client_settings(**kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        return {}, {}

    with mock.patch.object(amazon_ses, "_get_anymail_boto3_params", new=client_settings):
        yield


@pytest.mark.usefixtures("boto3_installed")
def test_amazon_ses_through_sns_and_through_s3(commit: Any, g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.ses_notification(Client(), address, raw=raw_reply(address, "pass 1"))
    stored_then_moved(commit, g, answer, "mime", "amazon_ses:ses-1")
    # The S3 action: the request stores where the message is; the worker fetches it.
    address = reply_address("p1@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.ses_notification(Client(), address, s3=("bucket", "key/1"),
                                       message_id="ses-2")
    stored = InboundMail.objects.get(outcome="received")
    assert answer.status_code == 200 and stored.payload_format == "s3"
    fetched = [raw_reply(address, "pass 1", sender="p1@example.com")]
    with commit(), mock.patch(
            "anymail.webhooks.amazon_ses.AmazonSESInboundWebhookView.fetch_s3_chunks",
            return_value=iter(fetched)) as fetch:
        assert process.process(stored.pk).outcome == "moved"
    fetch.assert_called_once_with("bucket", "key/1")
    assert g.refresh().version == 2


def test_brevo_parsed_messages(commit: Any, g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.brevo(Client(), address, "pass 1")
    stored_then_moved(commit, g, answer, "fields", "brevo:bv-1")


def test_sendgrid_raw_and_parsed_in_its_charsets(commit: Any, g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.sendgrid_raw(Client(), raw_reply(address, "pass 1"), address)
    stored_then_moved(commit, g, answer, "mime")
    InboundMail.objects.all().delete()
    address = reply_address("p1@example.com")
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = post.sendgrid_parsed(Client(), address, "say Grüße aus Köln",
                                      charset="iso-8859-1")
    stored = InboundMail.objects.get()
    assert answer.status_code == 200 and stored.payload_format == "fields"
    with commit():
        assert process.process(stored.pk).outcome == "talk"
    assert g.game.messages.get().text == "Grüße aus Köln"


def test_the_reply_address_comes_from_the_envelope_not_the_headers(g: GameWithLinks) -> None:
    """A message whose To names a live reply address but whose envelope does not (it was
    delivered to another address of the domain) is not the seat's."""
    address = reply_address("p0@example.com")
    answer = post.sendgrid_raw(Client(), raw_reply(address, "pass 1"),
                               "someone@127.0.0.1", header_to=address)
    assert answer.status_code == 200 and answer.json() == {"outcomes": ["unknown"]}
    assert not InboundMail.objects.exists()


# ---- what the provider hears ----------------------------------------------------------------


def test_a_stranger_a_dead_address_and_a_post_without_email_get_200(g: GameWithLinks) -> None:
    """Postmark retries every non-200 for 10 hours, SendGrid every non-2xx for 3 days,
    Mailgun all but 406: what is dropped on purpose is answered 200."""
    stranger = post.postmark_fields(Client(), f"play+{tokens.new_token()}@127.0.0.1", "pass 1")
    assert stranger.status_code == 200 and stranger.json() == {"outcomes": ["unknown"]}
    address = reply_address("p0@example.com")
    services.rotate_link(g.seats[0].pk)  # the reply address dies with the link
    dead = post.postmark_fields(Client(), address, "pass 1")
    assert dead.status_code == 200 and dead.json() == {"outcomes": ["unknown"]}
    bounce = Client().post("/anymail/postmark/inbound/", json.dumps({"RecordType": "Bounce"}),
                           content_type="application/json", HTTP_AUTHORIZATION=post.AUTH)
    garbage = Client().post("/anymail/postmark/inbound/", b"{not json",
                            content_type="application/json", HTTP_AUTHORIZATION=post.AUTH)
    for answer in (bounce, garbage):
        assert answer.status_code == 200 and answer.json() == {"outcomes": ["dropped"]}
    assert not InboundMail.objects.exists()


def test_auto_replies_too_large_and_unreadable_messages_get_200(
        commit: Any, g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    with commit():
        auto = post.postmark_fields(Client(), address, "I am away", subject="Autosvar: x",
                                    message_id="pm-auto")
        big = post.sendgrid_raw(Client(), raw_reply(address, "pass 1 " + "x" * 3_000_000),
                                address)
        unreadable = post.sendgrid_raw(Client(), b"Content-Type: multipart/mixed; boundary=b\r\n"
                                       b"\r\n" + b"--b\r\n\r\n" * 600, address)
    assert [a.status_code for a in (auto, big, unreadable)] == [200, 200, 200]
    assert sorted(InboundMail.objects.values_list("outcome", flat=True)) == [
        "automatic", "malformed", "too_large"]
    assert g.refresh().version == 0


@override_settings(INBOUND_MAX_REQUEST_BYTES=10_000)
def test_a_post_over_the_hard_limit_is_dropped_unread_with_200(g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    answer = post.sendgrid_raw(Client(), raw_reply(address, "x" * 20_000), address)
    assert answer.status_code == 200 and answer.json() == {"outcomes": ["too_large"]}
    assert not InboundMail.objects.exists()


def test_a_post_that_could_not_be_stored_is_a_503_so_the_provider_retries(
        commit: Any, g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    client = Client(raise_request_exception=False)
    with mock.patch.object(InboundMail.objects, "create",
                           side_effect=OperationalError("database is locked")):
        answer = post.postmark_fields(client, address, "pass 1")
    assert answer.status_code == 503 and answer["Retry-After"]
    assert not InboundMail.objects.exists()
    with commit():  # the provider's retry
        assert post.postmark_fields(client, address, "pass 1").status_code == 200
    assert g.refresh().version == 1


def test_bad_credentials_are_401_or_403(g: GameWithLinks) -> None:
    address = reply_address("p0@example.com")
    missing = post.postmark_fields(Client(), address, "pass 1", auth=None)
    wrong = post.postmark_fields(Client(), address, "pass 1", auth="Basic d3Jvbmc6d3Jvbmc=")
    for answer in (missing, wrong):
        assert answer.status_code == 401 and answer["WWW-Authenticate"].startswith("Basic")
    with override_settings(ANYMAIL={}):  # no secret: inbound email is off
        off = post.postmark_fields(Client(), address, "pass 1")
    assert off.status_code == 403
    assert not InboundMail.objects.exists() and g.refresh().version == 0


def test_only_the_supported_providers_have_an_inbound_webhook(g: GameWithLinks) -> None:
    """Every other anymail provider's view parses the message in the request."""
    for provider in ("mailjet", "sparkpost", "postal", "resend", "mailersend"):
        answer = Client().post(f"/anymail/{provider}/inbound/", b"{}",
                               content_type="application/json", HTTP_AUTHORIZATION=post.AUTH)
        assert answer.status_code == 404, provider
    assert Client().head("/anymail/postmark/inbound/").status_code == 200


def test_a_brevo_post_of_several_messages_stores_each(commit: Any, g: GameWithLinks) -> None:
    first, second = reply_address("p0@example.com"), tokens.issue(g.seats[1], 0)
    items = [{"Uuid": [f"u{n}"], "To": [{"Address": address}], "Subject": "Re: x",
              "From": {"Address": f"p{n}@example.com"}, "RawTextBody": "say hi"}
             for n, address in enumerate((first, second))]
    with mock.patch("games.inbound.services.process.process_inbound_mail.delay"):
        answer = Client().post("/anymail/brevo/inbound/", json.dumps({"items": items}),
                               content_type="application/json", HTTP_AUTHORIZATION=post.AUTH)
    assert answer.json() == {"outcomes": ["received", "received"]}
    mail.outbox.clear()
    with commit():
        for stored in InboundMail.objects.all():
            assert process.process(stored.pk).outcome == "talk"
    assert g.game.messages.count() == 2
