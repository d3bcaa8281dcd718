"""A nudge (once per turn, after half of the time; one short email; the table sees it),
the late player's daily reminders, and the pause the table agrees on: through the page,
the API and the services, with time-machine; refusals change nothing."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import tasks
from games.clock.core.clock_setup import clock_settings
from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice
from games.mail.core.notifications import Notification
from tests.support import START, GameWithLinks, make_game

pytestmark = pytest.mark.django_db
HOUR = timedelta(hours=1)


def post(client: Client, url: str, data: dict[str, Any] | None = None) -> Any:
    return client.post(url, json.dumps(data or {}), content_type="application/json")


def snapshot(g: GameWithLinks) -> tuple[Any, ...]:
    game = g.refresh()
    return (game.deadline_at, game.nudged_version, game.pause, game.stops,
            GameNotice.objects.filter(game=game).count(), Notification.objects.count())


def test_a_nudge_after_half_the_time_once_per_turn(client: Client, clock: Any,
                                                   commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    before = snapshot(g)
    early = post(client, g.api(1) + "nudge")
    assert early.status_code == 409 and early.json()["error"]["code"] == "too_early"
    own = post(client, g.api(0) + "nudge")
    assert own.status_code == 409 and own.json()["error"]["code"] == "own_turn"
    assert snapshot(g) == before
    clock.move_to(START + 13 * HOUR)
    page = client.get(g.page(1)).content.decode()
    assert "Player0 is late: more than half of their time is gone." in page
    assert "Nudge Player0" in page
    sent = len(mail.outbox)
    with commit():
        nudged = post(client, g.api(1) + "nudge")
    assert nudged.status_code == 200 and nudged.json()["nudged"] == 0
    [letter] = mail.outbox[sent:]
    assert letter.to == ["p0@example.com"]
    assert letter.subject == "Test game: Player1 is waiting for your move"
    assert "more than half of your time is gone" in letter.body
    assert "Player0 was nudged by Player1." in client.get(g.page(2)).content.decode()
    before = snapshot(g)
    second = client.post(g.page(2) + "nudge", follow=True)
    assert "This turn has been nudged already." in second.content.decode()
    again = post(client, g.api(2) + "nudge")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_nudged"
    assert snapshot(g) == before and len(mail.outbox) == sent + 1


def test_a_late_player_gets_a_reminder_a_day_until_time_runs_out(clock: Any,
                                                                 commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True, clock=clock_settings(bank_hours=96))
    assert g.refresh().reminder_at == START + 48 * HOUR  # half of the bank: late
    reminded = []
    for hours in range(1, 96):
        clock.move_to(START + hours * HOUR)
        with commit():
            tasks.sweep_reminders()
        reminded += [hours for m in mail.outbox
                     if "reminder" in m.subject and m.to == ["p0@example.com"]]
        mail.outbox.clear()
    assert reminded == [48, 72, 84, 95]  # late: daily; then the game's 12 h and 1 h


def test_a_pause_the_table_agrees_on(client: Client, clock: Any, commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    deadline = g.refresh().deadline_at
    assert deadline == START + 24 * HOUR
    cases: list[tuple[dict[str, Any], str]] = [
        ({"action": "propose", "days": 30, "reason": "trip"}, "bad_pause"),
        ({"action": "propose", "days": 2, "reason": ""}, "bad_pause"),
        ({"action": "propose", "days": 2, "reason": ["trip"]}, "bad_pause"),
        ({"action": "wobble"}, "bad_pause")]
    for bad, code in cases:
        answer = post(client, g.api(1) + "pause", bad)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == code
    empty = client.post(g.api(1) + "pause", "", content_type="application/json")
    assert empty.status_code == 400 and empty.json()["error"]["code"] == "bad_request"
    agree_first = post(client, g.api(2) + "pause", {"action": "agree"})
    assert agree_first.status_code == 409
    assert g.refresh().pause == {} and g.refresh().stops == []
    clock.move_to(START + 4 * HOUR)
    proposed = post(client, g.api(1) + "pause", {"action": "propose", "days": 3,
                                                 "reason": "Easter trip"})
    assert proposed.status_code == 200 and proposed.json()["pause"]["state"] == "proposed"
    assert g.refresh().deadline_at == deadline  # not yet: one of three agreed
    page = client.get(g.page(0)).content.decode()
    assert "Player1 proposes a pause of 3 days: Easter trip" in page
    assert "Agree to the pause" in page
    clock.move_to(START + 6 * HOUR)
    with commit():
        agreed = client.post(g.page(0) + "pause", {"action": "agree"})
    assert agreed.status_code == 302
    game = g.refresh()
    assert game.deadline_at == deadline + timedelta(days=3)  # no clock ran during it
    second = post(client, g.api(1) + "pause", {"action": "propose", "days": 1,
                                               "reason": "again"})
    assert second.status_code == 409 and second.json()["error"]["code"] == "pause_used"
    clock.move_to(START + 30 * HOUR)  # a day into the pause: the proposer ends it
    ended = post(client, g.api(1) + "pause", {"action": "end"})
    assert ended.status_code == 200 and ended.json()["pause"] is None
    # 6 hours ran before the pause, 18 are left from now.
    assert g.refresh().deadline_at == START + 48 * HOUR
    assert "The pause is over; the clocks run again." in client.get(g.page(2)).content.decode()


def test_a_majority_ends_a_pause_the_proposer_does_not_end(client: Client, clock: Any,
                                                           commit: Any) -> None:
    with commit():
        g = make_game(players=3, seed=1, start=True)
    post(client, g.api(0) + "pause", {"action": "propose", "days": 2, "reason": "flu"})
    post(client, g.api(1) + "pause", {"action": "agree"})
    game = g.refresh()
    assert game.deadline_at == START + 72 * HOUR
    clock.move_to(START + 24 * HOUR)
    post(client, g.api(1) + "pause", {"action": "end"})
    assert g.refresh().deadline_at == START + 72 * HOUR  # one vote of three
    post(client, g.api(2) + "pause", {"action": "end"})
    assert g.refresh().deadline_at == START + 48 * HOUR
    assert Game.objects.get(pk=g.game.pk).stops[-1][1] == (START + 24 * HOUR).isoformat()
