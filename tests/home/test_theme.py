"""The home's theme switch (games.home.services.theme): kept on the home's row, written on
<html> of the home and the person's seat pages, in the data export, erased with the row;
an unknown theme is a 400 that changes nothing. The pages themselves in dark:
tests/browser/test_dark_theme.py."""

from __future__ import annotations

import pytest
from django.test import Client

from games.home.services.erase import erase_address
from games.home.services.export import export_player_data
from games.people.core.home_links import theme_of
from games.seats.core.links import token_of_seat
from tests.home.support import ANN, anns_games

pytestmark = pytest.mark.django_db


def test_the_switch_is_kept_shown_exported_and_forgotten(client: Client) -> None:
    games = anns_games(invite=False)
    home = f"/me/{games.token}/"
    assert b"data-theme" not in client.get(home).content  # the device decides
    assert client.post(home + "theme", {"theme": "bogus"}).status_code == 400
    assert theme_of(ANN) == ""
    assert client.post(home + "theme", {"theme": "dark"})["Location"] == home + "#theme"
    assert b'<html lang="en" data-theme="dark">' in client.get(home).content
    seat = client.get(f"/play/{token_of_seat(games.soon.seats.get(email=ANN))}/")
    assert b'data-theme="dark"' in seat.content
    assert export_player_data(ANN)["home"][0]["theme"] == "dark"
    erase_address(ANN)
    assert theme_of(ANN) == ""
