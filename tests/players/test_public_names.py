"""A public name: unique by a confusable-safe key, never an address, changed at most once a
month; part of "download my data" and erased by "forget me" with the ratings."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from games.home.services.export import export_player_data
from games.home.services.forget import forget_player
from games.people.core.home_links import home_link
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import NameKey, PublicName
from games.ratings.core.rating_rows import PlayerRating
from games.setup.core.player_defaults import remember_preferences
from games.tables.core.table_rows import TableMember
from games.tables.services.naming import name_keys
from tests.moderation_support import logged_in, make_moderator, make_staff
from tests.support import token_of

pytestmark = pytest.mark.django_db


def home(address: str) -> str:
    return token_of(home_link(address))


def name(client: Client, token: str, wanted: Any) -> Any:
    return client.post(f"/api/me/{token}/name", data=json.dumps({"name": wanted}),
                       content_type="application/json")


@pytest.mark.parametrize("look_alike", ["ʙob", "BOB", "bob", "Ｂｏｂ", "ВОВ", "B0b", "𝐁𝐨𝐛"])
def test_a_name_that_reads_like_a_taken_one_is_refused(client: Client, look_alike: str) -> None:
    assert name(client, home("bob@example.org"), "Bob").status_code == 200
    answer = name(client, home("eve@example.org"), look_alike)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "name_taken"
    assert list(PublicName.objects.values_list("name", flat=True)) == ["Bob"]


def test_the_home_form_refuses_a_look_alike_with_409_and_keeps_the_old_name(
        client: Client) -> None:
    client.post(f"/me/{home('bob@example.org')}/name", {"name": "ʙob"})
    eve = home("eve@example.org")
    client.post(f"/me/{eve}/name", {"name": "Eve"})
    answer = client.post(f"/me/{eve}/name", {"name": "Bob"})
    assert answer.status_code == 409
    assert "looks just like it" in answer.content.decode()
    assert set(PublicName.objects.values_list("name", flat=True)) == {"ʙob", "Eve"}


@pytest.mark.parametrize("wanted", ["ann@example.org", "  ann @ example.org ", "x", "", 7,
                                    "a" * 31, "bad\u202ename", "l1I|l1I|l1I|l1I|"])
def test_an_address_or_a_bad_name_is_refused_with_400(client: Client, wanted: Any) -> None:
    answer = name(client, home("ann@example.org"), wanted)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_name"
    assert not PublicName.objects.exists() and not NameKey.objects.exists()


def test_a_name_with_an_at_sign_that_is_no_address_is_fine(client: Client) -> None:
    assert name(client, home("ann@example.org"), "Ann @ home").status_code == 200


def test_a_name_changes_at_most_once_a_month(client: Client) -> None:
    with time_machine.travel("2027-05-01 09:00Z", tick=False) as traveller:
        token = home("ann@example.org")
        assert name(client, token, "Ann").status_code == 200
        traveller.shift(timedelta(days=29))
        soon = name(client, token, "Annie")
        assert soon.status_code == 409 and soon.json()["error"]["code"] == "too_soon"
        assert PublicName.objects.get().name == "Ann"
        assert name(client, token, "Ann").status_code == 200  # the same name: no change
        traveller.shift(timedelta(days=2))
        assert name(client, token, "Annie").json()["name"] == "Annie"
    # The old name is free again for someone else.
    assert name(client, home("zoe@example.org"), "ANN").status_code == 200


def test_keys_fold_case_compatibility_forms_and_look_alike_letters() -> None:
    assert name_keys("ʙob") == name_keys("Bob") == name_keys("Ｂｏｂ") == ["bob"]
    assert "bob" in name_keys("B0b")
    assert name_keys("Anna") != name_keys("Anne")


def test_the_export_has_the_name_and_ratings_and_forget_me_erases_them(client: Client) -> None:
    address = "ann@example.org"
    token = home(address)
    name(client, token, "Ann")
    client.post(f"/me/{token}/ratings", {"listed": "1"})
    PlayerRating.objects.create(mailbox=mailbox_key_hash(address), ruleset="base", mu=27.0,
                                sigma=4.0, rounds=3)
    client.post(f"/api/me/{token}/tables", data=json.dumps({"players": 4}),
                content_type="application/json")
    data = export_player_data(address)
    assert data["public_name"]["name"] == "Ann" and data["public_name"]["ratings_listed"]
    assert data["ratings"]["base"]["rating"] == 1580 and data["ratings"]["base"]["rounds"] == 3
    assert [t["seats"] for t in data["open_tables"]] == [4]
    forget_player(address)
    assert not PublicName.objects.exists() and not NameKey.objects.exists()
    assert not PlayerRating.objects.exists() and not TableMember.objects.exists()
    # The name is free again.
    assert name(client, home("other@example.org"), "Ann").status_code == 200


# ---- names that speak for the site ----------------------------------------------------------


@pytest.mark.parametrize("wanted", [
    "Moderator", "Ann (moderator)", "Saboteur by post", "PIayer 1", "a former pIayer",
    "Player12", "Seat 3", "Bot 2", "ADMIN", "the staff", "xX M0DERAT0R Xx", "Мoderator",
    "ｍod", "rnoderator", "A.d.m.i.n",
    "Giocatore 3", "Un moderatore", "ex partecipante", "Saboteur per corrispondenza",  # it
    "Speler 2", "Beheerder Bas", "Saboteur per post",                                # nl
    "Jugador 4", "Moderadora Eva", "ex participante", "Saboteur por correo",         # es
    "Spieler 5", "Platz 2", "Moderatorin", "eine ehemalige Person am Tisch",         # de
])
def test_a_name_that_speaks_for_the_site_is_refused(client: Client, wanted: str) -> None:
    answer = name(client, home("eve@example.org"), wanted)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "name_reserved"
    assert not PublicName.objects.exists() and not NameKey.objects.exists()


@pytest.mark.parametrize(("ordinary", "reserved"), [
    ("Badminton Ben", "Admin Ben"), ("Modesto", "Mod Esto"), ("Staffan", "Staff Ann"),
    ("Ecosystem Eve", "System Eve"), ("Player of games", "Player 9 games"),
    ("Seated Sam", "Seat 1 Sam"), ("Sneaky Saboteur", "Saboteur by Post")])
def test_a_short_reserved_word_inside_an_ordinary_word_is_fine(
        client: Client, ordinary: str, reserved: str) -> None:
    answer = name(client, home("eve@example.org"), reserved)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "name_reserved"
    assert name(client, home("eve@example.org"), ordinary).status_code == 200


@override_settings(DEFAULT_FROM_EMAIL="Mine Shaft Games <games@example.org>")
def test_the_name_the_emails_come_from_is_reserved_whatever_it_is(client: Client) -> None:
    answer = name(client, home("eve@example.org"), "mine-shaft games!")
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "name_reserved"


def test_the_refusal_names_the_word_in_the_players_language(client: Client) -> None:
    remember_preferences("eve@example.org", "it", "Europe/Rome")
    answer = name(client, home("eve@example.org"), "Eve (Moderator)")
    assert answer.json()["error"]["message"].startswith(
        "Questo nome si legge come «moderator»")
    form = client.post(f"/me/{home('eve@example.org')}/name", {"name": "PIayer 7"})
    assert form.status_code == 400 and "«Player N»" in form.content.decode()


def test_a_moderator_resets_a_name_and_the_player_is_told_in_their_language(
        client: Client, commit: Any) -> None:
    address = "eve@example.org"
    token = home(address)
    remember_preferences(address, "it", "Europe/Rome")
    with time_machine.travel("2027-05-01 09:00Z", tick=False):
        assert name(client, token, "Evil Eve").status_code == 200
        row = PublicName.objects.get()
        changelist = reverse("admin:games_publicname_changelist")
        # Staff who may look but not moderate cannot reset it.
        viewer = logged_in(make_staff("viewer", "view_publicname"))
        assert viewer.get(changelist).status_code == 200
        viewer.post(changelist, {"action": "reset_names", "_selected_action": [row.pk]})
        assert PublicName.objects.filter(name="Evil Eve").exists()
        mail.outbox.clear()
        moderator = logged_in(make_moderator())
        assert "Evil Eve" in moderator.get(changelist).content.decode()
        with commit():
            answer = moderator.post(changelist, {"action": "reset_names",
                                                 "_selected_action": [row.pk]})
        assert answer.status_code == 302
        assert not PublicName.objects.exists() and not NameKey.objects.exists()
        assert LogEntry.objects.get().object_repr == "Evil Eve"
        [letter] = [m for m in mail.outbox if m.to == [address]]
        assert "Un moderatore ha azzerato il tuo nome pubblico" in str(letter.subject)
        assert "«Evil Eve»" in str(letter.body) and f"/me/{token}/" in str(letter.body)
        # The player chooses another at once (a reset is no change of theirs).
        assert name(client, token, "Eve").status_code == 200
