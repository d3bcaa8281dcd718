"""Ways in (issue 39, item 7): the front page leads to every place a newcomer may look
for (their games, open seats, standby, the rules), and an offer made to a volunteer on
standby links to that volunteer's own standby settings, not to the public sign-up."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.handover.services import opening
from tests.handover_support import STANDBY_LINK, sign_up
from tests.support import make_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["en", "it", "de"])
def test_the_front_page_links_to_games_seats_standby_and_rules(client: Client,
                                                               language: str) -> None:
    body = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    links = set(re.findall(r'<a [^>]*href="([^"?#]+)', body))
    assert {"/me/", "/seats/", "/standby/", "/rules/base/", "/rules/saboteur2/",
            "/new/"} <= links
    assert f'href="/rules/base/?lang={language}"' in body  # the rules in the page's language


def test_an_offer_to_a_volunteer_links_to_their_own_standby_settings(client: Client,
                                                                      commit: Any) -> None:
    own = sign_up(client, commit, "vera@example.org", "Vera")
    game = make_game(players=3, seed=5)
    mail.outbox.clear()
    with commit():
        opening.open_seat(game.seats[1].pk)
    [offer] = [m for m in mail.outbox if "vera@example.org" in m.to]
    text = str(offer.body)
    pause = text[text.index("Pause or change your standby:"):].split("\n")[0]
    found = STANDBY_LINK.search(pause)
    assert found and found.group(1) == own, pause  # hers, not /standby/ (the sign-up)
    html = str(offer.alternatives[0][0])  # type: ignore[attr-defined]
    assert re.search(rf'href="[^"]*{own}"[^>]*>Pause or change your standby</a>', html)
    settings_page = client.get(own).content.decode()
    assert 'value="pause"' in settings_page  # it opens where she pauses
