"""Anonymous tables, service by service (games.game.core.aliases): the draw, the one name
every reader is given, a seat changing hands, `@alias` calls, email commands, the API,
the moderators' names, the open tables (the ratings that wait for the end and a rematch:
tests/anonymous/test_anonymous_game.py)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import translation

from games import engine
from games.game.core.aliases import ALIASES, Anonymity, anonymity, draw_aliases, readings
from games.game.core.game import Game
from games.handover.services import opening, takeover
from games.inbound.core.commands import parse_line, to_move
from games.moves.services import seat_services as services
from games.people.core.reserved_names import reserved_word_in
from games.seats.core.seat import Seat
from games.seatview.core.move_commands import command_for
from games.seatview.services import holders, pages
from games.tables.core.table_rows import OpenTable
from games.tables.services.naming import name_keys
from tests.handover.test_takeover import pass_move
from tests.handover_support import open_row
from tests.support import GameWithLinks, make_game, own_link_emailed_to, token_of

pytestmark = pytest.mark.django_db
LANGUAGES = ["en", "it", "nl", "es", "de"]


def anonymous_game(**kwargs: Any) -> GameWithLinks:
    return make_game(players=3, seed=5, anonymous=True, **kwargs)


def alias(game: Game, seat: int, language: str = "en") -> str:
    with translation.override(language):
        return anonymity(game).alias(seat)


# ---- the names ------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_alias_is_a_word_of_its_own_in_every_language(language: str) -> None:
    with translation.override(language):
        words = [str(name) for name in ALIASES]
    assert len(set(map(str.casefold, words))) == len(words) >= 24
    if language != "en":  # translated: not the English word left in place
        with translation.override("en"):
            english = [str(name) for name in ALIASES]
        assert sum(a != b for a, b in zip(words, english, strict=True)) > len(words) // 2
    # None reads as a word the site keeps for itself (a moderator, "Player 2").
    assert [word for word in words if reserved_word_in(name_keys(word))] == []


def test_the_draw_is_the_seeds_and_avoids_every_name_at_the_table_in_any_language() -> None:
    assert draw_aliases(7, 5, []) == draw_aliases(7, 5, [])
    assert draw_aliases(7, 5, []) != draw_aliases(8, 5, [])
    drawn = draw_aliases(7, 12, [])
    assert len(set(drawn)) == 12
    # A player called "tasso" (the Italian badger) or "OTTER" keeps both off the table.
    with translation.override("en"):
        badger, otter = (str(ALIASES[0]), str(ALIASES[1]))
    assert (badger, otter) == ("Badger", "Otter")
    for seed in range(40):
        assert not {0, 1} & set(draw_aliases(seed, 12, ["tasso", " OTTER "]))
    assert readings()[0] >= {"badger", "tasso", "das", "tejón", "dachs"}


def test_the_one_name_a_reader_is_given() -> None:
    hidden = Anonymity(aliases=(0, 1), revealed=False)
    over = Anonymity(aliases=(0, 1), revealed=True)
    plain = Anonymity()
    assert hidden.shown(0, "Ann") == "Badger" and hidden.hides
    assert hidden.table_name(1, "Hal", bot=True) == "Otter (bot)"
    assert over.shown(0, "Ann") == "Badger (Ann)" and not over.hides
    assert over.table_name(1, "Hal", bot=True) == "Otter (bot)"  # a bot's name is nobody's
    assert plain.shown(0, "Ann") == "Ann" and plain.alias(0) == ""
    assert plain.table_name(0, "Hal", bot=True) == "Hal (bot)"
    assert over.shown(0, "a former player") == "Badger (a former player)"
    with translation.override("it"):
        assert hidden.shown(0, "Ann") == "Tasso"
        assert over.shown(0, "Ann") == "Tasso (Ann)"


def test_a_seat_and_the_table_read_the_alias_in_the_readers_language() -> None:
    g = anonymous_game()
    game = g.refresh()
    seat = Seat.objects.get(pk=g.seats[1].pk)
    names = pages.seat_names(game)
    assert seat.name_shown == alias(game, 1) == names[1]
    assert seat.player_name not in names.values()
    with translation.override("de"):
        assert seat.name_shown == alias(game, 1, "de") != alias(game, 1)
    # The moderators read both, while the game goes on.
    assert pages.moderator_names(game)[1] == f"{alias(game, 1)} ({seat.player_name})"
    # Over: the name beside the alias, everywhere.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.refresh_from_db()
    assert pages.seat_names(game)[1] == f"{alias(game, 1)} ({seat.player_name})"


# ---- a seat changing hands -------------------------------------------------------------------


def log_text(body: str) -> str:
    found = re.search(r'<ul class="log-lines">(.*?)</ul>', body, re.S)
    assert found is not None
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def test_a_seat_keeps_its_alias_when_it_changes_hands(client: Client, commit: Any) -> None:
    g = anonymous_game()
    leaver = Seat.objects.get(pk=g.seats[1].pk)
    with commit():
        pass_move(client, g.page(0))
        pass_move(client, g.page(1))
        opening.open_seat(leaver.pk)
    with commit():
        takeover.take_over(open_row(leaver.pk).pk, takeover.Newcomer(
            name="Vera", email="vera@example.org", language="en"))
    game = g.refresh()
    badger = alias(game, 1)
    log = log_text(client.get(g.page(2)).content.decode())
    assert f"A new player took over seat 2 ({badger})" in log
    assert leaver.player_name not in log and "Vera" not in log
    assert f"{badger} asked for someone to take over seat 2" in log
    answer = client.get(g.api(0)).json()
    held = answer["players"][1]["holders"]  # the leaver, the bot meanwhile
    assert [h["name"] for h in held] == [badger, badger]
    assert answer["players"][1]["name"] == badger
    vera = own_link_emailed_to("vera@example.org")
    assert "You are Vera" not in client.get(vera).content.decode()
    # Over: who held it then, and who holds it now, each beside the alias.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    log = log_text(client.get(g.page(2)).content.decode())
    assert (f"{badger} (Vera) took over seat 2 from {badger} ({leaver.player_name})"
            in log)


# ---- talk and email commands -----------------------------------------------------------------


def test_a_line_calls_a_player_by_their_alias_in_any_language(commit: Any) -> None:
    g = anonymous_game()
    game = g.refresh()
    called, real = Seat.objects.get(pk=g.seats[1].pk), g.seats[1].player_name
    mail.outbox.clear()
    with commit():
        services.post_message(g.seats[0], f"@{real} are you there?")
    assert [m for m in mail.outbox if called.email in m.to] == []  # the name calls nobody
    with commit():
        services.post_message(g.seats[2], f"@{alias(game, 1, 'it')} ciao")
    [letter] = [m for m in mail.outbox if called.email in m.to]
    assert real not in letter.body and alias(game, 2) in letter.body


def test_an_email_command_names_its_target_by_alias() -> None:
    g = make_game(players=3, seed=4, anonymous=True)  # seat 1 may break another's tool
    game = g.refresh()
    players = [(s.number, s.player_name, s.kind) for s in game.seats.all()]
    with translation.override("it"):
        names = holders.today_names(game, players)
    assert names == {n: alias(game, n, "it") for n in range(3)}
    state = game.state()
    move = next(m for m in engine.legal_moves(state)
                if m["type"] == "action" and m["target"] != 0)
    view = engine.view(state, 0)
    text = command_for(move, view, names, "it")
    assert names[move["target"]].casefold() in text.casefold()
    command = parse_line(text, "it")
    assert command is not None and to_move(command, view, names) == move


# ---- the API ---------------------------------------------------------------------------------


def test_the_api_says_the_table_is_anonymous_and_names_it_so(client: Client) -> None:
    g = anonymous_game()
    answer = client.get(g.api(0)).json()
    game = g.refresh()
    assert answer["anonymous"] is True
    assert [(p["name"], p["alias"]) for p in answer["players"]] == [
        (alias(game, n), alias(game, n)) for n in range(3)]
    plain = make_game(players=3, seed=6)
    answer = client.get(plain.api(0)).json()
    assert answer["anonymous"] is False and "alias" not in answer["players"][0]
    # Once it is over (tests/anonymous/test_anonymous_game.py plays one to the end).
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    answer = client.get(g.api(0)).json()
    assert [(p["name"], p["alias"]) for p in answer["players"]] == [
        (s.player_name, alias(game, s.number)) for s in g.seats]


# ---- open tables -----------------------------------------------------------------------------


WISH = {"ruleset": "base", "players": 3, "hours_per_move": 24, "language": "en"}


def find(client: Client, address: str, **wish: Any) -> Any:
    from games.people.core.home_links import home_link
    token = token_of(home_link(address))
    return client.post(f"/api/me/{token}/tables", {**WISH, **wish},
                       content_type="application/json")


def test_an_anonymous_table_takes_only_anonymous_wishes_and_names_nobody(
        client: Client, commit: Any) -> None:
    from games.tables.services.naming import choose_name
    choose_name("a@example.org", "Quillonde", listed=True)
    anon = find(client, "a@example.org", anonymous=True).json()
    named = find(client, "b@example.org").json()
    assert anon["table"] != named["table"]  # neither wish takes the other's table
    again = find(client, "c@example.org", anonymous=True).json()
    assert again["table"] == anon["table"] and again["joined"] == 2
    tables = client.get("/api/tables/?anonymous=yes").json()["tables"]
    assert [(t["id"], t["anonymous"], t["joined"], t["players"]) for t in tables] == [
        (anon["table"], True, 2, [])]
    assert [t["id"] for t in client.get("/api/tables/?anonymous=no").json()["tables"]] == [
        named["table"]]
    assert "Quillonde" not in client.get("/tables/").content.decode()
    bad = client.get("/api/tables/?anonymous=maybe")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "anonymous"
    refused = find(client, "d@example.org", anonymous="yes")
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "anonymous"
    with commit():
        find(client, "d@example.org", anonymous=True)
    table = OpenTable.objects.get(pk=anon["table"])
    assert table.game is not None and table.game.anonymous
    assert "Quillonde" not in pages.seat_names(table.game).values()


# ---- a player's record -----------------------------------------------------------------------


def test_a_players_record_counts_an_anonymous_game_once_it_is_over() -> None:
    from games.ratings.services.player_record import (
        player_record,
        set_record_shown,
        table_lines,
    )
    g = anonymous_game()
    plain = make_game(players=3, seed=6)
    address = g.seats[0].email
    for seat in plain.seats:  # the same three people
        set_record_shown(seat.email, shown=True)
    assert player_record(address).games_played == 1  # the other game only
    game = g.refresh()
    assert table_lines(game, g.seats[0]) == {}  # nobody's record beside an alias
    assert table_lines(plain.refresh(), plain.seats[0]) != {}
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert player_record(address).games_played == 2


# ---- one way to a name -----------------------------------------------------------------------

# The modules that read a seat's stored name (`player_name`), each for its reason; any other
# page, email, answer or line asks games.game.core.aliases.holder_name (through the table's
# names, Seat.name_shown or the moderators' names). A new reader of the stored name lands
# here only with its reason.
READS_THE_STORED_NAME = {
    "games/seats/core/seat.py": "the row and its lifecycle",
    "games/seats/core/history.py": "the seat's history rows",
    "games/seatview/services/holders.py": "the table's names, through holder_name's rule",
    "games/moves/core/move_store_types.py": "the seats a move reads, for the table's names",
    "games/moves/services/move_store.py": "the same",
    "games/moves/services/fast_move_store.py": "the same",
    "games/moves/services/moves.py": "the same",
    "games/handover/services/opening.py": "a notice's parameters, read through the names",
    "games/clock/core/clock_facts.py": "through holder_name",
    "games/mail/doors/letters.py": "through holder_name",
    "games/mail/doors/pause_letters.py": "through holder_name",
    "games/home/services/listing.py": "through holder_name",
    "games/setup/services/host_view.py": "through holder_name",
    "games/play/doors/api.py": "through the API's alias rule",
    "games/play/services/seat_context.py": "into TableNames (the alias rule), read once",
    "games/ratings/services/shown.py": "through Seat.name_shown",
    "games/talk/services/reading.py": "`@name` calls, through Anonymity.called_by",
    "games/players/services/player_page.py": "finished games only",
    "games/setup/services/rematch.py": "the players of a new game",
    "games/home/services/erase.py": "forget me",
    "games/home/services/export.py": "the person's own data",
    "games/management/commands/creategame.py": "the operator",
    "games/mail/services/notification_rows.py": "the moderators' alerts",
    "games/moderation/doors/action_forms.py": "the moderators",
    "games/moderation/doors/admin_games.py": "the moderators",
    "games/moderation/doors/admin_handover.py": "the moderators",
    "games/moderation/doors/admin_records.py": "the moderators",
    "games/moderation/doors/held_then.py": "the moderators",
    "games/moderation/doors/moderate.py": "the moderators",
    "games/moderation/services/bot_seats.py": "the moderators' acts",
    "games/moderation/services/moderator_handover.py": "the moderators' acts",
    "games/moderation/services/seats.py": "the moderators' acts",
    "templates/admin/games/game/moderate.html": "the moderators, with the alias",
}


def test_only_the_modules_listed_read_a_seats_stored_name() -> None:
    from django.conf import settings
    root = settings.BASE_DIR
    found = {str(path.relative_to(root)) for folder in ("games", "templates")
             for path in (root / folder).rglob("*") if path.suffix in (".py", ".html", ".txt")
             and "migrations" not in path.parts and "player_name" in path.read_text()}
    assert found == set(READS_THE_STORED_NAME)


def test_the_operator_makes_an_anonymous_table_and_reads_both_names() -> None:
    from io import StringIO

    from django.core.management import call_command
    out = StringIO()
    call_command("creategame", "--name", "Quiet", "--anonymous", "--player",
                 "Ann <ann@example.com>", "--player", "Bob <bob@example.com>",
                 "--player", "Cy <cy@example.com>", stdout=out)
    game = Game.objects.get()
    assert game.anonymous
    lines = out.getvalue().splitlines()
    for seat in game.seats.all():
        assert f"seat {seat.number}\t{seat.player_name} [{alias(game, seat.number)}]\t" in lines[
            seat.number]
