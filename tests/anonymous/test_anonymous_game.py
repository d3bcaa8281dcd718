"""An anonymous game read whole for its players' names (docs/playing.md "Anonymous tables").

Three players with public names meet at an anonymous open table and play a whole game:
seat 1 through its page's forms, seat 2 through the JSON API, seat 3 by email replies,
with table talk (an `@alias` call among it) on the page and by email, alerts pushed to a
device, and everyone's pages, API answers, homes, the open tables and the replay read
every few moves. Every response body, every email (subject, text and HTML), every push
payload and every log line of the whole game is kept; while the game runs none holds a
real name, in any case; no round is rated (a rating that moved would tell who sat
there). Once it is over the same pages name the players, the rounds are rated, and a
rematch is anonymous too.

A host's anonymous setup is read the same way: the setup's pages, the host's page, the
invitations and the invitation page, the first moves.
"""

from __future__ import annotations

import json
import logging
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.utils import translation

from games import engine
from games.game.core.aliases import anonymity
from games.game.core.game import Game
from games.home.services.everywhere import set_language_and_zone
from games.people.core.home_links import home_token
from games.ratings.core.rating_rows import RatedRound
from games.seats.core.seat import Seat
from games.seatview.core.move_commands import command_for
from games.tables.services.naming import choose_name
from tests.email_support import dig
from tests.inbound_support import reply_address, send_reply
from tests.moderation_support import make_moderator
from tests.push.standin import StandIn
from tests.push.support import turn_on_alerts
from tests.setup_support import set_up
from tests.support import form_post, own_link_emailed_to, token_of

pytestmark = [pytest.mark.django_db, pytest.mark.slow]  # a whole game

# Names no page, email or sentence of the site contains by chance. The addresses say
# nothing of them (an address is no name, and the players' own emails carry theirs).
NAMES = ["Quillonde", "Zephyrine", "Marbleworth"]
ADDRESSES = ["first@example.org", "second@example.org", "third@example.org"]
LANGUAGES = ["en", "it", "de"]  # each player's home: their pages and emails in it
# A seed whose game this policy ends soon (135 moves).
SEED = 206
EVERYONE_EVERY = 45  # every seat's pages, API, home and the open tables, this often
SEAT_LINK = re.compile(r"/play/[A-Za-z0-9_-]{43}/")


class Kept:
    """Every response, email, push and log line of the game, with where it came from."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str]] = []
        self.emails_seen = 0
        self.read = {"responses": 0, "emails": 0, "pushes": 0, "log lines": 0}

    def response(self, where: str, response: Any) -> Any:
        assert response.status_code < 500, (where, response.status_code)
        body = response.content.decode()
        # A home holds the person's own settings, their own public name among them.
        if where == "home API":
            body = json.dumps({**response.json(), "name": None})
        elif where.startswith("home"):
            body = re.sub(r'<section class="settings" id="public-name">.*?</section>', "",
                          body, flags=re.S)
        self.texts.append((where, body))
        self.read["responses"] += 1
        return response

    def emails(self) -> None:
        for message in mail.outbox[self.emails_seen:]:
            alternatives = getattr(message, "alternatives", [])
            parts = [str(message.subject), str(message.body), *message.to,
                     *(message.reply_to or []), json.dumps(message.extra_headers),
                     *(str(content) for content, _kind in alternatives)]
            self.texts.append((f"email to {message.to[0]}: {message.subject}",
                               "\n".join(parts)))
        self.read["emails"] += len(mail.outbox) - self.emails_seen
        self.emails_seen = len(mail.outbox)

    def pushes(self, standin: StandIn) -> None:
        for push in standin.received:
            self.texts.append(("push", json.dumps(push.payload)))
            self.read["pushes"] += 1
        standin.received.clear()

    def logs(self, caplog: pytest.LogCaptureFixture) -> None:
        for record in caplog.records:
            self.texts.append((f"log {record.name}", record.getMessage()))
            self.read["log lines"] += 1
        caplog.clear()

    def without_names(self) -> None:
        for where, text in self.texts:
            folded = text.casefold()
            for name in NAMES:
                assert name.casefold() not in folded, f"{name} in {where}"
        self.texts.clear()


@contextmanager
def logged(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    with caplog.at_level(logging.DEBUG):
        yield


@override_settings(INBOUND_ANSWERS_PER_HOUR=10_000)
def test_an_anonymous_table_never_names_its_players_until_the_game_ends(
        commit: Any, caplog: pytest.LogCaptureFixture, standin: StandIn) -> None:
    kept = Kept()
    homes = []
    for address, name, language in zip(ADDRESSES, NAMES, LANGUAGES, strict=True):
        choose_name(address, name, listed=True)
        set_language_and_zone(address, language=language, time_zone="Europe/Rome")
        homes.append(home_token(address))
    clients = [Client() for _ in ADDRESSES]
    mail.outbox.clear()
    with logged(caplog), mock.patch("games.setup.services.game_setup.secrets.randbits",
                                    return_value=SEED):
        # They find the table from their homes: the form, the JSON API, the form.
        for number, (client, token) in enumerate(zip(clients, homes, strict=True)):
            wish = {"ruleset": "base", "players": "3", "hours_per_move": 24,
                    "language": "en", "rated": True}
            with commit():
                if number == 1:
                    kept.response("home API find", client.post(
                        f"/api/me/{token}/tables",
                        {**wish, "players": 3, "anonymous": True},
                        content_type="application/json"))
                else:
                    kept.response("home find", client.post(
                        f"/me/{token}/tables/find",
                        {**wish, "rated": "on", "anonymous": "on"}))
            if number < 2:  # forming: nobody is named at it, not even by a public name
                kept.response("tables", client.get("/tables/?language=any"))
                tables = kept.response("tables API", client.get("/api/tables/?anonymous=yes"))
                [table] = tables.json()["tables"]
                assert table["anonymous"] and table["players"] == []
                assert table["joined"] == number + 1
                kept.response("home", client.get(f"/me/{token}/"))
        game = Game.objects.get()
        assert game.anonymous and game.rated and game.status == Game.Status.ACTIVE
        assert game.seed == SEED
        # Seat 3 plays by email: its turn emails go even when its page was read just then.
        Seat.objects.filter(game=game, number=2).update(skip_seen_turns=False)
        seats = {seat.number: seat for seat in game.seats.all()}
        links = {number: own_link_emailed_to(seat.email) for number, seat in seats.items()}
        home_of = {number: homes[ADDRESSES.index(seat.email)] for number, seat in seats.items()}
        client_of = {number: clients[ADDRESSES.index(seat.email)]
                     for number, seat in seats.items()}
        # Seat 3's player (whoever the shuffle put there: the seat never opens its page,
        # so each turn is emailed) has alerts on, of every kind.
        turn_on_alerts(client_of[2], seats[2].email, standin,
                       kinds=["turn", "deadline", "start_end", "talk"])
        play_the_game(game, seats, links, home_of, client_of, kept, commit, caplog, standin)
    # Read while it ran: 271 responses, 101 emails, 45 pushes, 672 log lines.
    assert kept.read["responses"] > 250 and kept.read["emails"] > 90
    assert kept.read["pushes"] > 20 and kept.read["log lines"] > 500

    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    # Over: the same pages name the players, beside the names the table knew them by.
    table = anonymity(game)
    for number, seat in seats.items():
        client = client_of[number]
        page = client.get(links[number]).content.decode()
        with translation.override(seat.language):
            alias = table.alias(number)
        assert f"{alias} ({seat.player_name})" in page
        assert all(name in page for name in NAMES)
        answer = client.get(f"/api{links[number]}").json()
        assert {p["name"] for p in answer["players"]} == set(NAMES)
        record = client.get(f"/api{links[number]}record").json()
        assert sorted(record["seats"]["names"]) == sorted(NAMES)
        with translation.override(seat.language):  # in the reader's language
            assert record["seats"]["aliases"] == [table.alias(n) for n in sorted(seats)]
        assert all(name in client.get(f"{links[number]}replay/").content.decode()
                   for name in NAMES)
    # Its rounds, each held back while the names were hidden, are rated now.
    assert RatedRound.objects.filter(game=game).count() == 3
    # A rematch is anonymous too, with aliases of its own.
    with commit():
        client_of[0].post(f"{links[0]}rematch")
    again = Game.objects.get(rematch_of=game)
    assert again.anonymous and again.status == Game.Status.SETUP


def play_the_game(game: Game, seats: dict[int, Seat], links: dict[int, str],
                  home_of: dict[int, str], client_of: dict[int, Client], kept: Kept,
                  commit: Any, caplog: pytest.LogCaptureFixture, standin: StandIn) -> None:
    rng = random.Random(SEED)
    moves = 0
    talked = False
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:  # what the last move caused names them
            return
        # A round's rating would tell who sat here: the rounds wait for the end.
        assert not RatedRound.objects.filter(game=game).exists()
        kept.emails()
        kept.pushes(standin)
        kept.logs(caplog)
        kept.without_names()
        state = game.state()
        actor = state.actor
        assert actor is not None
        client, link = client_of[actor], links[actor]
        if moves % EVERYONE_EVERY == 0:
            read_everything(seats, links, home_of, client_of, kept)
        if not talked and moves >= 10:
            talked = True
            talk(game, seats, links, client_of, kept, commit)
        move = dig(engine.legal_moves(state), rng)
        with commit():
            if actor == 0:  # through the page's forms
                kept.response("page", client.get(link))
                kept.response("move form", client.post(f"{link}move",
                                                       form_post(move, game.version)))
            elif actor == 1:  # through the JSON API
                kept.response("API", client.get(f"/api{link}"))
                kept.response("API move", client.post(
                    f"/api{link}moves", {"version": game.version, "move": move},
                    content_type="application/json"))
            else:  # by email
                seat = seats[actor]
                with translation.override(seat.language):
                    names = {n: anonymity(game).alias(n) for n in seats}
                text = command_for(move, engine.view(state, actor), names, seat.language)
                result = send_reply(commit, reply_address(seat.email), text,
                                    sender=seat.email)
                assert result.outcome == "moved", (text, result.detail)
        moves += 1
        assert moves < 400


def read_everything(seats: dict[int, Seat], links: dict[int, str], home_of: dict[int, str],
                    client_of: dict[int, Client], kept: Kept) -> None:
    for number in seats:
        client, link = client_of[number], links[number]
        kept.response("page", client.get(link))
        kept.response("live", client.get(f"{link}live"))
        kept.response("API", client.get(f"/api{link}"))
        kept.response("record", client.get(f"/api{link}record"))
        kept.response("replay", client.get(f"{link}replay/"))
        kept.response("home", client.get(f"/me/{home_of[number]}/"))
        kept.response("home API", client.get(f"/api/me/{home_of[number]}/"))
        kept.response("home next", client.get(f"/me/{home_of[number]}/next", follow=True))
    anyone = Client()
    kept.response("tables", anyone.get("/tables/?language=any"))
    kept.response("tables API", anyone.get("/api/tables/?language=any"))
    kept.response("ratings", anyone.get("/ratings/"))
    for name in NAMES:  # their public pages list no game going on
        page = anyone.get(f"/api/players/{name}").json()
        assert page["games"] == []


def talk(game: Game, seats: dict[int, Seat], links: dict[int, str],
         client_of: dict[int, Client], kept: Kept, commit: Any) -> None:
    """Seat 1 calls seat 2 by its alias on the page; seat 3 answers by email."""
    with translation.override(seats[0].language):
        called = anonymity(game).alias(1)
    with commit():
        kept.response("say", client_of[0].post(f"{links[0]}say",
                                               {"text": f"@{called} good luck down there"}))
    with commit():
        send_reply(commit, reply_address(seats[2].email), "say thank you all",
                   sender=seats[2].email)
    called_emails = [m for m in mail.outbox if m.to == [seats[1].email]
                     and "good luck down there" in str(m.body)]
    assert called_emails, "the @alias called seat 2's player"


@override_settings(SETUP="open")
def test_a_hosts_anonymous_setup_names_nobody_to_the_host_or_the_players(
        commit: Any, caplog: pytest.LogCaptureFixture) -> None:
    kept = Kept()
    host = Client()
    data = {"name": "Friday", "ruleset": "base", "hours_per_move": 24, "seating": "order",
            "start": "accepted", "anonymous": "on", "time_zone": "UTC", "language": "en",
            "timeout_policy": "auto_pass", "while_seat_open": "bot", "bot_level": "normal",
            "bots": 0}
    for number, (name, address) in enumerate(zip(NAMES, ADDRESSES, strict=True)):
        data[f"player_{number}_name"] = name
        data[f"player_{number}_email"] = address
    with logged(caplog):
        kept.response("setup", host.get("/new/"))
        created = kept.response("created", set_up(host, data, commit))
        game = Game.objects.get()
        assert game.anonymous and game.status == Game.Status.SETUP
        token = re.search(r"/new/host/([\w-]+)/", created.content.decode())
        assert token is not None
        hosted = f"/new/host/{token.group(1)}/"
        kept.response("host page", host.get(hosted))
        kept.response("confirm page", host.get(f"/new/confirm/{token.group(1)}/"))
        invitation = SEAT_LINK.search(created.content.decode())
        assert invitation is not None
        kept.response("invitation page", Client().get(invitation.group(0)))
        kept.emails()
        with commit():
            kept.response("resend", host.post(f"{hosted}resend", {"seat": 1}, follow=True))
        for address in ADDRESSES:
            link = own_link_emailed_to(address)
            player = Client()
            with commit():
                kept.response("accept", player.post(f"{link}accept", follow=True))
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        kept.response("host page", host.get(hosted))
        for seat in game.seats.all():
            kept.response("page", Client().get(own_link_emailed_to(seat.email)))
        kept.emails()
        kept.logs(caplog)
    kept.without_names()
    # The moderators see both: the name, and the alias beside it.
    moderator = Client()
    moderator.force_login(make_moderator())
    page = moderator.get(f"/admin/games/game/{game.pk}/moderate/").content.decode()
    for seat in game.seats.all():
        assert seat.player_name in page and seat.alias in page
    seats_list = moderator.get("/admin/games/seat/").content.decode()
    assert all(name in seats_list for name in NAMES)


def test_the_alias_of_a_seat_is_drawn_once_and_kept() -> None:
    """A table's aliases survive the requests that read them: the API says the same names,
    request after request."""
    with mock.patch("games.setup.services.game_setup.secrets.randbits", return_value=SEED):
        from games.setup.services.game_setup import PlayerSpec, create_game
        made = create_game(name="Quiet", players=[
            PlayerSpec(name=name, email=address) for name, address in
            zip(NAMES, ADDRESSES, strict=True)], start=True, anonymous=True)
    game = made.game
    seat = game.seats.get(number=0)
    link = f"/play/{token_of(own_link(seat))}/"
    first = Client().get(f"/api{link}").json()["players"]
    again = Client().get(f"/api{link}").json()["players"]
    assert first == again
    assert [p["name"] for p in first] == [anonymity(game).alias(n) for n in range(3)]


def own_link(seat: Seat) -> str:
    from games.seats.core.links import link_for
    return link_for(seat)
