"""Reports of table talk reach the moderators without flooding them (time-machine): the
reports of one line are one dispute (a later report adds its seat; the same seat again
changes nothing), a game's reports are emailed at most once an hour per moderator, the
ones within the hour gathered into one digest the beat sends after it, and the admin
shows how many seats reported a line and who held them then."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games import tasks
from games.game.core.game import Game
from games.game.core.talk_and_notices import Message
from games.mail.core.notifications import Notification
from games.moderation.core.moderation_rows import Dispute, TalkReport
from games.moderation.services.talk_reports import MAX_OPEN_REPORTS, report_talk
from games.moves.services import seat_services as services
from games.seats.core.history import remember_holder
from games.seats.core.seat import Seat
from tests.moderation_support import logged_in, make_moderator
from tests.support import START, GameWithLinks, make_game

pytestmark = pytest.mark.django_db
MODERATORS = ("mod@example.com", "mod2@example.com")
MINUTE = timedelta(minutes=1)


@pytest.fixture
def moderators(db: None) -> None:
    make_moderator()
    make_moderator("mod2", "mod2@example.com")


def say(g: GameWithLinks, number: int, text: str) -> Message:
    return services.post_message(Seat.objects.get(pk=g.seats[number].pk), text)


def report(client: Client, g: GameWithLinks, number: int, line: Message,
           reason: str = "") -> Any:
    return client.post(f"/play/{g.tokens[number]}/report",
                       {"message": line.pk, "reason": reason}, follow=True)


def report_emails(to: str) -> list[Any]:
    """The emails a moderator got about reports (a dispute filed, or a digest)."""
    return [m for m in mail.outbox if m.to == [to] and ("Dispute" in m.subject
                                                        or "reported" in m.subject)]


def digests() -> int:
    return int(tasks.sweep_report_digests())


def test_six_reports_of_one_line_by_two_seats_are_one_dispute_and_one_email_each(
        client: Client, clock: Any, commit: Any, moderators: None) -> None:
    g = make_game(players=3, seed=1, start=True)
    line = say(g, 1, "you are all hopeless")
    mail.outbox.clear()
    answers = []
    for n in range(6):
        clock.move_to(START + n * MINUTE)
        with commit():
            answers.append(report(client, g, (0, 2)[n % 2], line, reason=f"rude {n}"))
    assert [a.status_code for a in answers] == [200] * 6
    texts = [a.content.decode() for a in answers]
    assert all("the moderators will read the line" in t for t in texts[:2])
    assert all("You have reported this line already" in t for t in texts[2:])
    dispute = Dispute.objects.get()
    assert dispute.seat_id == g.seats[0].pk  # the first reporter filed it
    assert sorted(TalkReport.objects.filter(dispute=dispute)
                  .values_list("seat__number", "reason")) == [(0, "rude 0"), (2, "rude 1")]
    for to in MODERATORS:
        [email] = report_emails(to)
        assert "you are all hopeless" in email.body
    clock.move_to(START + 2 * timedelta(hours=1))
    with commit():
        assert digests() == 0  # a seat joining a dispute the moderators have sends nothing
    assert all(len(report_emails(to)) == 1 for to in MODERATORS)


def test_reports_within_the_hour_are_one_digest_sent_after_it(
        client: Client, clock: Any, commit: Any, moderators: None) -> None:
    g = make_game(players=3, seed=1, start=True)
    other = make_game(players=3, seed=2, start=True)
    lines = [say(g, 1, f"rude line {n}") for n in range(4)]
    mail.outbox.clear()
    with commit():
        report(client, g, 0, lines[0])  # 09:00: emailed at once
    assert all(len(report_emails(to)) == 1 for to in MODERATORS)
    for minutes, seat, line in [(10, 0, lines[1]), (20, 2, lines[2]), (30, 2, lines[1]),
                                (40, 2, lines[3])]:
        clock.move_to(START + minutes * MINUTE)
        with commit():
            report(client, g, seat, line)
    Dispute.objects.filter(talk=lines[3]).update(status=Dispute.Status.RESOLVED)
    # Another game's first report is that game's: emailed at once.
    with commit():
        report(client, other, 0, say(other, 1, "elsewhere"))
    assert all(len(report_emails(to)) == 2 for to in MODERATORS)
    clock.move_to(START + 59 * MINUTE)
    with commit():
        assert digests() == 0  # the hour since the email is not over
    clock.move_to(START + 60 * MINUTE)
    with commit():
        assert digests() == len(MODERATORS)
    for to in MODERATORS:
        *_, digest = report_emails(to)
        assert '2 more lines of table talk reported in "Test game"' in digest.subject
        assert "rude line 1" in digest.body and "rude line 2" in digest.body
        assert "rude line 3" not in digest.body  # settled before the digest left
        assert "2 players reported it." in digest.body and "1 player reported it." in digest.body
        assert f"/admin/games/game/{g.game.pk}/moderate/" in digest.body
    with commit():  # the beat again, or the task retried: nothing more
        assert digests() == 0
        assert digests() == 0
    assert Notification.objects.filter(kind=Notification.Kind.REPORT_DIGEST).count() == 2
    # A report within the hour after the digest waits for the next one.
    clock.move_to(START + 70 * MINUTE)
    with commit():
        report(client, g, 0, say(g, 2, "yet another"))
        assert digests() == 0
    assert all(len(report_emails(to)) == 3 for to in MODERATORS)
    clock.move_to(START + 120 * MINUTE)
    with commit():
        assert digests() == len(MODERATORS)
    assert all(len(report_emails(to)) == 4 for to in MODERATORS)


def test_a_seat_files_a_bounded_number_of_reports_but_may_always_join_one(
        commit: Any, moderators: None) -> None:
    g = make_game(players=3, seed=1, start=True)
    lines = [say(g, 1, f"line {n}") for n in range(MAX_OPEN_REPORTS + 1)]
    for line in lines[:MAX_OPEN_REPORTS]:
        assert report_talk(g.seats[0].pk, line.pk).outcome == "filed"
    with pytest.raises(Exception, match="reports waiting"):
        report_talk(g.seats[0].pk, lines[-1].pk)
    assert report_talk(g.seats[2].pk, lines[-1].pk).outcome == "filed"
    assert report_talk(g.seats[0].pk, lines[-1].pk).outcome == "joined"
    assert report_talk(g.seats[0].pk, lines[-1].pk).outcome == "already"
    assert Dispute.objects.count() == MAX_OPEN_REPORTS + 1


def test_the_admin_shows_how_many_seats_reported_a_line_and_who_held_them(
        client: Client, commit: Any, moderators: None) -> None:
    g = make_game(players=3, seed=1, start=True)
    line = say(g, 1, "a rude line")
    with commit():
        for seat in (2, 0, 2):
            report(client, g, seat, line)
    # Seat 2 changes hands after its report: the admin names who held it then.
    game = Game.objects.get(pk=g.game.pk)
    remember_holder(game, Seat.objects.get(pk=g.seats[2].pk))
    Seat.objects.filter(pk=g.seats[2].pk).update(player_name="Newcomer")
    dispute = Dispute.objects.get()
    moderator = logged_in(make_moderator("mod3", "mod3@example.com"))
    listing = moderator.get("/admin/games/dispute/").content.decode()
    assert '<td class="field-report_count">2</td>' in listing
    detail = moderator.get(f"/admin/games/dispute/{dispute.pk}/change/").content.decode()
    reported_by = detail.split('<ol class="reporters">', 1)[1].split("</ol>", 1)[0]
    assert "Player2 (seat 3," in reported_by and "Player0 (seat 1," in reported_by
    assert "Newcomer" not in reported_by
    page = moderator.get(f"/admin/games/game/{g.game.pk}/moderate/").content.decode()
    assert "Reported by 2 players:" in page and "Player2 (seat 3," in page
