"""Private notes and the suspicion sheet (issue 48, item 2): for each other seat a mark
and a line per round, the public actions that seat took beside it (from the reader's own
view), private to the seat's player everywhere (no other seat's page, API, email or
replay, nor a newcomer in the seat), kept across the rounds, in the owner's replay after
the game, in their data export, erased by "forget me", and written by email too
(`note 3 suspect broke my lamp`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import engine
from games.engine.types import Move
from games.game.core.game import Game
from games.home.services.export import export_player_data as player_data
from games.home.services.forget import forget_player
from games.notes.core.sheet_rows import SeatNote
from games.seats.core.seat import Seat
from tests.inbound_support import reply_address, send_reply
from tests.support import GameWithLinks, make_game, seat_move

pytestmark = pytest.mark.django_db

SECRET_NOTE = "Bert broke my lamp, surely the saboteur"


def write_note(client: Client, g: GameWithLinks, by: int, about: int, mark: str,
               text: str) -> str:
    answer = client.post(g.page(by) + "notes", {"about": str(about), "mark": mark,
                                                "text": text}, follow=True)
    assert answer.status_code == 200
    return answer.content.decode()


def sheet_part(body: str) -> str:
    start = body.index('id="sheet"')
    return body[start:body.index("</section>", start)]


def test_a_note_is_on_its_writers_sheet_and_on_no_other_page_or_api(client: Client) -> None:
    g = make_game(players=3, seed=5)
    page = write_note(client, g, 1, 0, "suspected", SECRET_NOTE)
    assert "Your note is saved. Only you can see it." in page
    mine = sheet_part(client.get(g.page(1)).content.decode())
    assert SECRET_NOTE in mine
    assert 'value="suspected" checked' in mine
    # The label says the mark in words (not by colour alone), tied to its field.
    assert "Suspected</label>" in mine and '<label for="note-0">Your note</label>' in mine
    for other in (0, 2):
        assert SECRET_NOTE not in client.get(g.page(other)).content.decode()
        assert SECRET_NOTE not in client.get(g.api(other)).content.decode()
    assert SECRET_NOTE not in client.get(g.api(1)).content.decode()


def test_no_email_to_anyone_carries_a_note(client: Client, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=5)
    for by in range(3):
        write_note(client, g, by, (by + 1) % 3, "suspected", f"{SECRET_NOTE} {by}")
    actor = g.actor_seat()
    with commit():
        state = g.refresh().state()
        seat_move(g.seats[actor], g.game.version, engine.legal_moves(state)[-1])
    assert mail.outbox
    for message in mail.outbox:
        assert SECRET_NOTE not in str(message.body)


def test_a_bad_note_is_refused_and_changes_nothing(client: Client) -> None:
    g = make_game(players=3, seed=5)
    assert "Choose another player" in write_note(client, g, 1, 1, "", "about me")
    assert "Choose another player" in write_note(client, g, 1, 7, "", "nobody")
    assert "Choose trusted, unsure or suspected." in write_note(client, g, 1, 0, "evil", "x")
    assert "at most 200 characters" in write_note(client, g, 1, 0, "", "x" * 201)
    assert not SeatNote.objects.exists()
    assert client.get(g.page(1) + "notes").status_code == 405


def find_action_game() -> tuple[GameWithLinks, Move]:
    """A game whose first seat to act can play an action card on another seat."""
    for seed in range(1, 40):
        g = make_game(players=3, seed=seed)
        state = g.game.state()
        for move in engine.legal_moves(state):
            if move.get("type") == "action" and move.get("target") not in (None, state.actor):
                return g, move
        Game.objects.filter(pk=g.game.pk).delete()
    raise AssertionError("no seed deals an action card to the first player")


def test_the_sheet_lists_the_public_actions_each_seat_took(client: Client) -> None:
    g, move = find_action_game()
    actor = g.actor_seat()
    seat_move(g.seats[actor], g.game.version, move)
    target = int(move["target"])
    watcher = next(n for n in range(3) if n not in (actor, target))
    sheet = sheet_part(client.get(g.page(watcher)).content.decode())
    row = sheet[sheet.index(f'id="sheet-{actor}"'):]
    row = row[:row.index("</div>")]
    assert "What this player did this round:" in row
    assert f"<li>Player{actor} " in row and f"Player{target}" in row  # who, against whom
    other_row = sheet[sheet.index(f'id="sheet-{target}"'):]
    assert "Nothing against anyone yet this round." in other_row[:other_row.index("</div>")]
    # The target reads it about themselves ("your"), the actor has no row of their own.
    theirs = sheet_part(client.get(g.page(target)).content.decode())
    assert f'id="sheet-{actor}"' in theirs and f'id="sheet-{target}"' not in theirs


def test_a_newcomer_in_the_seat_sees_none_of_the_leavers_notes(client: Client) -> None:
    g = make_game(players=3, seed=5)
    write_note(client, g, 1, 0, "trusted", SECRET_NOTE)
    Seat.objects.filter(pk=g.seats[1].pk).update(email="newcomer@example.com",
                                                  mailbox_key="")
    seat = Seat.objects.get(pk=g.seats[1].pk)
    seat.save()  # the mailbox key follows the address
    assert SECRET_NOTE not in client.get(g.page(1)).content.decode()


def test_the_owners_replay_shows_the_notes_after_the_game_and_no_one_elses(
        client: Client) -> None:
    g = make_game(players=3, seed=5)
    write_note(client, g, 1, 0, "suspected", SECRET_NOTE)
    assert client.get(g.page(1) + "replay/").status_code == 404  # not before the end
    Game.objects.filter(pk=g.game.pk).update(status=Game.Status.FINISHED)
    replay = client.get(g.page(1) + "replay/").content.decode()
    assert "Your private notes of round 1" in replay
    assert SECRET_NOTE in replay and "marked suspected" in replay
    for other in (0, 2):
        assert SECRET_NOTE not in client.get(g.page(other) + "replay/").content.decode()
    assert SECRET_NOTE not in client.get(f"/watch/{g.game.public_id}/replay/").content.decode()


def test_the_export_has_ones_own_notes_and_forget_me_erases_them(
        client: Client, commit: Any) -> None:
    g = make_game(players=3, seed=5)
    write_note(client, g, 1, 0, "suspected", SECRET_NOTE)
    write_note(client, g, 2, 0, "trusted", "Cy's own thought")
    mine = player_data("p1@example.com")["notes"]
    assert [(n["about"], n["mark"], n["text"]) for n in mine] == [
        (0, "suspected", SECRET_NOTE)]
    assert "Cy's own thought" not in str(player_data("p0@example.com"))
    with commit():
        forget_player("p1@example.com")
    assert not SeatNote.objects.filter(text=SECRET_NOTE).exists()
    assert SeatNote.objects.filter(text="Cy's own thought").exists()


def test_a_note_by_email(client: Client, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=5)
    me = g.actor_seat()  # the turn email has the reply address
    address = f"p{me}@example.com"
    about = (me + 1) % 3
    answer = send_reply(commit, reply_address(address),
                        f"note {about + 1} suspect broke my lamp", sender=address)
    assert answer is not None
    note = SeatNote.objects.get(seat=g.seats[me])
    assert (note.about, note.mark, note.text) == (about, "suspected", "broke my lamp")
    reply = [m for m in mail.outbox if address in m.to][-1]
    assert "Noted on your private sheet: only you can see it." in str(reply.body)
    assert "broke my lamp" in sheet_part(client.get(g.page(me)).content.decode())
    # Without a mark word the mark stays; in Italian words too.
    send_reply(commit, reply_address(address), f"nota {about + 1} ha rotto la lanterna",
               sender=address)
    note.refresh_from_db()
    assert (note.mark, note.text) == ("suspected", "ha rotto la lanterna")
    send_reply(commit, reply_address(address), "note me suspect", sender=address)
    assert "Say which player the note is about" in str(
        [m for m in mail.outbox if address in m.to][-1].body)
    # No one else's email ever carried it.
    assert not [m for m in mail.outbox if address not in m.to and "lamp" in str(m.body)]


def test_the_sheet_speaks_the_players_language(client: Client) -> None:
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[1].pk).update(language="it")
    write_note(client, g, 1, 0, "suspected", "ha rotto la lanterna")
    sheet = sheet_part(client.get(g.page(1)).content.decode())
    assert "I tuoi appunti privati" in sheet and "Sospettato</label>" in sheet
    assert "Player0, posto 1: round 1" in sheet
