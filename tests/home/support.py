"""Games for the home tests: one address (ANN) at tables set up by two hosts."""

from __future__ import annotations

from dataclasses import dataclass

from games.game.core.game import Game
from games.people.core.home_links import home_link
from games.seats.core.seat import Seat
from games.setup.services import game_setup

ANN = "ann@example.org"


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[1]


def table(name: str, host: str, *, ann_to_act: bool, hours: int = 24, players: int = 3,
          address: str = ANN, invite: bool = True) -> Game:
    """A started game whose seat to act is the address's (or the next seat is)."""
    specs = [game_setup.PlayerSpec(name=f"{name} P{i}", email=f"{name.lower()}{i}@example.net")
             for i in range(players)]
    game = game_setup.create_game(name=name, players=specs, seed=7, start=True,
                                hours_per_move=hours, invite=invite).game
    Game.objects.filter(pk=game.pk).update(host_email=host)
    game.refresh_from_db()
    assert game.actor is not None
    number = game.actor if ann_to_act else (game.actor + 1) % players
    Seat.objects.filter(game=game, number=number).update(email=address,
                                                         player_name=f"Ann in {name}")
    return game


@dataclass
class AnnsGames:
    soon: Game  # her turn, 24 h
    later: Game  # her turn, 48 h
    waiting: Game  # someone else's turn
    over: Game  # finished

    @property
    def token(self) -> str:
        return token_of(home_link(ANN))


def anns_games(*, invite: bool = True) -> AnnsGames:
    """`invite=False`: no invitation leaves (a browser test's worker would read the
    tables while they are being written)."""
    later = table("Later", "host1@example.com", ann_to_act=True, hours=48, invite=invite)
    waiting = table("Waiting", "host2@example.com", ann_to_act=False, invite=invite)
    soon = table("Soon", "host2@example.com", ann_to_act=True, hours=24, invite=invite)
    over = table("Over", "host1@example.com", ann_to_act=False, invite=invite)
    Game.objects.filter(pk=over.pk).update(status=Game.Status.FINISHED, actor=None,
                                           deadline_at=None)
    table("Other people", "host1@example.com", ann_to_act=True, address="zoe@example.org",
          invite=invite)
    return AnnsGames(soon=soon, later=later, waiting=waiting, over=over)
