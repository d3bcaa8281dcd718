"""`createmoderator` and the moderators group the migration creates."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command
from django.test import Client

pytestmark = pytest.mark.django_db

EXPECTED = {
    "view_game", "view_secrets", "moderate_game", "view_seat", "view_move", "view_message",
    "view_gamenotice", "view_dispute", "view_notification", "view_moderatoraction",
    # When a player leaves: open seats, their offers and the standby volunteers.
    "view_openseat", "view_seatoffer", "view_volunteer",
    # Public names, which a moderator may reset.
    "view_publicname",
    # Tournaments, their players, rounds and tables; a moderator may cancel one.
    "view_tournament", "view_entry", "view_eventround", "view_eventtable",
    # Challenges (with their players) and blocks; a moderator may withdraw a challenge.
    "view_challenge", "view_challenged", "view_challengeblock",
}


def test_the_moderators_group_has_exactly_the_tools_permissions() -> None:
    group = Group.objects.get(name="moderators")
    perms = set(group.permissions.values_list("content_type__app_label", "codename"))
    assert perms == {("games", codename) for codename in EXPECTED}


def test_createmoderator_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODERATOR_PASSWORD", "a long passphrase 93")
    out = StringIO()
    call_command("createmoderator", "mia", "--email", "mia@example.com",
                 "--password-from-env", stdout=out)
    assert "moderator mia created" in out.getvalue()
    user = User.objects.get(username="mia")
    assert user.is_staff and not user.is_superuser and user.email == "mia@example.com"
    assert user.has_perm("games.view_secrets") and user.has_perm("games.moderate_game")
    client = Client()
    assert client.post("/admin/login/", {"username": "mia", "password": "a long passphrase 93"}
                       ).status_code == 302
    assert client.get("/admin/games/game/").status_code == 200


def test_createmoderator_updates_an_existing_user(monkeypatch: pytest.MonkeyPatch) -> None:
    User.objects.create_user("old", "old@example.com", "first passphrase 11")
    monkeypatch.setenv("PW", "second passphrase 22")
    call_command("createmoderator", "old", "--email", "new@example.com",
                 "--password-from-env", "PW", stdout=StringIO())
    user = User.objects.get(username="old")
    assert user.is_staff and user.email == "new@example.com"
    assert user.groups.filter(name="moderators").exists()
    assert user.check_password("second passphrase 22")


def test_createmoderator_asks_for_the_password(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["typed passphrase 33", "typed passphrase 33"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    call_command("createmoderator", "tia", "--email", "tia@example.com", stdout=StringIO())
    assert User.objects.get(username="tia").check_password("typed passphrase 33")


@pytest.mark.parametrize("argv", [
    ["x", "--email", "not-an-email", "--password-from-env"],
    ["x", "--email", "x@example.com", "--password-from-env", "UNSET_VARIABLE_HERE"],
])
def test_createmoderator_refuses_bad_input(argv: list[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODERATOR_PASSWORD", "a long passphrase 93")
    with pytest.raises(CommandError):
        call_command("createmoderator", *argv, stdout=StringIO())
    assert not User.objects.filter(username="x").exists()


def test_createmoderator_refuses_weak_or_mismatched_passwords(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MODERATOR_PASSWORD", "123")
    with pytest.raises(CommandError):
        call_command("createmoderator", "w", "--email", "w@example.com",
                     "--password-from-env", stdout=StringIO())
    answers = iter(["one passphrase 44", "another passphrase 55"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    with pytest.raises(CommandError, match="match"):
        call_command("createmoderator", "w", "--email", "w@example.com", stdout=StringIO())
    assert not User.objects.filter(username="w").exists()
