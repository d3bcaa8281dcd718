"""/me/ (the home link by email), settings for every game at once, the home link in every
email, and no home link anywhere but its owner's."""

from __future__ import annotations

import logging
import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.game.core.game import EmailMode, Game
from games.seats.core.seat import Seat
from tests.home.support import ANN, anns_games, table, token_of

pytestmark = pytest.mark.django_db
HOME = re.compile(r"https?://[^\s\"<>]+?/me/([A-Za-z0-9_-]{43})/")


def homes_in(text: str) -> set[str]:
    return set(HOME.findall(text))


def bodies(message: Any) -> str:
    return "\n".join([str(message.body), *(str(a[0]) for a in message.alternatives)])


def test_me_emails_the_home_link_and_answers_the_same_for_anyone(
        client: Client, commit: Any) -> None:
    games = anns_games()
    assert "Email me my home link" in client.get("/me/").content.decode()
    mail.outbox.clear()
    with commit():
        known = client.post("/me/", {"email": "Ann@Example.org"})
    [letter] = [m for m in mail.outbox if "private links" in str(m.subject)]
    assert letter.to == ["ann@example.org"]
    assert homes_in(bodies(letter)) == {games.token}
    assert "/play/" in letter.body  # the seats' own links come along
    mail.outbox.clear()
    with commit():
        unknown = client.post("/me/", {"email": "nobody@example.org"})
    # An address that plays nowhere gets a link that confirms it (games.home.services.welcome),
    # never a home link nor anyone's seat.
    [welcome] = [m for m in mail.outbox if m.to == ["nobody@example.org"]]
    assert "/me/new/" in welcome.body and not homes_in(bodies(welcome))
    assert "/play/" not in welcome.body
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == "/me/"
    # Both answers, word for word the same, wait on the page.
    assert client.get("/me/").content.decode().count("We are emailing this address") == 2


@override_settings(RATE_LIMITS={"links_client": [3, 3600]})
def test_me_is_rate_limited_like_the_lost_links_form(client: Client) -> None:
    answers = [client.post("/me/", {"email": f"x{n}@x.org"}).status_code for n in range(4)]
    assert answers == [302, 302, 302, 429]


@override_settings(RATE_LIMITS={"links_address": [2, 86400]})
def test_me_is_limited_per_asked_address_too(client: Client, commit: Any) -> None:
    anns_games()
    mail.outbox.clear()
    with commit():
        answers = [client.post("/me/", {"email": "ann@example.org"}).status_code
                   for _ in range(3)]
    # The page answers the same whatever happens behind it: the task counts the mailbox
    # (one links email an hour in any case), and past the limit plans nothing.
    assert answers == [302, 302, 302]
    assert len([m for m in mail.outbox if "private links" in str(m.subject)]) == 1
    from games.home.services.welcome import home_email
    assert home_email("ann@example.org", "en") == "none"


def test_me_refuses_a_get_that_changes_anything(client: Client) -> None:
    assert client.get("/me/?email=ann@example.org").status_code == 200
    assert not mail.outbox


def test_language_zone_and_emails_are_set_for_every_game_at_once(client: Client) -> None:
    games = anns_games()
    client.post(f"/me/{games.token}/preferences", {"language": "de", "time_zone": "Europe/Berlin"})
    client.post(f"/me/{games.token}/emails", {"email_mode": EmailMode.DAILY_DIGEST})
    mine = Seat.objects.filter(email=ANN).exclude(game=games.over)
    assert {(s.language, s.time_zone, s.email_mode) for s in mine} == {
        ("de", "Europe/Berlin", EmailMode.DAILY_DIGEST)}
    assert mine.count() == 3
    others = Seat.objects.exclude(email=ANN)
    assert set(others.values_list("language", flat=True)) == {"en"}
    from games.setup.core.player_defaults import default_preferences
    chosen = default_preferences(ANN)
    assert chosen is not None and (chosen.language, chosen.time_zone) == ("de", "Europe/Berlin")
    # A game's own page can still differ afterwards.
    seat = mine.get(game=games.soon)
    from games.seats.core.links import link_for
    own = link_for(seat).split("/play/")[1].rstrip("/")
    client.post(f"/play/{own}/preferences", {"language": "it", "time_zone": "Europe/Rome"})
    assert Seat.objects.get(pk=seat.pk).language == "it"
    assert Seat.objects.get(email=ANN, game=games.later).language == "de"


def saved_says(client: Client, path: str, data: dict[str, str]) -> str:
    """The message the home shows after a settings form is saved."""
    body = client.post(path, data, follow=True).content.decode()
    found = re.search(r'<li class="notice [^"]*">(.*?)</li>', body, re.S)
    assert found is not None, body[:2000]
    return " ".join(found.group(1).split())


def test_saving_a_setting_says_in_how_many_games_going_on_in_words(client: Client) -> None:
    """"Saved for all your games (0)." for an address with no game going on (where an
    email setting changed nothing): the count in words, each language's plural, and
    what a setting with no game going on does."""
    games = anns_games()  # three games going on, one finished
    home = f"/me/{games.token}/"
    assert saved_says(client, home + "emails", {"email_mode": EmailMode.EACH_TURN}) == (
        "Saved for your 3 games going on.")
    Game.objects.filter(pk__in=[games.soon.pk, games.later.pk]).update(
        status=Game.Status.FINISHED)
    assert saved_says(client, home + "quiet", {"quiet_from": "", "quiet_to": ""}) == (
        "Saved for your game going on.")
    assert saved_says(client, home + "preferences", {"language": "de",
                                                     "time_zone": "Europe/Berlin"}) == (
        "Gespeichert für deine laufende Partie und die Partien, denen du ab jetzt beitrittst.")
    Game.objects.filter(pk=games.waiting.pk).update(status=Game.Status.FINISHED)
    said = saved_says(client, home + "preferences", {"language": "en", "time_zone": "UTC"})
    assert said == ("Saved: the games you join from now on start with this language and "
                    "time zone.")
    said = saved_says(client, home + "emails", {"email_mode": EmailMode.DAILY_DIGEST})
    assert said == ("Nothing was changed: this setting applies to the games going on, and "
                    "you have none.")
    assert "(0)" not in said


def test_bad_settings_change_nothing(client: Client) -> None:
    games = anns_games()
    client.post(f"/me/{games.token}/preferences", {"language": "xx", "time_zone": "Nowhere"})
    client.post(f"/me/{games.token}/emails", {"email_mode": "spam"})
    assert set(Seat.objects.filter(email=ANN).values_list("language", "email_mode")) == {
        ("en", EmailMode.EACH_TURN)}


def test_a_vacation_for_all_games_takes_each_games_budget(client: Client) -> None:
    games = anns_games()
    Seat.objects.filter(email=ANN, game=games.later).update(vacation_left=timedelta(hours=10))
    client.post(f"/me/{games.token}/vacation", {"action": "take", "hours": "24"})
    away = dict(Seat.objects.filter(email=ANN).values_list("game__name", "vacation_until"))
    assert away["Soon"] is not None and away["Waiting"] is not None
    assert away["Later"] is None  # its budget is smaller than a day
    assert away["Over"] is None
    client.post(f"/me/{games.token}/vacation", {"action": "end"})
    assert not Seat.objects.filter(email=ANN, vacation_until__isnull=False).exists()


def test_settings_need_a_post_with_the_home_link(client: Client) -> None:
    games = anns_games()
    assert client.get(f"/me/{games.token}/emails").status_code == 405
    assert client.post("/me/" + "b" * 43 + "/emails", {"email_mode": "digest"}).status_code == 404


def test_every_email_a_player_gets_links_to_their_own_home_only(
        client: Client, commit: Any, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    mail.outbox.clear()
    with commit():
        game = table("Mailed", "host@example.com", ann_to_act=False)
        Game.objects.filter(pk=game.pk).update(hours_per_move=1)
    with commit():
        client.post("/me/", {"email": ANN})
    assert mail.outbox
    for message in mail.outbox:
        [address] = message.to
        found = homes_in(bodies(message))
        from games.people.core.home_links import home_link
        assert found == {token_of(home_link(address))}, message.subject
    # No page of another player and no log line carries a home token.
    anns = token_of(home_link(ANN))
    for seat in Seat.objects.filter(game=game).exclude(email=ANN):
        from games.seats.core.links import link_for
        page = client.get(link_for(seat).split("127.0.0.1:8000", 1)[-1])
        assert anns not in page.content.decode()
    client.get(f"/me/{anns}/")
    client.get(f"/api/me/{anns}/")
    assert anns not in caplog.text


def test_what_the_home_chose_is_the_default_of_the_next_game_set_up(client: Client) -> None:
    from games.setup.core.player_defaults import seat_language_and_zone

    games = anns_games()
    client.post(f"/me/{games.token}/preferences", {"language": "nl",
                                                   "time_zone": "Europe/Amsterdam"})
    assert seat_language_and_zone("ANN@example.org", game_language="it",
                                  game_time_zone="Europe/Rome") == ("nl", "Europe/Amsterdam")
    # Asked for at setup, a seat's own choice still comes first; others keep the game's.
    assert seat_language_and_zone(ANN, language="es", game_language="it") == (
        "es", "Europe/Amsterdam")
    assert seat_language_and_zone("zoe@example.org", game_language="it") == ("it", "UTC")


def test_me_does_the_same_work_whatever_the_address(client: Client, commit: Any) -> None:
    """Issue 34, item 5: the answer must not tell by its time whether an address plays
    here. The request runs the same statements for a player and for a stranger (none
    that looks the address up) and queues the same task; the worker does the rest."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.support import queued_tasks

    anns_games()
    mail.outbox.clear()
    work: list[tuple[int, list[str], list[str]]] = []
    for address in (ANN, "stranger@example.org"):
        with CaptureQueriesContext(connection) as captured, commit(worker=False):
            answer = client.post("/me/", {"email": address})
        work.append((answer.status_code, [q["sql"] for q in captured],
                     [name for name, _args, _kwargs in queued_tasks()]))
    assert work[0] == work[1] == (302, work[0][1], ["games.tasks.plan_home_email"])
    assert not any("games_seat" in sql for sql in work[0][1])
    assert not mail.outbox  # nothing was looked up, nothing sent, before the answer
    mail.outbox.clear()
    with commit():  # and now the worker
        for address in (ANN, "stranger@example.org"):
            client.post("/me/", {"email": address})
    assert [m.to for m in mail.outbox if "private links" in m.subject] == [[ANN]]
