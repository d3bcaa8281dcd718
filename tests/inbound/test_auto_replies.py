"""Auto-replies are never answered, in every language of games.inbound.core.auto_replies (the
site's five, French and the other languages of Europe's mail programs, the Nordic ones,
Japanese, Chinese, Korean) and the forms big mail programs use; a player's real reply
that merely looks like one is."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from games.game.core.game import Game
from games.inbound.core.auto_replies import LANGUAGES, automatic_subject
from games.inbound.core.inbound_mail import InboundMail
from tests.inbound_support import reply_address, send_reply
from tests.support import make_game

# What automatic replies write, by language: the subjects Outlook and Exchange, Lotus
# Notes and the other big mail programs send, and the vacation answers people write (Gmail
# and Thunderbird send the writer's own words). Every language of the list has some.
EXAMPLES: dict[str, list[str]] = {
    "en": ["[Auto-Reply] Re: Test game: your turn",
           "AUTO: Ann Lee is out of the office (returning 03/03/2026)", "I am on holiday",
           "Automatic reply: Test game: your turn", "Auto Response: your turn",
           "Out of Office: Re: Test game", "I'm away until Monday", "OOO until 3 March",
           "Away from my desk", "Vacation: Re: x", "[AutoReply] Re: x",
           "Out of Office AutoReply: Test game"],
    "it": ["Risposta automatica: Re: x", "Fuori sede fino al 3 marzo", "Sono in ferie",
           "Assente: Re: x", "R: Risposta automatica: Test game"],
    "nl": ["Automatisch antwoord: Test game", "Afwezig: Re: Test game", "Ik ben op vakantie",
           "Niet op kantoor tot maandag", "Afwezigheidsbericht"],
    "es": ["Respuesta automática: Re: Test game", "Fuera de la oficina",
           "Estoy de vacaciones", "Ausente: Re: x", "RV: Respuesta automatica: x"],
    "de": ["Ich bin nicht im Büro", "Abwesenheitsnotiz: Re: Test game",
           "AW: Automatische Antwort: Test", "Ich bin im Urlaub", "Urlaub bis 3.3.",
           "Ich bin außer Haus"],
    "fr": ["Absence du bureau", "Absence du bureau : Re: Test game : à vous de jouer",
           "Réponse automatique : Test game", "Réponse automatique : absent",
           "RE : Reponse automatique : x", "Message d'absence", "Je suis absente du bureau",
           "Hors du bureau jusqu'au 5 mars", "En congés jusqu'au 3 mars",
           "Absent du 3 au 10 mars", "Absente : Re: x", "Congés : Re: Test game",
           "Réponse automatique d'absence du bureau"],
    "pt": ["Resposta automática: Test game", "Fora do escritório", "Estou de férias",
           "Ausente: Re: x", "RES: Resposta automatica: x", "Férias até 3 de março"],
    "ca": ["Resposta automàtica: Test game", "Fora de l'oficina", "Sóc de vacances"],
    "pl": ["Odpowiedź automatyczna: Test game", "Automatyczna odpowiedź: Re: x",
           "Poza biurem", "Jestem na urlopie", "Nieobecność: Re: x",
           "Urlop do 3 marca"],
    "cs": ["Automatická odpověď: Test game", "Mimo kancelář", "Jsem na dovolené",
           "Nepřítomnost: Re: x"],
    "sk": ["Automatická odpoveď: Test game", "Mimo kancelárie", "Som na dovolenke"],
    "hu": ["Automatikus válasz: Test game", "Házon kívül", "Irodán kívül",
           "Szabadságon vagyok"],
    "ro": ["Răspuns automat: Test game", "În afara biroului", "Sunt în concediu"],
    "sl": ["Samodejni odgovor: Test game", "Odsoten: Re: x", "Sem na dopustu"],
    "hr": ["Automatski odgovor: Test game", "Izvan ureda", "Van kancelarije",
           "Odsutan: Re: x"],
    "et": ["Automaatne vastus: Test game", "Olen puhkusel"],
    "lv": ["Automātiskā atbilde: Test game", "Ārpus biroja"],
    "lt": ["Automatinis atsakymas: Test game", "Esu atostogose"],
    "el": ["Αυτόματη απάντηση: Test game", "Εκτός γραφείου", "ΑΠ: Αυτόματη απάντηση: x"],
    "bg": ["Автоматичен отговор: Test game", "Извън офиса"],
    "ru": ["Автоматический ответ: Test game", "Вне офиса", "Я в отпуске",
           "Отпуск до 3 марта", "Автоответ: Re: x"],
    "uk": ["Автоматична відповідь: Test game", "Поза офісом", "Я у відпустці"],
    "tr": ["Otomatik yanıt: Test game", "Otomatik Cevap: Re: x", "Ofis dışında",
           "İzindeyim"],
    "sv": ["Autosvar: Re: Test game: your turn", "Automatiskt svar: Re: x",
           "Frånvaro: Re: x", "Jag är på semester", "Inte på kontoret"],
    "da": ["Automatisk svar: Re: x", "Fraværende: Re: x", "Jeg er på ferie",
           "Ikke på kontoret"],
    "no": ["Automatisk svar: Test game", "Ute av kontoret", "Fravær: Re: x"],
    "fi": ["Automaattinen vastaus: Re: x", "Poissa 1.3.-5.3.", "Olen lomalla"],
    "is": ["Sjálfvirkt svar: Re: x", "Ég er í fríi", "Fjarverandi: Re: x"],
    "ja": ["自動応答: Test game", "不在通知: Re: x", "外出中のため返信が遅れます"],
    "zh": ["自动回复: Test game", "自動回覆: Test game", "自动答复: x"],
    "ko": ["자동 회신: Test game", "부재중입니다"],
}
A_PLAYERS = [
    "Re: your turn", "Re: Test game: your turn", "SV: Re: Test game: your turn",
    "VS: Re: Test game: your turn", "AW: Test game: your turn", "R: Test game: your turn",
    "Antw: Test game: your turn", "Re: Absent friends: your turn",
    "Re: Holiday game: your turn", "Re: Auto game: your turn", "Re: Away team: your turn",
    "Re: Office party: your turn", "Re: Autumn cup: your turn", "play 3 at 2,1",
    # Words of the list in a player's own subject.
    "RE : Test game : à vous de jouer", "TR: Test game", "Re: Absences répétées: à toi",
    "Re: Vacances à Nice: your turn", "Re: Congés payés: your turn",
    "Re: L'absence du roi: your turn", "RES: Test game: your turn",
    "Odp: Urlop w górach: your turn", "YNT: Test game: your turn",
    "Re: Bureau des absents: your turn",
]


def test_every_language_of_the_list_has_examples() -> None:
    assert set(EXAMPLES) == set(LANGUAGES)


@pytest.mark.parametrize("language", list(EXAMPLES))
def test_an_auto_replys_subject_is_known_in_each_language(language: str) -> None:
    assert [s for s in EXAMPLES[language] if not automatic_subject(s)] == []


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
    ("Absence du bureau", "pass 1"),
    ("Re: Test game: your turn", "Bonjour,\nJe suis absente du bureau jusqu'au 5 mars."),
    ("Re: Test game: your turn", "Dzień dobry,\nJestem na urlopie do 5 marca."),
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
    ("RE : Test game : à vous de jouer", "Désolé pour mon absence.\npass 1", "moved"),
    ("Re: Test game: your turn", "say Désolé pour mon absence du bureau hier", "talk"),
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
