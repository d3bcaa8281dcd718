"""A volunteer who signs up (or resumes) after a seat opened is offered it at the beat's
next sweep, not 12 hours later (issue 39, item 3); "a few at a time" and each volunteer's
daily cap still hold."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client, override_settings

from games.handover.core.handover_rows import SeatOffer
from games.handover.services import opening
from tests.handover_support import open_row, sign_up
from tests.support import make_game


def offered_to() -> list[str]:
    return sorted(SeatOffer.objects.values_list("to_email", flat=True))


@pytest.mark.django_db
def test_a_volunteer_who_confirms_after_the_seat_opened_is_offered_it_within_minutes(
        client: Client, commit: Any, clock: Any) -> None:
    with commit():
        g = make_game(players=3, seed=5)
        opening.open_seat(g.seats[1].pk)  # nobody is on standby yet
    assert offered_to() == []
    clock.shift(timedelta(hours=1))
    sign_up(client, commit, "vera@example.org", "Vera")
    clock.shift(timedelta(minutes=5))  # the beat's next sweep
    with commit():
        assert opening.sweep_open_seats()["offered"] == 1
    assert offered_to() == ["vera@example.org"]
    assert [m for m in mail.outbox if "vera@example.org" in m.to and "/seats/offer/" in m.body]
    with commit():  # once is enough
        assert opening.sweep_open_seats()["offered"] == 0


@pytest.mark.django_db
def test_a_volunteer_who_resumes_is_offered_the_seat_at_the_next_sweep(
        client: Client, commit: Any, clock: Any) -> None:
    link = sign_up(client, commit, "vera@example.org", "Vera")
    assert client.post(link, {"action": "pause"}).status_code == 302
    with commit():
        g = make_game(players=3, seed=5)
        opening.open_seat(g.seats[1].pk)
    assert offered_to() == []
    clock.shift(timedelta(minutes=30))
    assert client.post(link, {"action": "resume"}).status_code == 302
    clock.shift(timedelta(minutes=5))
    with commit():
        opening.sweep_open_seats()
    assert offered_to() == ["vera@example.org"]


@pytest.mark.django_db
@override_settings(HANDOVER_OFFERS_AT_ONCE=2, HANDOVER_OFFER_HOURS=12)
def test_newcomers_fill_the_round_a_few_at_a_time_and_keep_their_daily_cap(
        client: Client, commit: Any, clock: Any) -> None:
    sign_up(client, commit, "ann@v.org", "Ann")
    with commit():
        g = make_game(players=3, seed=5)
        other = make_game(players=3, seed=6)
        opening.open_seat(g.seats[1].pk)  # Ann is asked at once
    assert offered_to() == ["ann@v.org"]
    clock.shift(timedelta(hours=1))
    sign_up(client, commit, "bea@v.org", "Bea")
    sign_up(client, commit, "cid@v.org", "Cid")
    clock.shift(timedelta(minutes=5))
    with commit():
        opening.sweep_open_seats()
    # Room for one more in this round of two: the one on standby longest, Bea.
    assert offered_to() == ["ann@v.org", "bea@v.org"]
    clock.shift(timedelta(hours=10))
    with commit():
        opening.sweep_open_seats()
    assert offered_to() == ["ann@v.org", "bea@v.org"]  # the round is not over
    clock.shift(timedelta(hours=1, minutes=5))  # nobody answered in 12 hours
    with commit():
        opening.sweep_open_seats()
    assert offered_to() == ["ann@v.org", "bea@v.org", "cid@v.org"]
    # A volunteer with one offer a day, offered another seat today, waits for tomorrow,
    # though this seat's round has room for one more.
    sign_up(client, commit, "dee@v.org", "Dee", offers_per_day=1)
    with commit():
        opening.open_seat(other.seats[2].pk)
    assert SeatOffer.objects.filter(open_seat=open_row(other.seats[2].pk),
                                    to_email="dee@v.org").count() == 1
    row = open_row(g.seats[1].pk)
    clock.shift(timedelta(minutes=5))
    with commit():
        opening.sweep_open_seats()
    assert SeatOffer.objects.filter(open_seat=row, to_email="dee@v.org").count() == 0
    clock.shift(timedelta(days=1))
    with commit():
        opening.sweep_open_seats()
    assert SeatOffer.objects.filter(open_seat=row, to_email="dee@v.org").count() == 1
