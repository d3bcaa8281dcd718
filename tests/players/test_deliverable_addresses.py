"""One mailbox is one person, as the mail is delivered: an address's key is the key of the
address the mail backends send to, and every form refuses a spelling the backends rewrite
(`"alice"@a.test` goes to `alice@a.test`) with a 400 that shows where the mail would go.

The attacks of the probe run through the endpoints, on PostgreSQL too (marked postgres):
a forgotten player mailed again through /me/, /standby/ and a setup; the daily caps; a
refused host; one mailbox holding several homes and every seat of a table."""

from __future__ import annotations

import json
from typing import Any

import pytest
from anymail.utils import parse_address_list
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.mail.message import sanitize_address
from django.test import Client
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.game.core.game import Game
from games.handover.core.handover_rows import Volunteer
from games.home.services.forget import forget_player
from games.people.core.deliverable import refusal, validate_deliverable
from games.people.core.home_links import HomeLink, home_token
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import as_delivered, mailbox, mailbox_hash, mailbox_key
from games.people.core.new_homes import NewHome
from games.seats.core.seat import Seat
from games.setup.core.host_limits import HostBlock
from games.setup.services import game_setup

ALICE = "alice@a.test"
# Spellings of ALICE that Django's SMTP backend and anymail both deliver to ALICE (2^n of
# them: every letter may be escaped).
QUOTED = ['"alice"@a.test', '"\\alice"@a.test', '"a\\lice"@a.test', '"\\a\\l\\i\\c\\e"@a.test']


def envelope(address: str) -> str:
    """Where Django's SMTP backend sends `address` (its RCPT TO)."""
    return str(sanitize_address(address, "utf-8"))


def reached(address: str) -> list[Any]:
    """The emails whose envelope goes to `address`'s mailbox."""
    key = mailbox_key(address)
    return [m for m in mail.outbox for to in m.to if mailbox_key(envelope(to)) == key]


# ---- the key is the delivered address's ---------------------------------------------------


@pytest.mark.parametrize("spelling", QUOTED)
def test_every_quoted_spelling_is_delivered_to_the_plain_address_and_has_its_key(
        spelling: str) -> None:
    assert envelope(spelling) == ALICE  # what the probe saw: the mail reaches alice
    assert parse_address_list([spelling])[0].addr_spec == ALICE  # anymail agrees
    assert mailbox_key(spelling) == mailbox_key(ALICE)
    assert mailbox(spelling) == mailbox(ALICE)


@pytest.mark.parametrize(("address", "code"), [
    *((spelling, "not_as_delivered") for spelling in QUOTED),
    ('"=?utf-8?b?YWxpY2U=?="@a.test', "not_as_delivered"),
    ("=?utf-8?b?YWxpY2U=?=@a.test", "not_as_delivered"),  # an encoded word is decoded
    ("ann@straße.de", "ambiguous_domain"),  # IDNA 2003 strasse.de, IDNA 2008 xn--strae-oqa
    ("ann@BÜCHER.de", "ambiguous_domain"),
    ("ann@ｍａｉｌ.test", "ambiguous_domain"),
    ("alice(x)@a.test", "invalid"),
    ("böb@mail.test", "invalid"),  # Django's SMTP backend would send =?utf-8?b?...?=@
])
def test_a_spelling_the_mail_does_not_go_to_as_written_is_refused(address: str,
                                                                  code: str) -> None:
    with pytest.raises(ValidationError) as refused:
        validate_deliverable(address)
    assert refused.value.code == code


@pytest.mark.parametrize("address", ["alice@a.test", "Alice@A.Test", "bob@maıl.test",
                                     "Bob@XN--MAL-KUA.test", "a+tag@a.test",
                                     "o'hara@a.test", "x@[192.0.2.1]"])
def test_an_address_written_as_it_is_delivered_is_taken(address: str) -> None:
    assert refusal(address) == ""


def test_the_refusal_shows_where_the_mail_would_go() -> None:
    assert "alice@a.test" in refusal('"a\\lice"@a.test')


# Local parts with what the RFC 5322 parser rewrites (quotes, escapes, comments, encoded
# words, white space) and letters a look-alike attack uses; domains of every kind.
LOCAL = st.text(alphabet='aAlL."\\() =?_bß+öıİ-', min_size=1, max_size=8)
DOMAIN = st.sampled_from(["a.test", "A.TEST", "maıl.test", "xn--mal-kua.test", "straße.de",
                          "BÜCHER.de", "bücher.de", "ｍａｉｌ.test", "[192.0.2.1]"])
ADDRESS = st.builds(lambda local, domain: f"{local}@{domain}", LOCAL, DOMAIN)


@settings(max_examples=600, deadline=None)
@given(ADDRESS)
def test_every_address_the_forms_take_has_the_key_of_the_address_it_is_delivered_to(
        address: str) -> None:
    if refusal(address):
        return
    assert mailbox_key(address) == mailbox_key(envelope(address))
    assert mailbox_key(address) == mailbox_key(parse_address_list([address])[0].addr_spec)
    assert as_delivered(address) == tuple(address.strip().rsplit("@", 1))


@settings(max_examples=400, deadline=None)
@given(ADDRESS)
@example('"  "ß@a.test')  # a non-ASCII local part: left out (see below)
def test_the_key_of_any_address_with_a_plain_domain_is_its_envelopes(address: str) -> None:
    """Even an address no form takes (a row written before, an operator's command): its
    key is the mailbox the mail reaches, so its quotes make no second person."""
    try:
        sent = envelope(address)
    except (ValueError, TypeError, IndexError, AttributeError):  # the backend cannot send it
        return
    plain = {"a.test", "A.TEST", "maıl.test", "xn--mal-kua.test"}
    local, _at, domain = address.rpartition("@")
    # A non-ASCII local part goes as an encoded word (no form takes one: Django's
    # validator refuses it), whose white space the parser folds: not compared.
    if as_delivered(sent) is not None and domain in plain and local.isascii():
        assert mailbox_key(address) == mailbox_key(sent)


# ---- the attacks, through the endpoints ---------------------------------------------------


def setup_form(host: str, emails: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Rated by one", "ruleset": "base", "hours_per_move": 24,
                            "seating": "order", "start": "accepted", "time_zone": "UTC",
                            "language": "en", "host_email": host}
    for i, email in enumerate(emails):
        data[f"player_{i}_name"] = f"P{i}"
        data[f"player_{i}_email"] = email
    return data


def alices_game(seed: int = 3) -> Game:
    players = [game_setup.PlayerSpec(name="Alice", email=ALICE),
               game_setup.PlayerSpec(name="Cy", email=f"cy{seed}@example.org"),
               game_setup.PlayerSpec(name="Di", email=f"di{seed}@example.org")]
    return game_setup.create_game(name="Alice's", players=players, seed=seed, start=True).game


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("spelling", QUOTED[:3])
def test_every_form_refuses_a_quoted_spelling_with_a_400_that_says_why(
        client: Client, commit: Any, spelling: str) -> None:
    mail.outbox.clear()
    with commit():
        answers = {
            "/me/": client.post("/me/", {"email": spelling}),
            "/standby/": client.post("/standby/", {"email": spelling, "name": "Al",
                                                   "languages": ["en"],
                                                   "rulesets": ["base"],
                                                   "games_at_once": 1, "offers_per_day": 1,
                                                   "time_zone": "UTC"}),
            "/links/": client.post("/links/", {"email": spelling}),
            "/new/ host": client.post("/new/", setup_form(spelling, ["b@b.test", "c@c.test"])),
            "/new/ player": client.post("/new/", setup_form("h@h.test",
                                                            [spelling, "c@c.test"])),
        }
    for where, answer in answers.items():
        assert answer.status_code == 400, where
        assert "alice@a.test" in answer.content.decode(), where  # where the mail would go
    assert reached(ALICE) == []
    assert not Volunteer.objects.exists() and not NewHome.objects.exists()
    assert not Game.objects.exists()


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_forgotten_mailbox_is_mailed_by_no_spelling_and_stored_by_no_form(
        client: Client, commit: Any) -> None:
    with commit():
        alices_game()
    with commit():
        forget_player(ALICE)
    mail.outbox.clear()
    volunteers = Volunteer.objects.count()
    with commit():
        for spelling in [ALICE, "Alice@A.test", *QUOTED]:
            client.post("/me/", {"email": spelling})
        standby = client.post("/standby/", {
            "email": "Alice@a.test", "name": "Al", "languages": ["en"], "rulesets": ["base"],
            "games_at_once": 1, "offers_per_day": 1, "time_zone": "UTC"})
        invited = client.post("/new/", setup_form("h@h.test", ["Alice@a.test", "c@c.test",
                                                               "d@d.test"]))
        hosting = client.post("/new/", setup_form("ALICE@a.test", ["b@b.test", "c@c.test",
                                                                   "d@d.test"]))
    assert reached(ALICE) == []
    # The standby form answers as it does for anyone, and keeps nothing of the address.
    assert standby.status_code == 302
    assert Volunteer.objects.count() == volunteers
    assert not Volunteer.objects.filter(of_mailbox(ALICE)).exists()
    assert invited.status_code == hosting.status_code == 400
    assert "does not take" in invited.content.decode()
    assert "does not take emails from this server" in hosting.content.decode()
    assert not Game.objects.filter(of_mailbox(ALICE, "host_key")).exists()
    assert not NewHome.objects.filter(of_mailbox(ALICE)).exists()


@pytest.mark.postgres
@pytest.mark.django_db
def test_confirm_your_address_goes_once_a_day_to_a_mailbox_however_it_is_spelled(
        client: Client, commit: Any) -> None:
    with commit():
        for spelling in [ALICE, "ALICE@a.test", "Alice@A.TEST", *QUOTED] * 2:
            client.post("/me/", {"email": spelling})
    assert len(reached(ALICE)) == 1


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_refused_host_is_refused_whatever_the_spelling(client: Client, commit: Any) -> None:
    """The victim refused invitations from host@h.test; neither the host nor the victim
    can be spelled another way to walk around it."""
    HostBlock.objects.create(host_hash=mailbox_hash("host@h.test"),
                             recipient_hash=mailbox_hash("victim@v.test"))
    mail.outbox.clear()
    tries = [('"host"@h.test', "victim@v.test"), ("host@h.test", '"victim"@v.test'),
             ("Host@H.test", "Victim@V.test")]
    with commit():
        answers = [client.post("/new/", setup_form(host, [victim, "c@c.test", "d@d.test"]))
                   for host, victim in tries]
    assert [a.status_code for a in answers] == [400, 400, 400]
    assert "goes to host@h.test" in answers[0].content.decode()
    assert "goes to victim@v.test" in answers[1].content.decode()
    assert "does not want invitations from you" in answers[2].content.decode()
    assert reached("victim@v.test") == []


@pytest.mark.postgres
@pytest.mark.django_db
def test_one_mailbox_has_one_home_whatever_the_spelling_a_row_was_written_with(
        client: Client, commit: Any) -> None:
    """Rows written with a quoted spelling (an operator's command, or before the forms
    refused them) belong to the mailbox the mail reaches: one home, one list of games."""
    with commit():
        first = alices_game(seed=3)
        second = alices_game(seed=4)
        Seat.objects.filter(game=second, number=0).update(email='"a\\lice"@a.test')
    token = home_token('"alice"@a.test')
    assert home_token(ALICE) == token
    assert HomeLink.objects.filter(of_mailbox(ALICE)).count() == 1
    listed = {row["game"] for row in client.get(f"/api/me/{token}/").json()["games"]}
    assert listed == {first.public_id, second.public_id}
    exported = json.loads(client.get(f"/me/{token}/data.json").content)
    assert {g["game"] for g in exported["games"]} == listed


@pytest.mark.migrations
@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_quoted_rows_the_delivered_key_and_keeps_one_home() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("games", "0037_clock")]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("games")
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    games = old.get_model("games", "Game").objects
    game = games.create(name="Old", seed=1, snapshot={})
    games.filter(pk=game.pk).update(host_email='"host"@h.test', host_key="0" * 64)
    seats = old.get_model("games", "Seat").objects
    seats.create(game=game, number=0, player_name="Al", secret_hash="s" * 64)
    seats.update(email='"alice"@a.test', mailbox_key="1" * 64)
    homes = old.get_model("games", "HomeLink").objects
    homes.create(address=ALICE, token_hash="a" * 64)
    # Written as the old key function kept it: a second identity of one mailbox.
    homes.create(address="b@b.test", token_hash="b" * 64)
    homes.filter(token_hash="b" * 64).update(address='"alice"@a.test', mailbox_key="2" * 64)
    executor = MigrationExecutor(connection)
    executor.migrate(latest)
    assert Seat.objects.filter(of_mailbox(ALICE)).get().player_name == "Al"
    assert Game.objects.filter(of_mailbox("host@h.test", "host_key")).get().name == "Old"
    assert list(HomeLink.objects.values_list("token_hash", flat=True)) == ["a" * 64]
