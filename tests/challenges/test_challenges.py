"""Challenges (games.challenges) through their services: the challenged are emailed
without either side's address, the daily cap, refusing and blocking, accepting (a game
with every player's own seat, or a forming table for the seats left), expiry by the
beat, bad terms refused with nothing changed, and forgotten players."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import override_settings

from games import tasks
from games.challenges.core.challenge_rows import (
    Challenge,
    ChallengeBlock,
    Challenged,
    ChallengesClosed,
)
from games.challenges.core.challenge_terms import ChallengeError, read_terms
from games.challenges.services import challenge_blocks, challenge_lists, challenging
from games.game.core.game import Game
from games.home.services.export import export_player_data
from games.home.services.forget import forget_player
from games.mail.core.notifications import Notification
from games.people.core.home_links import home_link
from games.tables.core.table_rows import OpenTable
from games.tables.services import naming
from tests.support import own_link_emailed_to

pytestmark = pytest.mark.django_db
ANN, BOB, CY = "ann.secret@example.org", "bob.hidden@example.org", "cy.private@example.org"


@pytest.fixture
def people() -> None:
    """Three homes, each with a public name."""
    for address, name in ((ANN, "Ann"), (BOB, "Bob"), (CY, "Cy")):
        home_link(address)
        naming.choose_name(address, name)


def challenge(by: str = ANN, **terms: Any) -> Challenge:
    return challenging.create_challenge(by, read_terms({"to": "Bob", **terms}, language="en"))


def letters_to(address: str) -> list[str]:
    """The text and HTML of every email sent to `address`."""
    return [str(m.body) + "".join(str(part[0]) for part in getattr(m, "alternatives", []))
            for m in mail.outbox if address in m.to]


def nobody_else(address: str, others: list[str]) -> None:
    for text in letters_to(address):
        for other in others:
            assert other not in text


def test_the_challenged_is_emailed_the_terms_and_no_address(people: None,
                                                            commit: Any) -> None:
    with commit():
        made = challenge(ruleset="saboteur2", players=2, clock="bank_3_days", rated=True)
    assert made.status == Challenge.Status.OPEN and made.seats == 2
    [letter] = letters_to(BOB)
    assert "Ann challenges you" in letter and "A time bank of 3 days" in letter
    assert ANN not in letter and "ann.secret" not in letter
    assert home_link(BOB) in letter  # where Bob answers: his own home
    assert not letters_to(ANN)  # nothing to the challenger yet
    # The challenger's list names Bob by his public name only.
    sent = json.dumps(challenge_lists.challenges_json(ANN))
    assert "Bob" in sent and BOB not in sent and "bob.hidden" not in sent
    received = json.dumps(challenge_lists.challenges_json(BOB))
    assert "Ann" in received and ANN not in received


def test_accepting_makes_a_game_with_each_players_own_seat(people: None,
                                                         commit: Any) -> None:
    with commit():
        made = challenge(to=["Bob", "Cy"], clock="bank_weekends_off")
    assert made.seats == 3  # the challenger and the two named
    first = challenging.accept_challenge(BOB, made.pk)
    assert first.status == "open" and first.table is None
    assert not Game.objects.exists()
    mail.outbox.clear()
    with commit():
        last = challenging.accept_challenge(CY, made.pk)
    assert last.status == "accepted" and last.started and last.game
    game = Game.objects.get(public_id=last.game)
    assert game.status == Game.Status.ACTIVE and game.bank_hours == 72
    assert game.weekdays_off == [5, 6]
    seats = {seat.email: seat for seat in game.seats.all()}
    assert set(seats) == {ANN, BOB, CY}
    assert {seat.player_name for seat in seats.values()} == {"Ann", "Bob", "Cy"}
    for address in (ANN, BOB, CY):  # each by email their own link, and only theirs
        own = own_link_emailed_to(address)
        others = [a for a in (ANN, BOB, CY) if a != address]
        assert all(own not in text for other in others for text in letters_to(other))
        nobody_else(address, others)
    assert Challenge.objects.get(table__game=game).pk == made.pk


def test_seats_nobody_is_named_for_form_an_open_table(people: None, commit: Any) -> None:
    with commit():
        made = challenge(players=4, bots_fill=True)
        answered = challenging.accept_challenge(BOB, made.pk)
    assert answered.status == "accepted" and not answered.started
    assert answered.table is not None
    table = OpenTable.objects.get(pk=answered.table)
    assert table.status == OpenTable.Status.FORMING and table.seats == 4 and table.bots_fill
    assert table.members.count() == 2
    [letter] = letters_to(ANN)  # the challenger hears the table is forming
    assert "forming" in letter and BOB not in letter


def test_a_refusal_ends_the_challenge_and_tells_the_challenger(people: None,
                                                            commit: Any) -> None:
    with commit():
        made = challenge(to=["Bob", "Cy"])
        challenging.refuse_challenge(BOB, made.pk)
    made.refresh_from_db()
    assert made.status == Challenge.Status.REFUSED
    [letter] = letters_to(ANN)
    assert "Bob refused your challenge" in letter and BOB not in letter
    with pytest.raises(ChallengeError) as over:
        challenging.accept_challenge(CY, made.pk)
    assert over.value.status == 409
    # Challenged again later, Bob can be (no block).
    with commit():
        again = challenge()
    assert again.status == Challenge.Status.OPEN


def test_a_block_stops_every_further_challenge_until_unblocked(people: None,
                                                               commit: Any) -> None:
    with commit():
        made = challenge()
        challenging.refuse_challenge(BOB, made.pk, block=True)
    before = len(mail.outbox)
    with pytest.raises(ChallengeError) as blocked:
        challenge()
    # The answer does not tell a block from an unknown name or a closed door.
    with pytest.raises(ChallengeError) as unknown:
        challenge(to="Nobody")
    assert blocked.value.status == unknown.value.status == 404
    assert blocked.value.code == unknown.value.code == "cannot_challenge"
    assert len(mail.outbox) == before and Challenge.objects.count() == 1
    assert [b.name for b in challenge_blocks.blocks_of(BOB)] == ["Ann"]
    challenge_blocks.unblock(BOB, name="ann")  # by the name, in any capitals
    assert not ChallengeBlock.objects.exists()
    assert challenge().status == Challenge.Status.OPEN


def test_blocking_by_name_refuses_the_open_challenges_of_that_player(people: None,
                                                                     commit: Any) -> None:
    with commit():
        made = challenge()
        challenge_blocks.block_name(BOB, "Ann")
    made.refresh_from_db()
    assert made.status == Challenge.Status.REFUSED
    with pytest.raises(ChallengeError) as own:
        challenge_blocks.block_name(BOB, "Bob")
    assert own.value.status == 400


def test_a_player_who_takes_no_challenges_cannot_be_challenged(people: None) -> None:
    challenge_blocks.set_takes_challenges(BOB, takes=False)
    with pytest.raises(ChallengeError) as closed:
        challenge()
    assert closed.value.code == "cannot_challenge" and not Challenge.objects.exists()
    challenge_blocks.set_takes_challenges(BOB, takes=True)
    assert challenge().status == Challenge.Status.OPEN


@override_settings(CHALLENGES_PER_DAY=3)
def test_a_few_challenges_a_day_then_429_with_the_wait(people: None, clock: Any) -> None:
    challenge(to=["Bob", "Cy"])
    clock.shift(timedelta(hours=5))
    naming.choose_name("dee@example.org", "Dee")
    home_link("dee@example.org")
    challenge(to="Dee")
    with pytest.raises(ChallengeError) as capped:
        challenging.create_challenge(ANN, read_terms({"to": "Bob", "players": 3},
                                                     language="en"))
    assert capped.value.status == 429 and capped.value.code == "too_many_challenges"
    # The first challenge (two players) is a day old in 19 hours.
    assert capped.value.retry_after == 19 * 3600 + 1
    assert Challenge.objects.count() == 2
    clock.shift(timedelta(hours=19, seconds=2))
    naming.choose_name("eve@example.org", "Eve")
    home_link("eve@example.org")
    assert challenge(to="Eve").status == Challenge.Status.OPEN


def test_an_open_challenge_expires_after_its_days_by_the_beat(people: None, clock: Any,
                                                             commit: Any) -> None:
    with commit():
        made = challenge()
    clock.shift(timedelta(days=7) - timedelta(minutes=1))
    assert tasks.sweep_challenges() == 0
    clock.shift(timedelta(minutes=2))
    with pytest.raises(ChallengeError) as late:  # past its days, even before the sweep
        challenging.accept_challenge(BOB, made.pk)
    assert late.value.code == "challenge_over"
    with commit():
        assert tasks.sweep_challenges() == 1
    made.refresh_from_db()
    assert made.status == Challenge.Status.EXPIRED
    assert any("expired" in text for text in letters_to(ANN))
    assert tasks.sweep_challenges() == 0


@pytest.mark.parametrize(("terms", "field"), [
    ({"to": ""}, "to"), ({"to": []}, "to"), ({"to": ["Bob", "bob"]}, "to"),
    ({"to": "Bob", "players": 11}, "players"), ({"to": "Bob", "players": "3-5"}, "players"),
    ({"to": ["Bob", "Cy"], "players": 2, "ruleset": "saboteur2"}, "players"),
    ({"to": "Bob", "clock": "fortnight"}, "clock"),
    ({"to": "Bob", "clock": "day", "hours_per_move": 5}, "hours_per_move"),
    ({"to": "Bob", "rated": "yes"}, "rated"), ({"to": 7}, "to"),
    ({"to": "Bob", "language": "xx"}, "language"), ({"to": "Bob\x00"}, "to"),
])
def test_bad_terms_are_400_naming_the_field(people: None, terms: dict[str, Any],
                                            field: str) -> None:
    with pytest.raises(ChallengeError) as bad:
        read_terms(terms, language="en")
    assert bad.value.status == 400 and bad.value.field == field and bad.value.message


def test_who_cannot_challenge(people: None) -> None:
    home_link("nameless@example.org")
    with pytest.raises(ChallengeError) as nameless:
        challenge(by="nameless@example.org")
    assert nameless.value.code == "no_name" and nameless.value.status == 409
    with pytest.raises(ChallengeError) as self:
        challenge(to="Ann")
    assert self.value.status == 400
    challenge()
    with pytest.raises(ChallengeError) as twice:
        challenge()
    assert twice.value.code == "already_challenged"
    # Answering another's challenge is answering no challenge at all.
    made = Challenge.objects.get()
    with pytest.raises(ChallengeError) as other:
        challenging.accept_challenge(CY, made.pk)
    assert other.value.status == 404
    assert Challenged.objects.get().answer == ""


def test_a_forgotten_player_cannot_be_challenged_and_leaves_nothing(people: None,
                                                                    commit: Any) -> None:
    with commit():
        sent = challenge()
        received = challenging.create_challenge(BOB, read_terms({"to": "Cy"},
                                                                language="en"))
        challenge_blocks.block_name(ANN, "Cy")
        challenge_blocks.set_takes_challenges(ANN, takes=False)
    exported = export_player_data(ANN)
    assert [row["challenge"] for row in exported["challenges_sent"]] == [sent.pk]
    assert exported["challengers_blocked"] and exported["takes_challenges"] is False
    assert BOB not in json.dumps(exported) and "Cy" not in json.dumps(exported)
    forget_player(BOB)
    assert not Challenge.objects.filter(pk__in=[sent.pk, received.pk]).exists()
    assert not Challenged.objects.exists()
    with pytest.raises(ChallengeError) as gone:
        challenge()  # his public name went with him
    assert gone.value.code == "cannot_challenge"
    forget_player(ANN)
    assert not ChallengeBlock.objects.exists() and not ChallengesClosed.objects.exists()


def test_a_forgotten_address_behind_a_name_is_never_emailed(people: None) -> None:
    """A name whose home's address asked to be forgotten (its name kept by a race) is
    answered like any name nobody takes challenges under."""
    from games.people.core.player_data import remember_forgotten

    remember_forgotten(BOB)
    with pytest.raises(ChallengeError) as gone:
        challenge()
    assert gone.value.code == "cannot_challenge"
    assert not Notification.objects.filter(kind=Notification.Kind.CHALLENGE).exists()
