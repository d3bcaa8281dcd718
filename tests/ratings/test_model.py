"""The rating model (games.ratings.core.model, games.ratings.core.sides): pure Python, no
database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from games.ratings.core.model import (
    BOT_SKILLS,
    DEFAULT_SIGMA,
    PROVISIONAL_VARIANCE,
    Hand,
    Skill,
    Team,
    decayed,
    predict,
    rate_round,
    settled_until,
    side_key,
    side_prior,
)
from games.ratings.core.sides import SideSeats, round_sides


def base_end(roles: list[str], winners: str) -> dict[str, object]:
    return {"type": "round_end", "round": 1, "roles": roles, "winners": winners}


def test_the_base_sides_come_from_the_revealed_roles_and_the_winner() -> None:
    event = base_end(["gold-digger", "saboteur", "gold-digger", "gold-digger"], "saboteurs")
    assert round_sides("base", event) == [SideSeats("gold-diggers", (0, 2, 3), won=False),
                                          SideSeats("saboteurs", (1,), won=True)]


def test_a_round_with_one_side_only_is_not_rated() -> None:
    # Three diggers and no saboteur dealt: nobody to rate against.
    assert round_sides("base", base_end(["gold-digger"] * 3, "gold-diggers")) == []


def test_saboteur2_sides_are_the_roles_dealt_whoever_won() -> None:
    roles = ["blue-digger", "green-digger", "boss", "profiteer", "geologist", "saboteur"]
    event = {"roles": roles, "winners": "green", "winning_seats": [1, 2, 3]}
    # The Boss is a side allied to the door teams, winning whenever one does; the
    # Profiteer (who always wins) and the geologist are left out.
    assert round_sides("saboteur2", event) == [
        SideSeats("blue", (0,), won=False), SideSeats("green", (1,), won=True),
        SideSeats("saboteurs", (5,), won=False), SideSeats("boss-team", (2,), won=True)]
    lost = round_sides("saboteur2", {**event, "winners": "saboteurs", "winning_seats": [3, 5]})
    assert [s.won for s in lost] == [False, False, True, False]


def test_saboteur2_both_door_teams_win_against_the_saboteurs() -> None:
    roles = ["blue-digger", "green-digger", "saboteur"]
    both = round_sides("saboteur2", {"roles": roles, "winners": "blue+green"})
    assert [s.won for s in both] == [True, True, False]
    # Without a saboteur dealt, nobody lost: nothing to rate; nor when nobody won.
    assert round_sides("saboteur2", {"roles": roles[:2], "winners": "blue+green"}) == []
    assert round_sides("saboteur2", {"roles": [*roles, "profiteer"], "winners": "nobody",
                                     "winning_seats": [3]}) == []


def team(side: str, players: list[str | None], *, won: bool, size: int | None = None,
         shares: list[float] | None = None) -> Team:
    seats = tuple((Hand(p, BOT_SKILLS["normal"] if p is None else Skill(),
                        1.0 if shares is None else shares[i]),)
                  for i, p in enumerate(players))
    return Team(side=side_key("base", side, size or len(players)), seats=seats, won=won)


def sides_for(*teams: Team) -> dict[str, Skill]:
    return {t.side: side_prior(len(t.seats)) for t in teams}


def test_a_round_moves_winners_up_losers_down_and_learns_the_side_teammates() -> None:
    diggers = team("gold-diggers", ["a", "b", "c"], won=False)
    saboteurs = team("saboteurs", ["d"], won=True)
    sides = sides_for(diggers, saboteurs)
    # An even prior: a side teammate makes any size one average player.
    assert predict([diggers, saboteurs], sides) == pytest.approx([0.5, 0.5])
    outcome = rate_round([diggers, saboteurs], sides)
    assert outcome.players["d"].mu > 25 > outcome.players["a"].mu
    assert all(outcome.players[p].sigma < DEFAULT_SIGMA for p in "abcd")
    # The saboteurs' teammate (1 seat) learned that its side wins; the diggers' lost.
    assert outcome.sides[saboteurs.side].mu > sides[saboteurs.side].mu
    assert outcome.sides[diggers.side].mu < sides[diggers.side].mu


def test_a_win_where_the_side_usually_wins_counts_for_less() -> None:
    diggers = team("gold-diggers", ["a", "b", "c"], won=False)
    saboteurs = team("saboteurs", ["d"], won=True)
    even = sides_for(diggers, saboteurs)
    favoured = dict(even)
    favoured[saboteurs.side] = Skill(even[saboteurs.side].mu + 10, 2.0)  # saboteurs favoured
    gain_even = rate_round([diggers, saboteurs], even).players["d"].mu - 25
    gain_favoured = rate_round([diggers, saboteurs], favoured).players["d"].mu - 25
    assert 0 < gain_favoured < gain_even


def test_bots_are_never_updated() -> None:
    outcome = rate_round([team("gold-diggers", ["a", None], won=True),
                          team("saboteurs", [None], won=False)],
                         {side_key("base", "gold-diggers", 2): side_prior(2),
                          side_key("base", "saboteurs", 1): side_prior(1)})
    assert set(outcome.players) == {"a"}


def test_a_taken_over_seat_shares_the_round_by_turns() -> None:
    mixed = Team(side=side_key("base", "gold-diggers", 2), won=True, seats=(
        (Hand("left", Skill(), 0.25), Hand("newcomer", Skill(), 0.75)), (Hand("b", Skill()),)))
    saboteurs = team("saboteurs", ["d"], won=False)
    outcome = rate_round([mixed, saboteurs], sides_for(mixed, saboteurs))
    whole = outcome.players["b"].mu - 25
    assert 0 < outcome.players["left"].mu - 25 < outcome.players["newcomer"].mu - 25 < whole
    assert outcome.players["newcomer"].mu - 25 == pytest.approx(0.75 * whole)


def test_a_round_needs_a_winner_and_a_loser() -> None:
    with pytest.raises(ValueError, match="a winning and a losing team"):
        rate_round([team("gold-diggers", ["a"], won=True), team("saboteurs", ["b"], won=True)],
                   {})


def rounds_to_settle(share: float) -> int:
    """Rated rounds at tables of three, won and lost in turn, until a player who plays
    `share` of their seat's turns (a bot the rest) has a settled rating."""
    skill, now = Skill(), datetime(2027, 1, 1, tzinfo=UTC)
    sides: dict[str, Skill] = {}
    for played in range(1, 200):
        mine = Team(side=side_key("base", "gold-diggers", 2), won=played % 2 == 0, seats=(
            (Hand("me", skill, share), Hand(None, BOT_SKILLS["normal"], 1 - share)),
            (Hand(None, BOT_SKILLS["normal"]),)))
        theirs = team("saboteurs", ["other"], won=played % 2 == 1)
        for key, size in ((mine.side, 2), (theirs.side, 1)):
            sides.setdefault(key, side_prior(size))
        outcome = rate_round([mine, theirs], sides)
        skill = outcome.players["me"]
        sides.update(outcome.sides)
        if settled_until(skill, now) is not None:
            return played
    raise AssertionError("never settled")


def test_a_rating_is_provisional_until_the_rounds_told_enough_of_it() -> None:
    now = datetime(2027, 1, 1, tzinfo=UTC)
    assert settled_until(Skill(), now) is None  # a newcomer
    # What the rounds told, not how many: a tenth of a seat's turns a round tells less.
    whole, tenth = rounds_to_settle(1.0), rounds_to_settle(0.1)
    assert 5 <= whole <= 12 < 5 * whole < tenth


def test_a_settled_rating_is_provisional_again_after_months_away() -> None:
    now = datetime(2027, 1, 1, tzinfo=UTC)
    settled = Skill(30.0, 5.0)  # about 40 rated rounds at tables of four
    until = settled_until(settled, now)
    assert until is not None
    # Its certainty decays until its variance passes the bound: about 13 months away.
    assert 13 * 30 < (until - now).days < 14 * 31
    assert decayed(settled, now, until - timedelta(days=1)).sigma ** 2 < PROVISIONAL_VARIANCE
    assert decayed(settled, now, until + timedelta(days=1)).sigma ** 2 > PROVISIONAL_VARIANCE


def test_certainty_decays_with_months_away_never_past_the_start() -> None:
    now = datetime(2027, 1, 1, tzinfo=UTC)
    settled = Skill(30.0, 2.0)
    assert decayed(settled, now, now) == settled
    half_year = decayed(settled, now - timedelta(days=183), now)
    assert half_year.mu == 30.0 and 2.0 < half_year.sigma < decayed(
        settled, now - timedelta(days=365), now).sigma
    assert decayed(settled, now - timedelta(days=365 * 40), now).sigma == DEFAULT_SIGMA
