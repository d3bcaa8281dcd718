"""Tournaments driven whole through the services: sign-up, round 1 paired when sign-up
closes, each player emailed only their own seat link, the next round paired by the sweep
when a share of tables ended or at the deadline, a no-show dropped, the standings."""

from __future__ import annotations

import re
from datetime import timedelta
from itertools import combinations
from typing import Any

import pytest
from django.core import mail

from games.game.core.game import Game, SeatKind
from games.seats.core.links import link_for
from games.seats.core.reliability import MissedDeadline
from games.tournaments.core.event_rows import Entry, EventRound, EventSeat, EventTable, Tournament
from games.tournaments.core.event_settings import TournamentError
from games.tournaments.services import entries, pairing_rounds, results
from tests.tournaments.support import event, finish

pytestmark = pytest.mark.django_db
SEAT_LINK = re.compile(r"/play/[A-Za-z0-9_-]{43}/")
PEOPLE = [f"p{n}@example.org" for n in range(9)]


def games_of(tournament: Tournament, number: int) -> list[Game]:
    return [table.game for table in EventTable.objects.filter(
        event_round__tournament=tournament, event_round__number=number).select_related("game")
        if table.game is not None]


def test_nine_players_three_rounds_to_the_standings(clock: Any, commit: Any) -> None:
    cup = event()
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    mail.outbox.clear()
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        assert pairing_rounds.sweep_tournaments()["started"] == 1
    first = games_of(cup, 1)
    assert len(first) == 3 and all(g.status == Game.Status.ACTIVE for g in first)
    # Each player got their own seat link, and only theirs.
    for game in first:
        for seat in game.seats.filter(kind=SeatKind.PERSON):
            letters = [m for m in mail.outbox if m.to == [seat.email]]
            shown = {link for m in letters for link in SEAT_LINK.findall(str(m.body))}
            own = SEAT_LINK.search(link_for(seat))
            assert own is not None and shown == {own.group(0)}
    for number in (1, 2, 3):
        for seed, game in enumerate(games_of(cup, number)):
            finish(game, seed)
        with commit():
            pairing_rounds.sweep_tournaments()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    # Every player sat once per round.
    for number in (1, 2, 3):
        seated = EventSeat.objects.filter(table__event_round__tournament=cup,
                                          table__event_round__number=number)
        assert sorted(seated.values_list("entry_id", flat=True)) == sorted(
            Entry.objects.filter(tournament=cup).values_list("pk", flat=True))
    table = results.standings(cup)
    assert len(table) == 9 and table[0].standing.rank == 1
    assert all(row.standing.played == 3 for row in table)
    assert sum(row.standing.score for row in table) == pytest.approx(9 * 3 / 2)
    # Repeat meetings: 9 players at tables of 3 over 3 rounds can avoid them all.
    met = results.history(cup).meetings
    assert max(met.values()) == 1
    assert len(met) == 27 and len(list(combinations(range(9), 2))) == 36


def test_the_games_take_the_events_clock(clock: Any, commit: Any) -> None:
    from games.clock.core.clock_setup import clock_settings

    cup = event(clock=clock_settings(bank_hours=72, increment_hours=24, days_off="sat,sun"))
    for address in PEOPLE[:3]:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    (game,) = games_of(cup, 1)
    assert (game.bank_hours, game.increment_hours, game.weekdays_off) == (72, 24, [5, 6])


def test_the_next_round_waits_for_the_share_of_tables_or_the_deadline(
        clock: Any, commit: Any) -> None:
    cup = event(advance_share=0.75)
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    first = games_of(cup, 1)
    finish(first[0])
    finish(first[1], 1)
    with commit():
        assert pairing_rounds.sweep_tournaments()["seated"] == 0  # 2 of 3 tables: under 75%
    clock.shift(timedelta(days=14, minutes=1))  # the round's deadline
    with commit():
        assert pairing_rounds.sweep_tournaments()["seated"] == 6
    assert len(games_of(cup, 2)) == 2
    # The last table ends later: its players are paired into round 2 on their own.
    finish(first[2], 2)
    with commit():
        assert pairing_rounds.sweep_tournaments()["seated"] == 3
    assert len(games_of(cup, 2)) == 3
    assert EventRound.objects.filter(tournament=cup).count() == 2


def test_a_player_is_dropped_after_two_no_shows(clock: Any, commit: Any) -> None:
    cup = event(players=3, cap=3)
    for address in PEOPLE[:3]:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    absent = Entry.objects.get(tournament=cup, address=PEOPLE[0])
    for number in (1, 2):
        with commit():
            pairing_rounds.sweep_tournaments()
        (game,) = games_of(cup, number)
        seat = game.seats.get(email=PEOPLE[0])
        MissedDeadline.objects.create(game=game, seat=seat, version=1,
                                      mailbox=absent.mailbox_key)
        finish(game)
    with commit():
        pairing_rounds.sweep_tournaments()
    absent.refresh_from_db()
    assert absent.no_shows == 2 and absent.dropped_at is not None
    (game,) = games_of(cup, 3)
    assert not game.seats.filter(email=PEOPLE[0]).exists()
    assert game.seats.filter(kind=SeatKind.BOT).count() == 1  # a bot fills the table


def test_too_few_players_cancel_the_event(clock: Any) -> None:
    cup = event()
    entries.join_event(PEOPLE[0], cup.pk)
    clock.shift(timedelta(days=3))
    assert pairing_rounds.sweep_tournaments()["cancelled"] == 1
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED and not EventTable.objects.exists()


def test_join_and_leave_refusals_change_nothing(clock: Any) -> None:
    cup = event(cap=3)
    for address in PEOPLE[:3]:
        entries.join_event(address, cup.pk)
    for address, event_id, code in [(PEOPLE[3], cup.pk, "tournament_full"),
                                    ("P0@Example.org", cup.pk, "already_in"),
                                    (PEOPLE[0], cup.pk + 99, "no_tournament"),
                                    (PEOPLE[0], "1", "no_tournament")]:
        with pytest.raises(TournamentError) as refused:
            entries.join_event(address, event_id)
        assert refused.value.code == code
    assert Entry.objects.filter(tournament=cup).count() == 3
    with pytest.raises(TournamentError) as refused:
        entries.leave_event(PEOPLE[5], cup.pk)
    assert refused.value.status == 404
    left = entries.leave_event(PEOPLE[1], cup.pk)
    assert (left.players, left.member) == (2, False)
    clock.shift(timedelta(days=3))
    pairing_rounds.sweep_tournaments()
    with pytest.raises(TournamentError) as refused:
        entries.leave_event(PEOPLE[0], cup.pk)
    assert refused.value.code == "tournament_started"


def test_duplicate_rounds_deal_the_same_seed_at_every_table(clock: Any, commit: Any) -> None:
    cup = event(duplicate=True, players=3, cap=9, rounds=2)
    for address in PEOPLE:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    first = games_of(cup, 1)
    assert len({game.seed for game in first}) == 1
    row = EventRound.objects.get(tournament=cup, number=1)
    assert row.deal_commitment and row.deal_seed is not None
    start_states = {tuple(map(tuple, game.state_without_log().hands)) for game in first}
    assert len(start_states) == 1  # the same hands at every table
    for game in first:
        finish(game)
    with commit():
        pairing_rounds.sweep_tournaments()
    # Nobody holds the same seat twice.
    held: dict[int, list[int]] = {}
    for entry_id, seat in EventSeat.objects.filter(
            table__event_round__tournament=cup).values_list("entry_id", "seat"):
        held.setdefault(entry_id, []).append(seat)
    assert all(len(set(seats)) == len(seats) for seats in held.values())


def test_forget_me_and_the_data_export_cover_tournaments(clock: Any, commit: Any) -> None:
    from django.utils import timezone

    from games.home.services.erase import erase_address
    from games.home.services.export import export_player_data

    open_cup = event(name="Open cup", signup_closes=timezone.now() + timedelta(days=9))
    running_cup = event(name="Running cup")
    for address in PEOPLE[:3]:
        entries.join_event(address, running_cup.pk)
    entries.join_event(PEOPLE[0], open_cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    exported = export_player_data(PEOPLE[0])["tournaments"]
    assert {row["name"] for row in exported} == {"Open cup", "Running cup"}
    erase_address(PEOPLE[0])
    assert not Entry.objects.filter(tournament=open_cup).exists()
    kept = Entry.objects.filter(tournament=running_cup).order_by("joined_at", "pk").first()
    assert kept is not None and kept.address == "" and kept.dropped_at is not None
    assert not Entry.objects.filter(address__icontains="p0@").exists()
    # The others' standings keep their table; the forgotten player is "Player 1".
    assert [row.number for row in results.standings(running_cup)] != []


def _play_through_the_move_service(game: Game, seed: int) -> Game:
    """Every move through the one move service, as the seats would make them."""
    import random

    from games import engine
    from tests.support import choose, seat_move

    rng = random.Random(seed)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = game.state_without_log()
        assert state.actor is not None
        seat = game.seats.get(number=state.actor)
        seat_move(seat, game.version, choose(engine.legal_moves(state), rng))


@pytest.mark.slow
def test_duplicate_deals_are_proved_by_verifygame(clock: Any, commit: Any,
                                                  tmp_path: Any) -> None:
    import io
    import json

    from django.core.management import call_command

    from games.records.services.game_record import game_record

    cup = event(duplicate=True, players=3, cap=6, rounds=1)
    for address in PEOPLE[:6]:
        entries.join_event(address, cup.pk)
    clock.shift(timedelta(days=2, minutes=1))
    with commit():
        pairing_rounds.sweep_tournaments()
    row = EventRound.objects.get(tournament=cup, number=1)
    for seed, game in enumerate(games_of(cup, 1)):
        _play_through_the_move_service(game, seed)
    with commit():
        pairing_rounds.sweep_tournaments()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    for game in games_of(cup, 1):
        path = tmp_path / f"{game.public_id}.json"
        path.write_text(json.dumps(game_record(game)))
        out = io.StringIO()
        call_command("verifygame", str(path), "--deal",
                     f"{row.deal_salt}:{row.deal_commitment}", stdout=out)
        assert "deal: the seed is the round's" in out.getvalue()
    # Another round's commitment does not fit: verifygame says so.
    with pytest.raises(SystemExit):
        call_command("verifygame", str(path), "--deal", f"{row.deal_salt}:{'0' * 64}",
                     stdout=io.StringIO(), stderr=io.StringIO())
    # Each player's score compares their seat with the same seat at the other table.
    first, second = EventTable.objects.filter(event_round=row).order_by("number")
    expected: dict[int, float] = {}
    for table, other in ((first, second), (second, first)):
        for held in table.holders.all():
            mine, theirs = table.nuggets[held.seat], other.nuggets[held.seat]
            expected[held.entry_id] = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    assert {row.standing.member: row.standing.score
            for row in results.standings(cup)} == expected
