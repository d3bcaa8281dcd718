"""A rematch is named after the game with its number, in the reader's language, and its
invitation names the proposer, the game it follows and that game's result (issue 39,
item 6)."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client
from django.utils import translation

from games.game.core.game import Game
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.setup.services.rematch import propose_rematch
from tests.play.test_rematch import EMAILS, finished_table, play_to_the_end
from tests.support import token_of

# Each plays a whole game to its end first: not in `run.py test --quick`.
pytestmark = pytest.mark.slow


def heading(body: str) -> str:
    found = re.search(r"<h1>(.*?)</h1>", body, re.S)
    assert found is not None
    return found.group(1).strip()


@pytest.mark.django_db
def test_the_rematch_is_named_with_its_number_for_each_reader(client: Client,
                                                              commit: Any) -> None:
    table = finished_table()
    old = table.refresh()
    scores = old.state_without_log().scores
    best = max(scores)
    winners = [name for name, score in zip(["Ann", "Bo", "Cy", "Bert (bot)"], scores,
                                           strict=True) if score == best]
    mail.outbox.clear()
    with commit():
        assert client.post(table.page(1) + "rematch").status_code == 302  # Bo proposes
    rematch = Game.objects.get(rematch_of=old)
    assert (rematch.name, rematch.rematch_number) == ("Friday", 1)  # stored once
    [ann] = [m for m in mail.outbox if m.to == [EMAILS[0]] and "invited" in m.subject]
    body = " ".join(str(ann.body).split())
    assert "Bo proposes a rematch of “Friday”: “Friday · rematch 1”, the same table" in body
    if len(winners) == 1:
        assert f"In “Friday”, {winners[0]} won with {best} nuggets." in body
    else:
        assert f"In “Friday”, {', '.join(winners)} shared first place" in body
    html = cast(EmailMultiAlternatives, ann).alternatives[0][0]
    assert "Bo proposes a rematch" in str(html)  # the HTML part too
    [cy] = [m for m in mail.outbox if m.to == [EMAILS[2]] and "invito" in m.subject]
    cy_body = " ".join(str(cy.body).split())
    assert "Bo propone una rivincita di «Friday»: «Friday · rivincita 1»" in cy_body
    assert "In «Friday»" in cy_body
    seats = {s.email: s for s in Seat.objects.filter(game=rematch)}
    ann_page = client.get(f"/play/{token_of(link_for(seats[EMAILS[0]]))}/")
    assert heading(ann_page.content.decode()) == "Friday · rematch 1"
    cy_page = client.get(f"/play/{token_of(link_for(seats[EMAILS[2]]))}/")
    assert heading(cy_page.content.decode()) == "Friday · rivincita 1"
    # The finished game's pages name its rematch the same way.
    assert "This table plays again: “Friday · rematch 1”" in client.get(
        table.page(0)).content.decode()
    # A rematch of the rematch is number 2, still after the first game's name.
    for email in (EMAILS[0], EMAILS[2]):
        with commit():
            client.post(f"/play/{token_of(link_for(seats[email]))}/accept")
    play_to_the_end(rematch)
    again = propose_rematch(seats[EMAILS[0]].pk).game
    assert (again.name, again.rematch_number) == ("Friday", 2)
    words = {"en": "Friday · rematch 2", "it": "Friday · rivincita 2",
             "nl": "Friday · revanche 2", "es": "Friday · revancha 2",
             "de": "Friday · Revanche 2"}
    for language, title in words.items():
        with translation.override(language):
            assert again.title == title
    assert old.title == "Friday"
