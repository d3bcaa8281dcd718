"""A reported line is credited to whoever wrote it, not to whoever holds the seat now:
after Uma left and Wes took her seat from the standby list, a report of the line Uma wrote
before shows "Uma" on the admin's dispute page, the game's moderation page and the
moderators' email, and Wes's later line shows "Wes"; every place that names a line's
writer or a move's maker (the talk and moves lists, the undo's confirmation, the replay,
the seat page, the players' data) names who held the seat then. Moderators read times in
the site's zone (TIME_ZONE), written as the pages write dates, never as ISO text; a player
forgotten since is "a former player" there too."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone, translation

from games.game.core.talk_and_notices import Message
from games.home.services.export import export_player_data
from games.home.services.forget import forget_player
from games.moderation.core.moderation_rows import Dispute
from games.moderation.services.dispute_acts import resolve_dispute
from games.moves.services import seat_services as services
from games.records.services.replay_steps import made_by, step_context, tell
from games.seats.core.seat import Seat
from games.seatview.core.dates import local_time
from tests.handover.test_seat_history import log_lines, talk_lines
from tests.handover.test_takeover import pass_move
from tests.handover_support import offer_link_to, sign_up
from tests.moderation_support import logged_in, make_moderator
from tests.support import START, GameWithLinks, make_game, own_link_emailed_to

pytestmark = pytest.mark.django_db
# The moderators' zone: five hours behind UTC on START's day.
NEW_YORK = ZoneInfo("America/New_York")
ISO_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


@dataclass
class Table:
    g: GameWithLinks
    wes: str  # Wes's own link
    uma_said: datetime
    wes_said: datetime


def say(seat_id: int, text: str) -> Message:
    return services.post_message(Seat.objects.get(pk=seat_id), text)


def uma_leaves_and_wes_takes_over(client: Client, commit: Any, clock: Any) -> Table:
    """Ann, Uma and Cy: Uma moves and thanks Gianna, leaves (a bot plays her next turn),
    Wes, on standby, takes her seat over, the others move, Wes moves and writes a line."""
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[0].pk).update(player_name="Ann")
    Seat.objects.filter(pk=g.seats[1].pk).update(player_name="Uma", email="uma@example.com")
    sign_up(client, commit, "wes@example.org", "Wes")
    with commit():
        pass_move(client, g.page(0))  # move 1: Ann
        pass_move(client, g.page(1))  # move 2: Uma
    clock.move_to(START + timedelta(minutes=10))
    say(g.seats[1].pk, "Thanks Gianna")
    clock.move_to(START + timedelta(hours=1))
    with commit():
        assert client.post(g.page(1) + "leave").status_code == 302
        pass_move(client, g.page(2))  # move 3: Cy
        pass_move(client, g.page(0))  # move 4: Ann; move 5: the bot, for Uma
    assert g.refresh().version == 5
    clock.move_to(START + timedelta(hours=2))
    with commit():
        taken = client.post(offer_link_to("wes@example.org"), {"name": "Wes", "language": "en"})
    assert taken.status_code == 200
    wes = own_link_emailed_to("wes@example.org")
    with commit():
        pass_move(client, g.page(2))  # move 6: Cy
        pass_move(client, g.page(0))  # move 7: Ann
        pass_move(client, wes)  # move 8: Wes
    clock.move_to(START + timedelta(hours=3))
    say(g.seats[1].pk, "Hello, Wes here")
    return Table(g, wes, START + timedelta(minutes=10), START + timedelta(hours=3))


def reported(client: Client, commit: Any, clock: Any, table: Table) -> Dispute:
    """Ann reports Uma's line after the takeover."""
    clock.move_to(START + timedelta(hours=4))
    uma_line = Message.objects.get(text="Thanks Gianna")
    mail.outbox.clear()
    with commit():
        answer = client.post(table.g.page(0) + "report",
                             {"message": uma_line.pk, "reason": "rude"})
    assert answer.status_code == 302
    return Dispute.objects.get(talk=uma_line)


def text_of(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def block(body: str, pattern: str) -> str:
    found = re.search(pattern, body, re.S)
    assert found is not None, pattern
    return found.group(0)


def in_new_york(moment: datetime) -> str:
    with translation.override("en"):
        return local_time(moment, NEW_YORK)


@pytest.fixture
def moderators_in_new_york(settings: Any) -> None:
    settings.TIME_ZONE = "America/New_York"
    make_moderator()


def test_the_admin_and_the_moderators_email_credit_each_line_to_its_writer(
        client: Client, commit: Any, clock: Any, moderators_in_new_york: None) -> None:
    table = uma_leaves_and_wes_takes_over(client, commit, clock)
    dispute = reported(client, commit, clock, table)
    uma = f"Uma (seat 2), {in_new_york(table.uma_said)}: Thanks Gianna"
    wes = f"Wes (seat 2), {in_new_york(table.wes_said)}: Hello, Wes here"
    assert "(America/New_York)" in uma and "5:10 a.m." not in uma  # 9:10 UTC is 4:10 there
    moderator = logged_in(make_moderator("mod2", "mod2@example.com"))
    page = moderator.get(f"/admin/games/dispute/{dispute.pk}/change/").content.decode()
    context = text_of(block(page, r'<ol class="reported-talk">.*?</ol>'))
    assert uma in context and wes in context
    assert "Wes (seat 2), " + in_new_york(table.uma_said) not in context
    reporters = text_of(block(page, r'<ol class="reporters">.*?</ol>'))
    assert reporters == f"Ann (seat 1, {in_new_york(START + timedelta(hours=4))})"
    assert not ISO_TIME.search(context + reporters)
    # The game's moderation page, where a moderator settles it, shows the same.
    moderate = moderator.get(f"/admin/games/game/{table.g.game.pk}/moderate/").content.decode()
    disputes = text_of(block(moderate, r'<section id="disputes">.*?</section>'))
    assert uma in disputes and wes in disputes
    assert f"Ann, {in_new_york(START + timedelta(hours=4))}" in disputes
    # The moderators' email quotes the line in its context, the same way.
    [email] = [m for m in mail.outbox if m.to == ["mod@example.com"]]
    body = " ".join(str(email.body).split())
    assert uma in body and wes in body and not ISO_TIME.search(body)
    assert "Thanks Gianna" in str(email.body) and "(Wes)" not in str(email.body)
    [html_part] = [content for content, kind in getattr(email, "alternatives", [])
                   if kind == "text/html"]
    assert uma in text_of(str(html_part)) and wes in text_of(str(html_part))
    # And every page of the players: the replay before and after the takeover, the seat
    # pages' talk, each one's data.
    story = tell(table.g.refresh())
    assert [s.name for s in step_context(story, 5)["seats"]][1] == "Uma (bot)"
    assert [s.name for s in step_context(story, 6)["seats"]][1] == "Wes"
    assert made_by(story, story.moves[1]) == "Uma"
    assert made_by(story, story.moves[7]) == "Wes"
    for path in (table.g.page(0), table.wes):
        talk = talk_lines(client.get(path).content.decode())
        assert talk[0].startswith("Uma ") and talk[0].endswith("Thanks Gianna")
        assert talk[1].startswith("Wes ") and talk[1].endswith("Hello, Wes here")
    assert [line["text"] for line in export_player_data("uma@example.com")["table_talk"]] == [
        "Thanks Gianna"]
    assert [line["text"] for line in export_player_data("wes@example.org")["table_talk"]] == [
        "Hello, Wes here"]


def test_the_moderators_digest_credits_a_line_to_its_writer(
        client: Client, commit: Any, clock: Any, moderators_in_new_york: None) -> None:
    """Wes's line is reported first (emailed at once), Uma's within the hour: the digest
    after it names Uma, at her line's time in the moderators' zone."""
    from games import tasks

    table = uma_leaves_and_wes_takes_over(client, commit, clock)
    clock.move_to(START + timedelta(hours=4))
    with commit():
        client.post(table.g.page(2) + "report",
                    {"message": Message.objects.get(text="Hello, Wes here").pk})
    mail.outbox.clear()
    clock.move_to(START + timedelta(hours=4, minutes=10))
    with commit():
        client.post(table.g.page(2) + "report",
                    {"message": Message.objects.get(text="Thanks Gianna").pk})
    assert not mail.outbox  # within the hour: it waits for the digest
    clock.move_to(START + timedelta(hours=5))
    with commit():
        assert tasks.sweep_report_digests() == 1
    [digest] = mail.outbox
    body = " ".join(str(digest.body).split())
    assert f"Uma (seat 2), {in_new_york(table.uma_said)}: Thanks Gianna" in body
    assert "Wes" not in body and not ISO_TIME.search(body)


def test_the_talk_and_moves_lists_and_the_undo_name_who_held_the_seat(
        client: Client, commit: Any, clock: Any, moderators_in_new_york: None) -> None:
    table = uma_leaves_and_wes_takes_over(client, commit, clock)
    moderator = logged_in(make_moderator("mod2", "mod2@example.com"))
    talk = moderator.get("/admin/games/message/").content.decode()
    rows = [text_of(row) for row in re.findall(r"<tr[^>]*>.*?</tr>", talk, re.S)]
    assert any("Uma (seat 2)" in row and "Thanks Gianna" in row for row in rows)
    assert any("Wes (seat 2)" in row and "Hello, Wes here" in row for row in rows)
    assert not any("Wes" in row and "Thanks Gianna" in row for row in rows)
    moves = moderator.get(f"/admin/games/move/?game__id__exact={table.g.game.pk}")
    by_number = {int(m.group(1)): m.group(2) for row in re.findall(
        r"<tr[^>]*>.*?</tr>", moves.content.decode(), re.S)
        if (m := re.match(r"Test game (\d+) \w+ (.+?) (player|bot) \d", text_of(row)))}
    assert by_number[2] == "Uma" and by_number[5] == "Uma (bot)" and by_number[8] == "Wes"
    undo = moderator.post(f"/admin/games/game/{table.g.game.pk}/moderate/undo/", {
        "undo-to_version": 1, "undo-expected_version": 8, "undo-reason": "looking"})
    assert undo.status_code == 200
    dropped = text_of(block(undo.content.decode(), r"<tbody>.*?</tbody>"))
    assert "2 Uma player" in dropped and "8 Wes player" in dropped
    assert in_new_york(START) in dropped
    undone = text_of(block(undo.content.decode(), r"<h2>What is undone</h2>\s*<ol>.*?</ol>"))
    assert "Uma passed" in undone and "Wes passed" in undone


def test_the_reporter_s_data_and_the_dispute_keep_no_name_of_the_writer(
        client: Client, commit: Any, clock: Any, moderators_in_new_york: None) -> None:
    """The dispute's text names the seat, not the writer (a name kept in free text would
    outlive "forget me"): the moderators' pages and emails name the writer as they show
    it, from the seat's history."""
    table = uma_leaves_and_wes_takes_over(client, commit, clock)
    dispute = reported(client, commit, clock, table)
    assert "Thanks Gianna" in dispute.text and "seat 2" in dispute.text
    assert "Uma" not in dispute.text and "Wes" not in dispute.text
    assert all("name" not in line for line in dispute.talk_context)
    [filed] = export_player_data("p0@example.com")["disputes_filed"]
    assert "Wes" not in filed["text"] and "Uma" not in filed["text"]


def test_a_writer_forgotten_since_is_a_former_player_to_the_moderators(
        client: Client, commit: Any, clock: Any, moderators_in_new_york: None) -> None:
    table = uma_leaves_and_wes_takes_over(client, commit, clock)
    dispute = reported(client, commit, clock, table)
    forget_player("uma@example.com")
    moderator = logged_in(make_moderator("mod2", "mod2@example.com"))
    page = moderator.get(f"/admin/games/dispute/{dispute.pk}/change/").content.decode()
    context = text_of(block(page, r'<ol class="reported-talk">.*?</ol>'))
    assert f"a former player (seat 2), {in_new_york(table.uma_said)}" in context
    assert "Wes (seat 2)" in context
    moderate = moderator.get(f"/admin/games/game/{table.g.game.pk}/moderate/").content.decode()
    assert not re.search(r"\bUma\b", page + moderate)
    assert "Uma" not in str(Dispute.objects.get(pk=dispute.pk).talk_context)


def test_a_dispute_is_filed_by_who_held_the_seat_then(
        client: Client, commit: Any, clock: Any, moderators_in_new_york: None) -> None:
    """A dispute Uma filed before she left stays hers on every seat page and in the admin,
    though Wes holds her seat now."""
    g = make_game(players=3, seed=5)
    Seat.objects.filter(pk=g.seats[1].pk).update(player_name="Uma", email="uma@example.com")
    sign_up(client, commit, "wes@example.org", "Wes")
    with commit():
        pass_move(client, g.page(0))
        client.post(g.page(1) + "dispute", {"text": "Move 1 looks odd", "move_number": 1,
                                            "share_with_table": "on"})
        client.post(g.page(1) + "report", {"message": say(g.seats[2].pk, "Hurry up").pk,
                                           "reason": "rushing me"})
    clock.move_to(START + timedelta(hours=1))
    with commit():
        assert client.post(g.page(1) + "leave").status_code == 302
    with commit():
        client.post(offer_link_to("wes@example.org"), {"name": "Wes", "language": "en"})
    dispute = Dispute.objects.get(talk__isnull=True)
    # Her data holds them; his does not (he filed and reported nothing).
    uma, wes = export_player_data("uma@example.com"), export_player_data("wes@example.org")
    assert sorted(d["text"] for d in uma["disputes_filed"])[0] == "Move 1 looks odd"
    assert [r["reason"] for r in uma["talk_lines_reported"]] == ["rushing me"]
    assert wes["disputes_filed"] == [] and wes["talk_lines_reported"] == []
    seat_page = text_of(client.get(g.page(0)).content.decode())
    assert "Uma filed a dispute about move 1" in seat_page
    assert "Wes filed a dispute" not in seat_page
    moderator = logged_in(make_moderator("mod2", "mod2@example.com"))
    listed = text_of(moderator.get("/admin/games/dispute/").content.decode())
    assert "2: Uma" in listed and "2: Wes" not in listed
    moderate = moderator.get(f"/admin/games/game/{g.game.pk}/moderate/").content.decode()
    heading = text_of(block(moderate, rf"<h3>#{dispute.pk} .*?</h3>"))
    assert heading.startswith(f"#{dispute.pk} — 2: Uma, {in_new_york(START)}")
    # Resolved after the takeover: the table's log still says whose dispute it was.
    with commit():
        resolve_dispute(dispute.pk, moderator=make_moderator("mod3", "mod3@example.com"),
                        outcome="upheld", note="Looked into it")
    lines = log_lines(client.get(g.page(0)).content.decode())
    assert any(line.startswith("Uma filed a dispute about move 1.") for line in lines)
    assert any(line.startswith("A moderator resolved the dispute of Uma (") for line in lines)
    assert timezone.now() > START  # (the clock moved: "then" is not "now")


def test_forget_me_takes_the_writer_s_name_out_of_reports_filed_before(
        client: Client, commit: Any, clock: Any) -> None:
    """Reports filed while the context still kept each writer's name (as stored then)."""
    table = uma_leaves_and_wes_takes_over(client, commit, clock)
    line = Message.objects.get(text="Thanks Gianna")
    old = Dispute.objects.create(
        game=table.g.game, seat=table.g.seats[0], text="Table talk reported",
        talk=line, talk_context=[{"id": line.pk, "seat": 1, "name": "Uma",
                                  "at": line.created_at.isoformat(), "text": line.text,
                                  "reported": True}])
    forget_player("uma@example.com")
    old.refresh_from_db()
    assert old.talk_context[0]["name"] != "Uma" and old.talk_context[0]["text"] == line.text
