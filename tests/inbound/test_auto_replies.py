"""Auto-replies are never answered, in the five languages, the Nordic ones and the forms
big mail programs use; a player's real reply that merely looks like one is (issue 34,
item 9)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from games.inbound.parse import automatic_subject
from games.models import Game, InboundMail
from tests.inbound_support import reply_address, send_reply
from tests.support import make_game

AUTOMATIC = [
    # The issue's own.
    "[Auto-Reply] Re: Test game: your turn",
    "AUTO: Ann Lee is out of the office (returning 03/03/2026)",
    "Autosvar: Re: Test game: your turn",
    "Ich bin nicht im Büro",
    "I am on holiday",
    # English and the big mail programs.
    "Automatic reply: Test game: your turn", "Auto Response: your turn",
    "Out of Office: Re: Test game", "I'm away until Monday", "OOO until 3 March",
    "Away from my desk", "Vacation: Re: x", "[AutoReply] Re: x",
    # Italian, Dutch, Spanish, German (and French).
    "Risposta automatica: Re: x", "Fuori sede fino al 3 marzo", "Sono in ferie",
    "Assente: Re: x", "Automatisch antwoord: Test game", "Afwezig: Re: Test game",
    "Ik ben op vakantie", "Niet op kantoor tot maandag",
    "Respuesta automática: Re: Test game", "Fuera de la oficina", "Estoy de vacaciones",
    "Ausente: Re: x", "Abwesenheitsnotiz: Re: Test game", "AW: Automatische Antwort: Test",
    "Ich bin im Urlaub", "Urlaub bis 3.3.", "Réponse automatique : absent",
    # Swedish, Danish, Norwegian, Finnish, Icelandic.
    "Automatiskt svar: Re: x", "Frånvaro: Re: x", "Jag är på semester",
    "Inte på kontoret", "Automatisk svar: Re: x", "Fraværende: Re: x", "Jeg er på ferie",
    "Ikke på kontoret", "Ute av kontoret", "Automaattinen vastaus: Re: x",
    "Poissa 1.3.-5.3.", "Olen lomalla", "Sjálfvirkt svar: Re: x", "Ég er í fríi",
    "Fjarverandi: Re: x",
]
A_PLAYERS = [
    "Re: your turn", "Re: Test game: your turn", "SV: Re: Test game: your turn",
    "VS: Re: Test game: your turn", "AW: Test game: your turn", "R: Test game: your turn",
    "Antw: Test game: your turn", "Re: Absent friends: your turn",
    "Re: Holiday game: your turn", "Re: Auto game: your turn", "Re: Away team: your turn",
    "Re: Office party: your turn", "Re: Autumn cup: your turn", "play 3 at 2,1",
]


@pytest.mark.parametrize("subject", AUTOMATIC)
def test_an_auto_replys_subject_is_known(subject: str) -> None:
    assert automatic_subject(subject), subject


@pytest.mark.parametrize("subject", A_PLAYERS)
def test_a_players_subject_is_not_taken_for_one(subject: str) -> None:
    assert not automatic_subject(subject), subject


def test_the_games_own_name_is_no_auto_reply() -> None:
    assert automatic_subject("Re: Out of office: your turn")
    assert not automatic_subject("Re: Out of office: your turn", game_name="Out of office")
    assert automatic_subject("Out of office: Re: Out of office: your turn", "Out of office")


def started(commit: Any) -> Any:
    with commit():
        return make_game(players=3, seed=1, start=True)


@pytest.mark.django_db
@pytest.mark.parametrize(("subject", "text"), [
    ("[Auto-Reply] Re: Test game: your turn", "pass 1"),
    ("AUTO: Ann Lee is out of the office", "pass 1"),
    ("Autosvar: Re: Test game: your turn", "Jeg er på ferie til mandag."),
    ("Re: Test game: your turn", "Ich bin nicht im Büro. Ab dem 3. März wieder erreichbar."),
    ("Re: Test game: your turn", "I am on holiday until Monday."),
    ("Re: Test game: your turn", "Hello,\nOlen lomalla 5.3. asti."),
])
def test_an_auto_reply_changes_nothing_and_gets_no_answer(
        commit: Any, subject: str, text: str) -> None:
    g = started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    result = send_reply(commit, address, text, subject=subject)
    assert result.outcome == "automatic" and g.refresh().version == 0
    assert mail.outbox == [] and InboundMail.objects.get().outcome == "automatic"


@pytest.mark.django_db
@pytest.mark.parametrize(("subject", "text", "outcome"), [
    ("Re: your turn", "pass 1", "moved"),
    ("Re: your turn", "play 3 at 2,1", None),  # made or refused: answered either way
    ("SV: Re: Test game: your turn", "pass 1", "moved"),
    ("Re: Test game: your turn", "say I am on holiday next week, sorry if I am slow", "talk"),
    ("Re: Test game: your turn", "I am on holiday next week\npass 1", "moved"),
])
def test_a_players_reply_that_looks_like_one_is_answered(
        commit: Any, subject: str, text: str, outcome: str | None) -> None:
    started(commit)
    address = reply_address("p0@example.com")
    mail.outbox.clear()
    result = send_reply(commit, address, text, subject=subject)
    assert result.outcome != "automatic" and (outcome is None or result.outcome == outcome)
    assert [m for m in mail.outbox if m.to == ["p0@example.com"]]  # the answer


@pytest.mark.django_db
def test_a_game_named_like_an_auto_reply_is_played_by_email(commit: Any) -> None:
    g = started(commit)
    Game.objects.filter(pk=g.game.pk).update(name="Out of office")
    result = send_reply(commit, reply_address("p0@example.com"), "pass 1",
                        subject="Re: Out of office: your turn")
    assert result.outcome == "moved" and g.refresh().version == 1
