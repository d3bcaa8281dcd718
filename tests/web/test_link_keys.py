"""Links do not depend on SECRET_KEY, and no email carries a link that does not open its
seat: LINK_KEY is its own setting (required without DEBUG), and a seat whose link no
configured key can rebuild gets a new one before an email carries it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from tests.email_support import play_one
from tests.ops.test_settings import PRODUCTION, manage
from tests.support import GameWithLinks, make_game

LINK = re.compile(r"http://127\.0\.0\.1:8000(/play/[A-Za-z0-9_-]{43}/)")


def next_turn_link(g: GameWithLinks, commit: Any) -> tuple[int, str]:
    """Play one move: the seat to act next and the path of its turn email's link."""
    mail.outbox.clear()
    actor = play_one(g, random.Random(1), commit).state().actor
    assert actor is not None
    [letter] = [m for m in mail.outbox if m.to == [g.seats[actor].email]
                and "your turn" in m.subject]
    match = LINK.search(str(letter.body))
    assert match, letter.body
    return actor, match.group(1)


@pytest.mark.django_db
def test_a_new_secret_key_leaves_the_next_turn_emails_link_opening_the_seat(
        client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=1, start=True)
    with override_settings(SECRET_KEY="a-brand-new-secret-key-" + "z" * 30):
        actor, link = next_turn_link(g, commit)
        assert link == g.page(actor)  # the link the player already holds
        assert client.get(link).status_code == 200
        assert all(client.get(g.page(n)).status_code == 200 for n in range(3))


@pytest.mark.django_db
def test_a_seat_whose_key_is_gone_gets_a_working_link_in_its_next_email(
        client: Client, commit: Any) -> None:
    """What happened with LINK_KEY unset: it followed SECRET_KEY, so a new SECRET_KEY left
    no key that rebuilds the seats' links. The next email must still open its seat: the
    link nobody can rebuild any more is replaced first."""
    with override_settings(LINK_KEY="the-old-secret-key", LINK_KEY_FALLBACKS=[],
                           SECRET_KEY="the-old-secret-key"):
        g = make_game(players=3, seed=1, start=True)
    with override_settings(LINK_KEY="a-new-secret-key", LINK_KEY_FALLBACKS=[],
                           SECRET_KEY="a-new-secret-key"):
        actor, link = next_turn_link(g, commit)
        page = client.get(link)
        assert page.status_code == 200
        assert g.seats[actor].player_name in page.content.decode()
        assert client.get(g.page(actor)).status_code == 404  # the link that was replaced
        # Replaced once: the seat's next emails carry that same new link.
        assert link_for(Seat.objects.get(pk=g.seats[actor].pk)).endswith(link)


@pytest.mark.django_db
def test_a_confirmation_email_written_after_a_link_key_change_opens_the_game(
        client: Client, commit: Any) -> None:
    from games.mail.core.notifications import Notification
    from games.mail.doors.link_letters import confirm_setup
    from tests.setup_support import CONFIRM

    data = {"name": "Friday", "ruleset": "base", "hours_per_move": 24, "seating": "order",
            "start": "accepted", "time_zone": "UTC", "language": "en",
            "host_email": "host@example.org"}
    for i in range(3):
        data[f"player_{i}_name"], data[f"player_{i}_email"] = f"P{i}", f"p{i}@example.org"
    with override_settings(LINK_KEY="first-link-key"):
        assert client.post("/new/", data).status_code == 302
    with override_settings(LINK_KEY="second-link-key"):
        note = Notification.objects.get(kind=Notification.Kind.CONFIRM_SETUP)
        match = CONFIRM.search(confirm_setup(note).text)
        assert match and client.get(match.group(1)).status_code == 200


def test_link_key_is_required_without_debug_and_says_how_to_keep_the_links() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "LINK_KEY"}
    result = manage("check", env=env)
    assert result.returncode != 0 and "LINK_KEY must be set" in result.stderr
    assert "rotatelinks --old-keys-only" in result.stderr


def test_the_link_key_never_follows_secret_key() -> None:
    code = "from django.conf import settings as s; print(s.LINK_KEY)"
    keys = {manage("shell", "-c", code, env={"DEBUG": "1", "SECRET_KEY": key}).stdout
            for key in ("first-secret-" + "a" * 40, "second-secret-" + "b" * 40)}
    assert len(keys) == 1
    assert "secret" not in keys.pop()
