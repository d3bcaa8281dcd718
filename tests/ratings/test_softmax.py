"""The softmax over a round's results (games.ratings.core.model): chances that add up to
one, even players given their sides' base rates, the stronger team the likelier winner;
and the update that moves every team by its surprise, three ways in Saboteur 2 (pure
Python, no database)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games.ratings.core import model
from games.ratings.core.model import (
    Hand,
    Skill,
    Strength,
    Team,
    outcome_chances,
    predict,
    prior_of,
    rate_round,
    result_weights,
    side_key,
    side_of,
)
from games.ratings.core.sides import BOSS_TEAM, DOOR_TEAMS

RULESETS = {"base": ("gold-diggers", "saboteurs"),
            "saboteur2": ("blue", "green", "saboteurs", BOSS_TEAM)}
skills = st.builds(Skill, st.floats(0, 50), st.floats(0.5, 9))


def team(ruleset: str, side: str, players: list[Skill], *, won: bool = False,
         names: list[str] | None = None) -> Team:
    seats = tuple((Hand(names[n] if names else f"{side}{n}", skill),)
                  for n, skill in enumerate(players))
    return Team(side=side_key(ruleset, side, len(players)), seats=seats, won=won)


def priors(*teams: Team) -> dict[str, Skill]:
    return {t.side: prior_of(t.side) for t in teams}


@st.composite
def rounds(draw: st.DrawFn) -> tuple[list[Team], dict[str, Skill]]:
    """Teams of a base or a Saboteur 2 round, any skills, any side teammates."""
    ruleset = draw(st.sampled_from(sorted(RULESETS)))
    sides = RULESETS[ruleset]
    present = draw(st.lists(st.sampled_from(sides), min_size=2, unique=True).filter(
        lambda chosen: sum(side != BOSS_TEAM for side in chosen) >= 2))
    teams = [team(ruleset, side, draw(st.lists(skills, min_size=1,
                                                max_size=1 if side == BOSS_TEAM else 5)))
             for side in present]
    return teams, {t.side: draw(skills) for t in teams}


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_the_chances_of_a_rounds_results_add_up_to_one(
        drawn: tuple[list[Team], dict[str, Skill]]) -> None:
    teams, sides = drawn
    chances = predict(teams, sides)
    # One result per side that can win (the Boss wins with the door teams, never alone).
    assert len(chances) == sum(1 for t in teams if BOSS_TEAM not in t.side)
    assert sum(chances) == pytest.approx(1.0)
    assert all(0.0 <= chance <= 1.0 for chance in chances)


@settings(max_examples=100, deadline=None)
@given(st.lists(skills, min_size=1, max_size=4), skills, st.integers(2, 3))
def test_mirrored_teams_are_even(players: list[Skill], teammate: Skill, count: int) -> None:
    """Teams of the same players with the same side teammate: each as likely."""
    strength = Strength(sum(p.mu for p in players) + teammate.mu,
                        sum(p.sigma ** 2 for p in players) + teammate.sigma ** 2, len(players))
    weights = [[float(i == j) for j in range(count)] for i in range(count)]
    assert outcome_chances([strength] * count, weights, temperature=10.0) == pytest.approx(
        [1 / count] * count)


@settings(max_examples=200, deadline=None)
@given(rounds(), st.data(), st.floats(0.5, 30))
def test_a_stronger_player_makes_their_side_likelier(
        drawn: tuple[list[Team], dict[str, Skill]], data: st.DataObject, gain: float) -> None:
    teams, sides = drawn
    t = data.draw(st.sampled_from([n for n, one in enumerate(teams)
                                   if BOSS_TEAM not in one.side]))
    before = predict(teams, sides)
    first = teams[t].seats[0][0]
    stronger = Hand(first.player, Skill(first.skill.mu + gain, first.skill.sigma))
    better = [*teams]
    better[t] = Team(teams[t].side, ((stronger,), *teams[t].seats[1:]), teams[t].won)
    after = predict(better, sides)
    results = [side_of(one.side) for one in teams if BOSS_TEAM not in one.side]
    mine = results.index(side_of(teams[t].side))
    assert after[mine] > before[mine]
    # Every other result less likely; but for the other door team, which shares its
    # tunnels: a stronger blue player helps green against the saboteurs too.
    assert all(a < b for a, b, side in zip(after, before, results, strict=True)
               if side != results[mine] and {side, results[mine]} != DOOR_TEAMS)


def test_even_players_get_their_sides_base_rate() -> None:
    """Newcomers only, round after round, the saboteurs winning three rounds in four: the
    side teammates learn it, and the model then gives even players that base rate."""
    sides: dict[str, Skill] = {}
    for played in range(400):
        diggers = team("base", "gold-diggers", [Skill()] * 3, won=played % 4 == 0,
                       names=[f"d{played}-{n}" for n in range(3)])
        saboteurs = team("base", "saboteurs", [Skill()], won=played % 4 != 0,
                         names=[f"s{played}"])
        for one in (diggers, saboteurs):
            sides.setdefault(one.side, prior_of(one.side))
        sides.update(rate_round([diggers, saboteurs], sides).sides)
    newcomers = [team("base", "gold-diggers", [Skill()] * 3), team("base", "saboteurs", [Skill()])]
    assert predict(newcomers, sides) == pytest.approx([0.25, 0.75], abs=0.04)


def test_the_boss_helps_both_door_teams_against_the_saboteurs_alone() -> None:
    blue, green = team("saboteur2", "blue", [Skill()]), team("saboteur2", "green", [Skill()])
    saboteurs = team("saboteur2", "saboteurs", [Skill()])
    boss = team("saboteur2", BOSS_TEAM, [Skill()])
    even = predict([blue, green, saboteurs, boss], priors(blue, green, saboteurs, boss))
    assert even == pytest.approx([1 / 3] * 3)
    strong = team("saboteur2", BOSS_TEAM, [Skill(35.0)])
    chances = predict([blue, green, saboteurs, strong], priors(blue, green, saboteurs, boss))
    assert chances[0] == pytest.approx(chances[1]) and chances[2] < 1 / 3
    # A door team's result: its own strength, a part of the other's, and the Boss's.
    edge = model.DOOR_EDGE
    assert result_weights([blue, green, saboteurs, boss]) == [
        [(1 + edge) / 2, (1 - edge) / 2, 0, 1], [(1 - edge) / 2, (1 + edge) / 2, 0, 1],
        [0, 0, 1, 0]]


def three_way(blue_skill: float, *, won: str) -> tuple[list[Team], dict[str, Skill]]:
    teams = [team("saboteur2", "blue", [Skill(blue_skill, 3.0)] * 2, won="blue" in won),
             team("saboteur2", "green", [Skill(25.0, 3.0)] * 2, won="green" in won),
             team("saboteur2", "saboteurs", [Skill(25.0, 3.0)], won=won == "saboteurs"),
             team("saboteur2", BOSS_TEAM, [Skill(25.0, 3.0)], won=won != "saboteurs")]
    return teams, priors(*teams)


def moved(teams: list[Team], sides: dict[str, Skill]) -> dict[str, float]:
    after = rate_round(teams, sides).players
    return {t.side.split(":")[1]: after[t.seats[0][0].player or ""].mu
            - t.seats[0][0].skill.mu for t in teams}


def test_a_door_teams_win_moves_the_other_door_team_down_too() -> None:
    change = moved(*three_way(25.0, won="green"))
    assert change["green"] > 0 and change[BOSS_TEAM] > 0
    assert change["blue"] < 0 and change["saboteurs"] < 0


def test_a_favoured_door_team_losing_to_the_other_loses_more() -> None:
    """The three-way surprise: blue was favoured, green took the gold."""
    even = moved(*three_way(25.0, won="green"))
    favoured = moved(*three_way(35.0, won="green"))
    assert favoured["blue"] < even["blue"] < 0 < even["green"]


def test_both_door_teams_winning_share_the_round() -> None:
    change = moved(*three_way(25.0, won="blue+green"))
    assert change["blue"] == pytest.approx(change["green"]) and change["blue"] > 0
    assert change["saboteurs"] < 0 < change[BOSS_TEAM]


@settings(max_examples=60, deadline=None)
@given(st.lists(skills, min_size=1, max_size=4), st.lists(skills, min_size=1, max_size=3),
       st.booleans())
def test_a_base_round_moves_as_openskills_plackett_luce(
        diggers: list[Skill], saboteurs: list[Skill], diggers_won: bool) -> None:
    """The base game's update is what it was before the softmax: OpenSkill's
    Plackett-Luce for a winner and a loser."""
    teams = [team("base", "gold-diggers", diggers, won=diggers_won),
             team("base", "saboteurs", saboteurs, won=not diggers_won)]
    sides = priors(*teams)
    ours = rate_round(teams, sides)
    openskill = PlackettLuce(mu=25.0, sigma=25 / 3, beta=model.BETA, tau=0.0)
    with_tau = [[openskill.rating(mu=s.mu, sigma=math.sqrt(s.sigma ** 2 + model.TAU ** 2))
                 for s in [*[h[0].skill for h in t.seats], sides[t.side]]] for t in teams]
    theirs = openskill.rate(with_tau, ranks=[1.0 if t.won else 2.0 for t in teams])
    for t, rated in zip(teams, theirs, strict=True):
        for (hand,), rating in zip(t.seats, rated, strict=False):
            after = ours.players[hand.player or ""]
            assert (after.mu, after.sigma) == pytest.approx((rating.mu, rating.sigma))
        assert (ours.sides[t.side].mu, ours.sides[t.side].sigma) == pytest.approx(
            (rated[-1].mu, rated[-1].sigma))
