"""Every link in every email is made with LINK_KEY and its fallbacks (issue 34, item 12):
unsubscribe, home, standby, offers and the host's page all keep working after a new
SECRET_KEY, and after LINK_KEY is rotated with the old key kept as a fallback (the links
in emails already sent work; the next email carries a working link)."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.handover.core.handover_rows import OpenSeat
from games.handover.services import opening
from games.handover.services.offers import invite_by_table
from games.seats.core.seat import Seat
from tests.handover_support import STANDBY_LINK, link_in_newest, offer_link_to, sign_up
from tests.setup_support import set_up
from tests.support import make_game
from tests.web.test_setup_caps import form

pytestmark = pytest.mark.django_db

OLD_LINK_KEY = "the-link-key-the-emails-were-made-with-" + "o" * 20
NEW_LINK_KEY = "the-link-key-of-the-next-release-" + "n" * 20
UNSUBSCRIBE = re.compile(r"https?://[^\s\"<>]+?(/mail/unsubscribe/[A-Za-z0-9_:\-]+/)")
HOME = re.compile(r"https?://[^\s\"<>]+?(/me/[A-Za-z0-9_-]{43}/)")
HOST = re.compile(r"https?://[^\s\"<>]+?(/new/host/[A-Za-z0-9_-]+/)")


def unsubscribe_link(commit: Any) -> str:
    with commit():
        make_game(players=3, seed=1, start=True)
    return link_in_newest("p0@example.com", UNSUBSCRIBE)


def home_link(commit: Any) -> str:
    with commit():
        make_game(players=3, seed=1, start=True)
    return link_in_newest("p0@example.com", HOME)


def standby_link(commit: Any) -> str:
    return sign_up(Client(), commit, "vera@example.org", "Vera")


def offer_link(commit: Any) -> str:
    g = make_game(players=3, seed=5)
    with commit():
        opening.open_seat(g.seats[1].pk)
        row = OpenSeat.objects.get(seat_id=g.seats[1].pk)
        invite_by_table(Seat.objects.get(pk=g.seats[0].pk), row.pk, "pal@example.org")
    return offer_link_to("pal@example.org")


def host_link(commit: Any) -> str:
    set_up(Client(), form("host@example.org", ["p@example.org"], name="Friday"), commit,
           host="host@example.org")
    return link_in_newest("host@example.org", HOST)


KINDS: dict[str, Callable[[Any], str]] = {
    "unsubscribe": unsubscribe_link, "home": home_link, "standby": standby_link,
    "offer": offer_link, "host": host_link}


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_new_secret_key_leaves_every_emailed_link_working(
        client: Client, commit: Any, kind: str) -> None:
    with override_settings(LINK_KEY=OLD_LINK_KEY, SECRET_KEY="old-secret-" + "s" * 40):
        link = KINDS[kind](commit)
        assert client.get(link).status_code == 200
    with override_settings(LINK_KEY=OLD_LINK_KEY, SECRET_KEY="new-secret-" + "t" * 40,
                           SECRET_KEY_FALLBACKS=[]):
        assert client.get(link).status_code == 200, kind


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_rotated_link_key_kept_as_a_fallback_leaves_every_emailed_link_working(
        client: Client, commit: Any, kind: str) -> None:
    with override_settings(LINK_KEY=OLD_LINK_KEY):
        link = KINDS[kind](commit)
    with override_settings(LINK_KEY=NEW_LINK_KEY, LINK_KEY_FALLBACKS=[OLD_LINK_KEY]):
        assert client.get(link).status_code == 200, kind


def test_the_next_emails_carry_the_links_already_held(client: Client, commit: Any,
                                                       clock: Any) -> None:
    """After the rotation the next standby email, and the host's next email, carry the
    link their reader holds (it was made under a fallback): nothing is replaced."""
    with override_settings(LINK_KEY=OLD_LINK_KEY):
        standby = standby_link(commit)
        host = host_link(commit)
    with override_settings(LINK_KEY=NEW_LINK_KEY, LINK_KEY_FALLBACKS=[OLD_LINK_KEY]):
        mail.outbox.clear()
        clock.shift(timedelta(days=1, minutes=1))  # a standby email a day at most
        with commit():
            assert Client(REMOTE_ADDR="10.7.0.1").post("/standby/", {
                "email": "vera@example.org", "name": "Vera", "languages": ["en"],
                "rulesets": ["base"], "games_at_once": 1, "offers_per_day": 1,
                "time_zone": "UTC"}).status_code == 302
        assert link_in_newest("vera@example.org", STANDBY_LINK) == standby
        game = Seat.objects.get(email="p@example.org").game
        from games.seats.core.links import host_link as hosts_page

        assert hosts_page(game).endswith(host)
        assert client.get(host).status_code == 200
