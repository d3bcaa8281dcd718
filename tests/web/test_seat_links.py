"""Private seat links: wrong, rotated and malformed secrets; what the database holds."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from django.test import Client

from games.moves.services import seat_services as services
from games.seats.core import links
from games.seats.core.seat import Seat
from tests.support import GameWithLinks


@pytest.mark.django_db
def test_the_database_holds_only_hashes(game: GameWithLinks) -> None:
    for seat, token in zip(game.seats, game.tokens, strict=True):
        stored = Seat.objects.get(pk=seat.pk).secret_hash
        assert stored == hashlib.sha256(token.encode()).hexdigest()
        assert token not in str(list(Seat.objects.filter(pk=seat.pk).values()))
    assert len({*game.tokens}) == 3 and all(len(t) == 43 for t in game.tokens)  # 256 bits


@pytest.mark.django_db
@pytest.mark.parametrize("secret", [
    "A" * 43,  # well-formed but wrong
    "A" * 42,  # too short
    "A" * 44,  # too long
    "!" * 43,  # characters a token never has
    "%00" * 14,
    "short",
])
def test_wrong_and_malformed_secrets_are_404(client: Client, game: GameWithLinks,
                                             secret: str) -> None:
    assert links.find_seat(secret) is None
    assert client.get(f"/play/{secret}/").status_code == 404
    assert client.get(f"/api/play/{secret}/").status_code == 404
    assert client.post(f"/play/{secret}/move", {"version": 0, "move": "{}"}).status_code == 404


@pytest.mark.django_db
def test_a_token_with_one_character_changed_is_refused(client: Client,
                                                       game: GameWithLinks) -> None:
    token = game.tokens[0]
    changed = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(f"/play/{changed}/").status_code == 404


@pytest.mark.django_db
def test_a_rotated_link_stops_working_at_once(client: Client, game: GameWithLinks) -> None:
    old = game.tokens[1]
    new = services.rotate_link(game.seats[1].pk)
    assert new != old
    assert client.get(f"/play/{old}/").status_code == 404
    assert client.get(f"/api/play/{old}/").status_code == 404
    assert client.get(f"/play/{new}/").status_code == 200
    assert Seat.objects.get(pk=game.seats[1].pk).link_rotated_at is not None


@pytest.mark.django_db
def test_a_player_can_rotate_their_own_link(client: Client, game: GameWithLinks) -> None:
    response = client.post(game.page(2) + "rotate")
    assert response.status_code == 302
    new_path = response["Location"]
    assert new_path.startswith("/play/") and new_path != game.page(2)
    assert client.get(game.page(2)).status_code == 404
    assert "new private link" in client.get(new_path).content.decode()


@pytest.mark.django_db
def test_links_are_absolute_on_site_url(settings: Any) -> None:
    settings.SITE_URL = "https://sab.example.org"
    assert links.seat_link("x" * 43) == "https://sab.example.org/play/" + "x" * 43 + "/"
