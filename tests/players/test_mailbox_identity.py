"""One address is one person (issue 34, item 1): an address opens, exports and forgets the
games of its own mailbox only, and every spelling of that mailbox opens the same home.

The look-alike attacks run on SQLite and, with DATABASE_URL pointing at PostgreSQL, on
PostgreSQL (marked `postgres` so that `-m postgres` picks them): there `UPPER('ı')` is
`I`, so the database's case-insensitive comparison (`iexact`) gave `bob@maıl.test`
(whose mail goes to the punycode domain xn--mal-kua.test, anyone's to register) the real
`bob@mail.test`'s seats."""

from __future__ import annotations

import ast
import json
import re
from email.header import decode_header, make_header
from pathlib import Path
from typing import Any

import idna
import pytest
from django.apps import apps
from django.core import mail
from django.core.mail.message import sanitize_address
from django.test import Client
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games.game.core.game import Game
from games.mail.core.notifications import Notification
from games.people.core.home_links import HomeLink
from games.people.core.mailbox_keys import MailboxKeyQuerySet, key_fields, of_mailbox
from games.people.core.mailboxes import mailbox, mailbox_key, mailbox_key_hash, same_mailbox
from games.seats.core.seat import Seat
from games.setup.services import game_setup

HOME = re.compile(r"https?://[^\s\"<>]+?/me/([A-Za-z0-9_-]{43})/")
ROOT = Path(__file__).resolve().parents[2]


def bodies(message: Any) -> str:
    return "\n".join([str(message.body), *(str(a[0]) for a in message.alternatives)])


def game_of(name: str, address: str, seed: int) -> Game:
    players = [game_setup.PlayerSpec(name=name, email=address),
               game_setup.PlayerSpec(name="Cy", email=f"cy{seed}@example.org"),
               game_setup.PlayerSpec(name="Di", email=f"di{seed}@example.org")]
    return game_setup.create_game(name=f"{name}'s game", players=players, seed=seed,
                                start=True).game


def home_token_mailed_to(address: str) -> str:
    """The home link in the emails that went to `address`: what its mailbox holds."""
    found = {token for m in mail.outbox if m.to == [address]
             for token in HOME.findall(bodies(m))}
    assert len(found) == 1, found
    return found.pop()


# ---- the attack, through the endpoints ----------------------------------------------------

LOOKALIKES = [
    ("bob@mail.test", "bob@maıl.test"),  # dotless ı: UPPER('ı') = 'I' on PostgreSQL
    ("böb@mail.test", "BÖB@mail.test"),  # non-ASCII case in the local part
    ("sam@mail.test", "ſam@mail.test"),  # long s: UPPER('ſ') = 'S'
]


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(("victim", "attacker"), LOOKALIKES)
def test_a_look_alike_address_opens_exports_and_forgets_nothing_of_the_victim(
        client: Client, commit: Any, victim: str, attacker: str) -> None:
    with commit():
        real = game_of("Bob", victim, seed=3)
        bait = game_of("Eve", attacker, seed=4)
    token = home_token_mailed_to(attacker)
    listed = client.get(f"/api/me/{token}/").json()
    assert [row["game"] for row in listed["games"]] == [bait.public_id]
    page = client.get(f"/me/{token}/").content.decode()
    assert "Bob&#x27;s game" not in page and "Eve&#x27;s game" in page
    exported = client.get(f"/me/{token}/data.json").content.decode()
    assert real.public_id not in exported and "Bob's game" not in exported
    assert [g["game"] for g in json.loads(exported)["games"]] == [bait.public_id]
    with commit():
        assert client.post(f"/me/{token}/forget").status_code == 200
    bob = Seat.objects.get(game=real, number=0)
    assert (bob.player_name, bob.email) == ("Bob", victim)  # erased from nothing
    assert Seat.objects.get(game=bait, number=0).email == ""  # the attacker forgot itself
    own = home_token_mailed_to(victim)
    assert [row["game"] for row in client.get(f"/api/me/{own}/").json()["games"]] == [
        real.public_id]


@pytest.mark.postgres
@pytest.mark.django_db
def test_every_spelling_of_one_mailbox_opens_one_home(client: Client, commit: Any) -> None:
    """The Unicode domain and its punycode are the domain the mail goes to: one person,
    whatever the ASCII case, with one home listing both games."""
    with commit():
        first = game_of("Bob", "bob@maıl.test", seed=3)
        second = game_of("Bob", "Bob@XN--MAL-KUA.test", seed=4)
    token = home_token_mailed_to("bob@maıl.test")
    assert home_token_mailed_to("Bob@XN--MAL-KUA.test") == token
    listed = {row["game"] for row in client.get(f"/api/me/{token}/").json()["games"]}
    assert listed == {first.public_id, second.public_id}


# ---- the key ------------------------------------------------------------------------------


@pytest.mark.parametrize(("address", "key"), [
    ("Bob@Mail.Test", "bob@mail.test"),
    (" bob@maıl.test ", "bob@xn--mal-kua.test"),
    ("BOB@XN--MAL-KUA.TEST", "bob@xn--mal-kua.test"),
    ("Ann@Bücher.DE", "ann@xn--bcher-kva.de"),
    ("ann@BÜCHER.de", "ann@bÜcher.de"),  # IDNA would map Ü: kept as written
    ("ann@straße.de", "ann@straße.de"),  # IDNA 2003 says strasse, IDNA 2008 does not
    ("BÖB@mail.test", "bÖb@mail.test"),  # only ASCII case is folded
    ("ann+tag@x.org", "ann+tag@x.org"),  # a tag is part of the identity
])
def test_the_key_folds_ascii_case_and_encodes_the_domain_only(address: str, key: str) -> None:
    assert mailbox_key(address) == key


def test_one_identity_is_always_one_counted_mailbox_and_not_the_reverse() -> None:
    assert same_mailbox("Ann@X.org", "ann@x.org")
    assert not same_mailbox("ann+1@x.org", "ann@x.org")
    assert mailbox("ann+1@x.org") == mailbox("ann@x.org")  # the caps count them as one
    assert not same_mailbox("", "")  # no address is nobody


# The addresses an attacker would try: look-alike letters, case, IDNA's mapped forms.
LOCAL = st.text(alphabet="bBoOıIİiſsSßkK+.öÖ", min_size=1, max_size=4)
LABELS = ["mail", "MAIL", "maıl", "Maıl", "xn--mal-kua", "XN--MAL-KUA", "maİl", "mai̇l",
          "straße", "strasse", "xn--strae-oqa", "ｍａｉｌ", "bücher", "BÜCHER",
          "xn--bcher-kva", "\u212aey", "key", "test", "TEST"]
ADDRESS = st.builds(lambda local, labels: f"{local}@{'.'.join(labels)}", LOCAL,
                    st.lists(st.sampled_from(LABELS), min_size=1, max_size=2))


def delivered(address: str, encoder: str) -> tuple[str, str] | None:
    """Where a mail system sends `address` to: the local part as it goes on the wire
    (ASCII case is the mailbox's own business: folded) and the DNS name (ASCII, any
    case), with Django's encoder (IDNA 2003, what our SMTP backend sends) or UTS 46 (IDNA
    2008, what other providers' may); None when that encoder refuses the domain."""
    local, _at, domain = address.rpartition("@")
    try:
        if encoder == "django":
            sent = sanitize_address(address, "utf-8")
            local, _at, domain = sent.rpartition("@")
            # A non-ASCII local part goes as an encoded word: compare what it encodes
            # (its base64 is case-sensitive, so folding the word would be wrong).
            local = str(make_header(decode_header(local)))
        else:
            domain = idna.encode(domain, uts46=True, transitional=False).decode("ascii")
    except (UnicodeError, idna.IDNAError, ValueError):
        return None
    fold = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
    return local.translate(fold), domain.lower()


@settings(max_examples=400, deadline=None)
@given(ADDRESS, ADDRESS)
@example("ÖK@mail", "Ök@mail")  # one key; Django sends both as encoded words of one text
def test_two_addresses_share_a_key_only_when_they_reach_the_same_mailbox(
        first: str, second: str) -> None:
    if mailbox_key(first) != mailbox_key(second):
        return
    for encoder in ("django", "uts46"):
        one, other = delivered(first, encoder), delivered(second, encoder)
        assert one is None or other is None or one == other, (first, second, encoder)


@settings(max_examples=200, deadline=None)
@given(ADDRESS)
def test_ascii_case_never_makes_another_person(address: str) -> None:
    swapped = "".join(c.swapcase() if c.isascii() else c for c in address)
    assert mailbox_key(swapped) == mailbox_key(address)
    assert mailbox(swapped) == mailbox(address)  # nor another counted mailbox


# ---- the column the ORM keeps -------------------------------------------------------------


@pytest.mark.django_db
def test_every_write_of_an_address_writes_its_key() -> None:
    game = game_of("Ann", "ann@example.org", seed=1)
    seat = Seat.objects.get(game=game, number=0)
    assert seat.mailbox_key == mailbox_key_hash("ANN@example.org")
    Seat.objects.filter(pk=seat.pk).update(email="zoe@maıl.test")
    assert Seat.objects.filter(of_mailbox("Zoe@xn--mal-kua.test")).get() == seat
    seat.email = "yan@example.org"
    seat.save(update_fields=["email"])
    assert Seat.objects.filter(of_mailbox("YAN@example.org")).get() == seat
    seat.email = "xia@example.org"
    Seat.objects.bulk_update([seat], ["email"])
    assert Seat.objects.get(pk=seat.pk).mailbox_key == mailbox_key_hash("xia@example.org")
    game.seats.filter(pk=seat.pk).update(email="")
    assert Seat.objects.get(pk=seat.pk).mailbox_key == ""
    assert not Seat.objects.filter(of_mailbox("")).exists()  # no address matches no one
    Game.objects.filter(pk=game.pk).update(host_email="Host@Example.org")
    assert Game.objects.filter(of_mailbox("host@example.org", "host_key")).get() == game
    Notification.objects.create(key="k", kind=Notification.Kind.TURN, to_email="Cy@x.org")
    assert Notification.objects.filter(of_mailbox("cy@X.ORG", "to_key")).exists()


def test_every_address_column_has_its_key_and_a_queryset_that_keeps_it() -> None:
    keyed = {(model.__name__, f.source) for model in apps.get_app_config("games").get_models()
             for f in key_fields(model)}
    assert keyed >= {("Seat", "email"), ("Game", "host_email"), ("HomeLink", "address"),
                     ("Volunteer", "email"), ("SeatOffer", "to_email"),
                     ("Notification", "to_email"), ("InboundMail", "sender"),
                     ("PendingForget", "email")}
    for model in apps.get_app_config("games").get_models():
        if key_fields(model):
            # update() and bulk_update() through any manager keep the key too.
            assert isinstance(model._default_manager.all(), MailboxKeyQuerySet), model


def test_no_database_case_folding_compares_addresses_in_games() -> None:
    """`iexact` (UPPER on PostgreSQL), Upper/Lower and a Unicode fold of an address are
    how look-alikes got in: games/ matches addresses by their key only."""
    found = []
    for path in (ROOT / "games").rglob("*.py"):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg and node.arg.endswith("__iexact"):
                found.append(f"{path}:{node.value.lineno} {node.arg}")
            if isinstance(node, ast.Name) and node.id in ("Upper", "Lower"):
                found.append(f"{path}:{node.lineno} {node.id}")
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and "__iexact" in node.value):
                found.append(f"{path}:{node.lineno} {node.value!r}")
    assert not found, found


# ---- the data migration -------------------------------------------------------------------


@pytest.mark.migrations
@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_keys_and_keeps_one_home_per_person() -> None:
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before = [("games", "0027_bot_level")]
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes("games")
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    game = old.get_model("games", "Game").objects.create(
        name="Old", seed=1, snapshot={}, host_email="Host@Example.org")
    old.get_model("games", "Seat").objects.create(
        game=game, number=0, player_name="Bob", email="bob@maıl.test", secret_hash="s" * 64)
    homes = old.get_model("games", "HomeLink").objects
    homes.create(address="bob@maıl.test", token_hash="a" * 64)
    homes.create(address="bob@xn--mal-kua.test", token_hash="b" * 64)  # the same person
    executor = MigrationExecutor(connection)
    executor.migrate(latest)
    assert Seat.objects.filter(of_mailbox("BOB@XN--MAL-KUA.test")).get().player_name == "Bob"
    assert Game.objects.filter(of_mailbox("host@example.org", "host_key")).get().name == "Old"
    assert list(HomeLink.objects.values_list("token_hash", flat=True)) == ["a" * 64]
