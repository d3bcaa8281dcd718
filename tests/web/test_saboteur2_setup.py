"""Setting up a Saboteur 2 game: the setup page, creategame and demo (2 to 12 players)."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from games.game.core.game import Game
from tests.setup_support import set_up
from tests.support import own_link_emailed_to

NAMES = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]


def setup_data(ruleset: str, players: int) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Expansion night", "ruleset": ruleset,
                            "hours_per_move": 24, "seating": "order", "start": "now",
                            "time_zone": "UTC", "language": "en",
                            "host_email": "host@example.org"}
    for i, name in enumerate(NAMES[:players]):
        data[f"player_{i}_name"] = name
        data[f"player_{i}_email"] = f"{name.lower()}@example.com"
    return data


@pytest.mark.django_db
def test_the_setup_page_offers_saboteur_2_for_2_to_12_players(client: Client) -> None:
    body = client.get("/new/").content.decode()
    assert '<option value="saboteur2">Saboteur 2 (the expansion), 2 to 12 players</option>' in body
    assert '<option value="base"' in body and "3 to 10 players" in body
    assert 'name="player_11_name"' in body and 'name="player_12_name"' not in body
    assert "option_saboteur2" not in body  # the expansion has no options


@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 12])
def test_a_host_creates_an_expansion_game(client: Client, players: int, commit: Any) -> None:
    response = set_up(client, setup_data("saboteur2", players), commit)
    game = Game.objects.get()
    assert (game.ruleset, game.options, game.status) == ("saboteur2", {}, Game.Status.ACTIVE)
    assert game.seats.count() == players
    body = response.content.decode()
    invitations = re.findall(r'<a href="http://127\.0\.0\.1:8000(/play/[^"]+/)"', body)
    assert len(invitations) == players
    # The last player accepts the host's invitation; their own link comes by email only.
    with commit():
        accepted = client.post(invitations[-1] + "accept").content.decode()
    assert "sent to the seat's email address" in accepted and "/play/" not in accepted
    own = own_link_emailed_to(f"{NAMES[players - 1].lower()}@example.com")
    assert own != invitations[-1]
    page = client.get(own).content.decode()
    assert "Crystals in the maze: 0." in page
    assert "dwarf cards are set aside" in page


@pytest.mark.django_db
@pytest.mark.parametrize(("ruleset", "players", "fragment"), [
    ("saboteur2", 1, "need 2 to 12 players"),
    ("base", 2, "need 3 to 10 players"),
    ("base", 11, "need 3 to 10 players"),
])
def test_player_counts_follow_the_rules(client: Client, ruleset: str, players: int,
                                        fragment: str) -> None:
    response = client.post("/new/", setup_data(ruleset, players))
    assert response.status_code == 400 and fragment in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_creategame_makes_an_expansion_game() -> None:
    out = io.StringIO()
    call_command("creategame", "--name", "G", "--ruleset", "saboteur2", "--start",
                 "--player", "Ann <ann@example.com>", "--player", "Bob <bob@example.com>",
                 stdout=out)
    assert len(out.getvalue().splitlines()) == 2
    assert Game.objects.get().ruleset == "saboteur2"


@pytest.mark.django_db
@pytest.mark.parametrize(("asked", "seats"), [("12", 12), ("1", 2), ("20", 12)])
def test_demo_takes_a_ruleset(client: Client, asked: str, seats: int) -> None:
    out = io.StringIO()
    call_command("demo", "--ruleset", "saboteur2", "--players", asked, "--seed", "3", stdout=out)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("seat ")]
    game = Game.objects.get()
    assert game.ruleset == "saboteur2" and len(lines) == seats == game.seats.count()
    link = lines[0].split("\t")[3].replace("http://127.0.0.1:8000", "")
    assert "It is your turn." in client.get(link).content.decode()


@pytest.mark.django_db
def test_demo_refuses_an_unknown_ruleset() -> None:
    with pytest.raises(CommandError, match="unknown ruleset"):
        call_command("demo", "--ruleset", "chess", stdout=io.StringIO())
