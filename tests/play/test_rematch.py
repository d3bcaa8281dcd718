""""Again, same table" (games.setup.services.rematch): from the proposal on a finished seat page to
the rematch's first move."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import engine
from games.game.core.game import Game, Move
from games.handover.core.handover_rows import OpenSeat
from games.people.core.mailboxes import mailbox_hash
from games.seats.core.invitations import Invitation
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from games.setup.services.rematch import propose_rematch
from tests.email_support import dig
from tests.support import GameWithLinks, make_game, move_for, seat_move, token_of

EMAILS = ["ann@example.org", "bo@example.org", "cy@example.org"]

# Each plays a whole game to its end first: not in `run.py test --quick`.
pytestmark = pytest.mark.slow


def finished_table(*, bot: bool = True) -> GameWithLinks:
    """Three people and a bot play a base game to its end (no emails: none is needed)."""
    players = [game_setup.PlayerSpec(name=e.split("@")[0].title(), email=e, language="it"
                                   if e.startswith("cy") else "en") for e in EMAILS]
    if bot:
        players.append(game_setup.bot_player("Bert"))
    made = game_setup.create_game(name="Friday", players=players, seed=5, start=True,
                                spectators_allowed=True, hours_per_move=12)
    seats = [seat for seat, _link in made.seats]
    table = GameWithLinks(game=made.game, seats=seats,
                          tokens=[token_of(link_for(s)) if not s.is_bot else "" for s in seats])
    play_to_the_end(made.game)
    assert table.refresh().status == Game.Status.FINISHED
    return table


def play_to_the_end(game: Game, limit: int = 3000) -> None:
    rng = random.Random(3)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = game.state()
        assert state.actor is not None
        seat = Seat.objects.get(game=game, number=state.actor)
        if seat.is_bot:
            move_for(game.pk, game.version, {}, actor_kind="bot")
        else:
            seat_move(seat, game.version, dig(engine.legal_moves(state), rng))
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_a_rematch_from_the_proposal_to_its_first_move(client: Client, commit: Any) -> None:
    table = finished_table()
    old = table.refresh()
    page = client.get(table.page(1)).content.decode()
    assert "Play again, same table" in page
    mail.outbox.clear()
    with commit():
        answer = client.post(table.page(1) + "rematch")
    assert answer.status_code == 302
    rematch = Game.objects.get(rematch_of=old)
    # Same rules, options and pace; a new deal; the seats moved on by one, bots stay bots.
    assert (rematch.ruleset, rematch.options, rematch.hours_per_move,
            rematch.spectators_allowed) == (old.ruleset, old.options, 12, True)
    assert rematch.seed != old.seed and rematch.commitment != old.commitment
    seats = list(rematch.seats.order_by("number"))
    assert [(s.player_name, s.email, s.is_bot) for s in seats] == [
        ("Bert", "", True), ("Ann", EMAILS[0], False), ("Bo", EMAILS[1], False),
        ("Cy", EMAILS[2], False)]
    assert seats[3].language == "it"  # each player keeps their language
    # The proposer (Bo) has accepted; the others are invited, counted with Bo as host.
    assert seats[2].accepted and not seats[1].accepted
    assert rematch.status == Game.Status.SETUP
    counted = Invitation.objects.filter(game=rematch)
    assert sorted(counted.values_list("recipient_hash", flat=True)) == sorted(
        mailbox_hash(e) for e in (EMAILS[0], EMAILS[2]))
    assert set(counted.values_list("host_hash", flat=True)) == {mailbox_hash(EMAILS[1])}
    assert "You are invited to play Saboteur by email" in [
        m.subject for m in mail.outbox if m.to == [EMAILS[0]]]
    assert "Un invito a giocare a Saboteur per email" in [
        m.subject for m in mail.outbox if m.to == [EMAILS[2]]]
    # Nobody's own link to the rematch is on a page: each is in its player's email.
    own = {s.email: f"/play/{token_of(link_for(s))}/" for s in seats if not s.is_bot}
    for email, path in own.items():
        assert any(path in str(m.body) for m in mail.outbox if m.to == [email]), email
    new_links = set(own.values())
    english = ("This table plays again", "1 of 3 players have accepted")
    italian = ("Questo tavolo gioca di nuovo", "Hanno accettato in 1 su 3")  # Cy's page
    for number, words in enumerate([english, english, italian]):
        old_page = client.get(table.page(number)).content.decode()
        assert all(word in old_page for word in words), number
        assert not any(link in old_page for link in new_links)
    replay = client.get(table.page(0) + "replay/").content.decode()
    assert "This table plays again" in replay and f"/watch/{rematch.public_id}/" in replay
    # Proposing again, from any seat, gives the same rematch.
    with commit():
        client.post(table.page(0) + "rematch")
    assert propose_rematch(table.seats[2].pk).game == rematch
    assert Game.objects.filter(rematch_of=old).count() == 1
    before = client.get(own[EMAILS[0]]).content.decode()
    assert "This game is a rematch of" in before
    assert not any(path in before for email, path in own.items() if email != EMAILS[0])
    # The others accept through their own links; it starts when everyone has.
    for email in (EMAILS[0], EMAILS[2]):
        with commit():
            assert client.post(own[email] + "accept").status_code == 302
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.ACTIVE
    assert "This game is a rematch of" in client.get(own[EMAILS[0]]).content.decode()
    # The first move: seat 0 is the bot's now, and it played as the game started; then
    # the person to act plays theirs.
    rematch.refresh_from_db()
    first = Move.objects.get(game=rematch, number=1)
    assert (first.actor_kind, first.seat_number) == (Move.Actor.BOT, 0)
    state = rematch.state()
    assert state.actor is not None
    actor = Seat.objects.get(game=rematch, number=state.actor)
    assert not actor.is_bot
    moved = seat_move(actor, rematch.version, engine.legal_moves(state)[0])
    assert moved.version == rematch.version + 1


@pytest.mark.django_db
def test_no_rematch_before_the_end_nor_beyond_the_caps(client: Client, commit: Any,
                                                       settings: Any) -> None:
    running = make_game()
    with commit():
        answer = client.post(running.page(0) + "rematch", follow=True)
    assert "A rematch can be proposed once the game is over." in answer.content.decode()
    assert "Play again, same table" not in client.get(running.page(0)).content.decode()
    assert not Game.objects.filter(rematch_of=running.game).exists()
    table = finished_table(bot=False)
    settings.SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY = 0
    with commit():
        answer = client.post(table.page(0) + "rematch", follow=True)
    assert "has been invited as often today" in answer.content.decode()
    assert not Game.objects.filter(rematch_of=table.game).exists()
    assert client.get(table.page(0) + "rematch").status_code == 405


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgres
def test_proposals_at_once_make_one_rematch() -> None:
    """Real threads, real row locks: only meaningful on PostgreSQL."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL): SQLite has no row locks")
    table = finished_table()
    barrier = threading.Barrier(3)
    made: list[int] = []

    def propose(number: int) -> None:
        try:
            barrier.wait()
            made.append(propose_rematch(table.seats[number].pk).game.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=propose, args=(n,)) for n in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 3 and len(set(made)) == 1
    assert Game.objects.filter(rematch_of=table.game).count() == 1


@pytest.mark.django_db
def test_a_player_who_left_the_table_is_not_invited_again(client: Client,
                                                          commit: Any) -> None:
    table = finished_table(bot=False)
    # Ann left during the game and nobody took her seat before it ended.
    OpenSeat.objects.create(game=table.game, seat=table.seats[0], reason="left",
                            outcome=OpenSeat.Outcome.CLOSED, left_name="Ann",
                            version=3, closed_at=table.game.updated_at)
    mail.outbox.clear()
    with commit():
        client.post(table.page(1) + "rematch")
    rematch = Game.objects.get(rematch_of=table.game)
    assert [(s.player_name, s.is_bot) for s in rematch.seats.order_by("number")] == [
        ("Cy", False), ("Ann", True), ("Bo", False)]
    assert not [m for m in mail.outbox if m.to == [EMAILS[0]] and "invited" in m.subject]
    assert [m for m in mail.outbox if m.to == [EMAILS[2]] and "invito" in m.subject]
