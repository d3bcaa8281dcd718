"""No English sentence in a translated email (issue 39, item 8): every Italian and German
turn email ended with an English pointer ("README, “Fairness and the game record”").
A whole game is played with an Italian, a Dutch, a Spanish and a German seat, turns
timing out, reminders and digests going out, a reply by email answered, a dispute filed
and resolved, the links asked for, a standby volunteer offered a seat, a German host
setting a game up; every email sent in those languages (subject, text and HTML) is
searched for a run of English words."""

from __future__ import annotations

import html
import random
import re
from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client, override_settings

from games import tasks
from games.game.core.game import EmailMode, Game
from games.handover.services import opening
from games.home.services import lost_links
from games.mail.core.notifications import Notification
from games.moderation.services.dispute_acts import file_dispute, resolve_dispute
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.email_support import play_one
from tests.handover_support import sign_up
from tests.inbound_support import reply_address, send_reply
from tests.moderation_support import make_moderator
from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db
START = datetime.fromisoformat("2026-03-02 09:00:00+00:00")
LANGUAGES = {"gia@esempio.it": "it", "joke@voorbeeld.nl": "nl", "lucia@ejemplo.es": "es",
             "ute@beispiel.de": "de"}
# Words of English that none of it, nl, es, de uses on its own ("is", "in", "of", "hand",
# "was", "will", "link", "email", "round" and "deadline" are words there too).
ENGLISH = re.compile(
    r"\b(the|your|you|with|this|that|what|when|which|would|have|has|been|please|here|"
    r"there|game|games|move|moves|turn|player|players|only|from|and|to|it|are|for|not|"
    r"can|by|at|on|if|or|be|we|our|its|their|they|them|card|cards|seat|who|how|yet)\b",
    re.IGNORECASE)
URL = re.compile(r"https?://\S+|\S+@\S+")


def english_runs(text: str) -> list[str]:
    """Lines with three English words or more (a name or a code may bring one or two)."""
    found = []
    for line in URL.sub(" ", text).splitlines():
        if len(ENGLISH.findall(line)) >= 3:
            found.append(line.strip())
    return found


def plain(markup: str) -> str:
    body = re.sub(r"(?s)<(style|head)\b.*?</\1>", " ", markup)
    return html.unescape(re.sub(r"<[^>]+>", "\n", body))


def the_table() -> GameWithLinks:
    players = [game_setup.PlayerSpec(name=name, email=email, language=language,
                                   time_zone="Europe/Rome")
               for (email, language), name in zip(LANGUAGES.items(),
                                                  ("Gia", "Joke", "Lucía", "Ute"), strict=True)]
    created = game_setup.create_game(name="Tavola", players=players, seed=5)
    game = created.game
    seats = list(Seat.objects.filter(game=game).order_by("number"))
    return GameWithLinks(game=game, seats=seats, tokens=[])


@override_settings(DIGEST_HOUR=0)
def test_no_translated_email_says_a_sentence_in_english(commit: Any) -> None:
    rng = random.Random(5)
    with time_machine.travel(START, tick=False) as clock:
        with commit():
            g = the_table()
        Seat.objects.filter(pk=g.seats[3].pk).update(email_mode=EmailMode.DAILY_DIGEST)
        with commit():
            game_setup.start_game(g.game.pk)
        moderator = make_moderator()
        for step in range(1, 1000):
            game = g.refresh()
            if game.status != Game.Status.ACTIVE:
                break
            assert game.deadline_at is not None
            if step == 3:  # a reply by email, answered in the seat's language
                actor = g.seats[game.actor or 0]
                send_reply(commit, reply_address(actor.email), "gioca 99 a 1,1",
                           sender=actor.email)
            if step == 5:
                with commit():
                    dispute = file_dispute(g.seats[1].pk, text="?")
                with commit():
                    resolve_dispute(dispute.pk, moderator=moderator, outcome="not_upheld",
                                    note="ok")
            if step % 37:
                clock.shift(timedelta(minutes=30))
                play_one(g, rng, commit)
                continue
            for hours in (12, 1, 0):  # this turn runs out: reminders, digests, timeout
                clock.move_to(game.deadline_at - timedelta(hours=hours))
                for sweep in (tasks.sweep_reminders, tasks.sweep_digests,
                              tasks.sweep_deadlines):
                    with commit():
                        sweep()
        assert g.refresh().status == Game.Status.FINISHED
        with commit():
            lost_links.ask_for_links("ute@beispiel.de", "203.0.113.9")
    # A volunteer on standby in Italian, offered a seat of a game going on.
    italian = Client(HTTP_ACCEPT_LANGUAGE="it")  # she signs up on the page in Italian
    sign_up(italian, commit, "vera@esempio.it", "Vera", languages=("it",))
    other = game_setup.create_game(name="Altra", players=[
        game_setup.PlayerSpec(name=n, email=f"{n.lower()}@esempio.it", language="it")
        for n in ("Pia", "Teo", "Ada")], seed=6, start=True).game
    with commit():
        opening.open_seat(Seat.objects.get(game=other, number=1).pk)
    # A German host sets up a game on the page in German: the confirmation, then the
    # invitations in the players' language (German, the page's).
    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    with commit():
        german.post("/new/", {"host_email": "wirt@beispiel.de", "name": "Runde",
                              "ruleset": "base", "hours_per_move": 24, "seating": "order",
                              "start": "accepted", "time_zone": "Europe/Berlin",
                              "language": "de", "player_0_name": "Ute",
                              "player_0_email": "ute@beispiel.de", "player_1_name": "Max",
                              "player_1_email": "max@beispiel.de", "bots": 1})
    kinds: dict[str, set[str]] = {}
    wrong = []
    for message in mail.outbox:
        note = Notification.objects.filter(
            message_id=message.extra_headers.get("Message-ID", "")).first()
        language = (note.params.get("language") if note else None) or next(
            (LANGUAGES.get(to) for to in message.to if to in LANGUAGES), None)
        if message.to == ["vera@esempio.it"]:
            language = "it"
        if message.to == ["wirt@beispiel.de"]:
            language = "de"
        if language is None or language == "en":
            continue
        kinds.setdefault(language, set()).add(note.kind if note else "?")
        # An answer's subject is the player's own ("Re: ..."), whatever its language.
        subject = "" if note and note.kind == "answer" else message.subject
        markup = str(message.alternatives[0][0])  # type: ignore[union-attr]
        text = "\n".join([str(subject), str(message.body), plain(markup)])
        wrong += [(language, note.kind if note else "?", line) for line in english_runs(text)]
    assert wrong == []
    every = {"invitation", "turn", "reminder", "missed", "round_end", "game_end", "answer",
             "dispute_done", "links"}
    assert every <= set().union(*kinds.values()), kinds
    assert {"standby", "seat_offer"} <= kinds["it"], kinds["it"]
    assert {"digest", "confirm_setup"} <= kinds["de"], kinds["de"]
