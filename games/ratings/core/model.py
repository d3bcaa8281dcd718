"""The rating model: a softmax over the ways a round can end, from the teams' strengths
with each side's virtual teammate, and the ratings moved by its surprise (pure Python, no
Django: bench/ratings.py runs it on self-play).

A round of Saboteur is a team game whose teams are known only once the round's roles are
revealed: the gold-diggers against the saboteurs (Saboteur 2: the blue team, the green
team and the saboteurs, with the Boss allied to both door teams:
games.ratings.core.sides). The sides are not equal, and how unequal depends on the
ruleset and on how many seats each side got this round, so no advantage is set by hand:
each team plays with a virtual teammate, one per ruleset x side x the team's realised
size, whose rating is learned from every rated round like a player's (the
faction-as-teammate model). A team's strength is the sum of its players' and its side
teammate's mu, so a saboteur who wins where saboteurs usually win gains little, and one
who wins where they seldom do gains much.

**Prediction.** Each result of the round (a side that can win it: the diggers or the
saboteurs; blue, green or the saboteurs) gets a chance by a softmax over the results of
their strengths over a temperature (`outcome_chances`): a door team's result weighs its
own strength, the other door team's a little (`DOOR_EDGE`) and the Boss's, so a favoured
door team can lose to the other door team, which a pairwise prediction (each side against
the others one by one) could not say. Both door teams winning gives each half the round.
The temperature for predicting (`prediction_temperature`) counts the teams' uncertainty
and each seat's luck, so a big table's round is as uncertain as it is.

**Update.** The ratings move by the softmax's surprise, Weng and Lin's moment matching
(as OpenSkill's Plackett-Luce does it): each team's strength by its variance times the
gradient of the log chance of what happened, shared among its members by their
variance, and its variance shrinks by the curvature. In the base game that is exactly
OpenSkill's Plackett-Luce update for a winner and a loser (as before the softmax); in
Saboteur 2 a door team also loses when the other one takes the gold, more so when it was
favoured. The update keeps OpenSkill's temperature (`update_temperature`).

A seat played by several hands in one round (a player left and someone took the seat
over, or a bot stood in) counts as one player whose skill is the mix of theirs by their
share of the seat's turns (mu and variance averaged by share). The seat's update is then
shared among them as the sum-of-skills model shares a team's: each hand's mu moves by
its part of the seat's variance (share x sigma² / the seat's), and its variance shrinks
by the same part, so a hand who played the whole seat gets exactly the seat's update and
one who played a tenth of it a tenth of the information. Bots take part at a fixed skill
and are never updated.

Each rated round adds `TAU` to every rated hand's sigma before the update (OpenSkill's
additive dynamics); certainty also decays with months without a rated round (`decayed`),
never above the starting sigma.

A rating is provisional while the model knows little of it: while its variance, decayed
to today, is above PROVISIONAL_VARIANCE (three quarters of a newcomer's). That is what
the rounds told, not how many there were: a round at a big table, or a tenth of a seat's
turns, tells less than a whole seat at a small one, and months away undo some of it, so
a player back after a long break is provisional again (`settled_until`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from games.ratings.core.sides import ALLIES, DOOR_TEAMS

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
# The luck of one seat in one round, for predicting it: a round of Saboteur is luckier
# than the update's beta per team says, and more so the more seats it has. Chosen on
# self-play (bench/ratings.py, bench/README.md "Ratings"), as is DOOR_EDGE.
SEAT_NOISE = 4.0
# How much more a door team's own strength counts for its win than the other door
# team's: 1 would make blue and green rivals as much as either is the saboteurs'; 0 would
# make which of them takes the gold pure luck (result_weights).
DOOR_EDGE = 0.5
KAPPA = 0.0001  # the least share of its variance a round leaves a member (OpenSkill's)
# A rating is provisional while its variance is above this: about 8 rated rounds of whole
# seats at tables of 3, 10 at tables of 4 and 22 at tables of 10 settle it, and 40 rounds
# at tables of 4 keep it settled for about 15 months away (bench/provisional.py).
PROVISIONAL_VARIANCE = 0.75 * DEFAULT_SIGMA ** 2
# Variance added per month (30.44 days) without a rated round: a year away takes a settled
# rating (sigma about 2) back to sigma 5, never above DEFAULT_SIGMA.
VARIANCE_PER_MONTH = 2.0
MONTH_SECONDS = 30.44 * 86400
# What a rating is shown as: an Elo-like number (1500 for a newcomer's mu; 40 points a mu).
SHOWN_BASE, SHOWN_PER_MU = 1500, 40

# The bots' fixed skills (never updated). The normal level is taken to play like a
# newcomer; the strong level's edge over it is what bench/ratings.py measures between
# the two levels' learned ratings (bench/README.md "Ratings"). "random" is the bench's
# weak player only (no game seats a random bot).
BOT_SKILL_SIGMA = 1.0


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> int:
        """The rating as players see it."""
        return round(SHOWN_BASE + SHOWN_PER_MU * (self.mu - DEFAULT_MU))


BOT_SKILLS: dict[str, Skill] = {
    "normal": Skill(DEFAULT_MU, BOT_SKILL_SIGMA),
    "strong": Skill(DEFAULT_MU + 1.5, BOT_SKILL_SIGMA),
}


@dataclass(frozen=True)
class Hand:
    """One player's part in one seat's round: `player` names a rated player (None: a bot
    or someone unrated, at the fixed `skill`), `share` is their part of the seat's turns
    (a seat's shares add up to 1)."""

    player: str | None
    skill: Skill
    share: float = 1.0


@dataclass(frozen=True)
class Team:
    """One side of a round: its side's key, its seats (each one or more hands), won or
    lost."""

    side: str
    seats: tuple[tuple[Hand, ...], ...]
    won: bool


@dataclass(frozen=True)
class Strength:
    """A team's strength in one round: the sum of its seats' and its side teammate's mu
    and of their variances, and its seats."""

    mu: float
    variance: float
    seats: int


@dataclass
class Outcome:
    """The skills after the round: each rated player's and each side teammate's."""

    players: dict[str, Skill] = field(default_factory=dict)
    sides: dict[str, Skill] = field(default_factory=dict)


def side_key(ruleset: str, side: str, size: int) -> str:
    return f"{ruleset}:{side}:{size}"


def side_prior(size: int, *, ally: bool = False) -> Skill:
    """A side teammate before any round: it makes an average team of any size as strong
    as one average player (the sum of mus is then DEFAULT_MU), so the first prediction
    of every size is an even match, and the rounds teach the rest; an ally (the Boss,
    games.ratings.core.sides.ALLIES) adds nothing to its sides before any round."""
    return Skill(DEFAULT_MU * ((0 if ally else 1) - size), DEFAULT_SIGMA)


def prior_of(key: str) -> Skill:
    """The side teammate before any round of a side key ("saboteur2:blue:3")."""
    _ruleset, side, size = key.split(":")
    return side_prior(int(size), ally=side in ALLIES)


def _with_dynamics(skill: Skill) -> Skill:
    return Skill(skill.mu, math.sqrt(skill.sigma ** 2 + TAU ** 2))


def _mix(hands: Sequence[Hand]) -> Skill:
    total = sum(hand.share for hand in hands) or 1.0
    mu = sum(hand.share * hand.skill.mu for hand in hands) / total
    variance = sum(hand.share * hand.skill.sigma ** 2 for hand in hands) / total
    return Skill(mu, math.sqrt(variance))


def _hands_with_dynamics(team: Team) -> list[list[Hand]]:
    return [[Hand(h.player, _with_dynamics(h.skill) if h.player else h.skill, h.share)
             for h in seat] for seat in team.seats]


def _strength(team: Team, sides: Mapping[str, Skill]) -> Strength:
    skills = [_mix(seat) for seat in team.seats] + [sides[team.side]]
    return Strength(sum(s.mu for s in skills), sum(s.sigma ** 2 for s in skills),
                    len(team.seats))


def side_of(key: str) -> str:
    """The side of a side key ("saboteur2:blue:3" is "blue")."""
    return key.split(":")[1]


def result_weights(teams: Sequence[Team]) -> list[list[float]]:
    """How a round can end, one result per side that can win it (every team but the
    allies: games.ratings.core.sides.ALLIES), each as its weights on the teams' strengths:
    the result's own team, the allies that win with it, and (with both door teams at the
    table) the other door team's part: a door team's result counts its own strength by
    (1 + DOOR_EDGE) / 2 and the other's by (1 - DOOR_EDGE) / 2, because the door teams
    dig the same tunnels and which of them the gold falls to is luckier than whether it is
    found."""
    sides = [side_of(team.side) for team in teams]
    doors = sum(side in DOOR_TEAMS for side in sides) == 2

    def weight(mine: str, other: str, *, own: bool) -> float:
        if own:
            return (1 + DOOR_EDGE) / 2 if doors and mine in DOOR_TEAMS else 1.0
        if mine in ALLIES.get(other, ()):
            return 1.0
        return (1 - DOOR_EDGE) / 2 if doors and {mine, other} == DOOR_TEAMS else 0.0

    return [[weight(mine, other, own=i == j) for j, other in enumerate(sides)]
            for i, mine in enumerate(sides) if mine not in ALLIES]


def prediction_temperature(strengths: Sequence[Strength]) -> float:
    """The softmax's temperature for predicting a round: the teams' uncertainty and every
    seat's luck."""
    return math.sqrt(sum(s.variance + s.seats * SEAT_NOISE ** 2 for s in strengths))


def update_temperature(strengths: Sequence[Strength]) -> float:
    """The softmax's temperature in the update: OpenSkill's (the teams' uncertainty and a
    beta of luck per team), so a base round moves the ratings as it did before the softmax
    (bench/README.md "Ratings": the prediction's temperature in the update too would move
    them less and settle them later)."""
    return math.sqrt(sum(s.variance + BETA ** 2 for s in strengths))


def softmax(logits: Sequence[float]) -> list[float]:
    top = max(logits)
    weights = [math.exp(logit - top) for logit in logits]
    total = sum(weights)
    return [weight / total for weight in weights]


def outcome_chances(strengths: Sequence[Strength], weights: Sequence[Sequence[float]],
                    temperature: float) -> list[float]:
    """Each result's chance: a softmax over the results of their strengths (each
    result's `weights` on the teams' strengths) over the temperature. Two teams make it the
    logistic of their difference; three make a favoured door team lose to the other door
    team as well as to the saboteurs."""
    return softmax([sum(w * s.mu for w, s in zip(row, strengths, strict=True)) / temperature
                    for row in weights])


def predict(teams: Sequence[Team], sides: Mapping[str, Skill]) -> list[float]:
    """Each result's chance before the round is played (`result_weights`' order: the
    teams that can win, in order), from the players' skills and the side teammates in
    `sides` (by `team.side`)."""
    strengths = [_strength(team, sides) for team in teams]
    return outcome_chances(strengths, result_weights(teams), prediction_temperature(strengths))


def observed(teams: Sequence[Team]) -> list[float]:
    """What each result got of the round: 1 to the team that won it, a half each when both
    door teams did."""
    won = [float(team.won) for team in teams if side_of(team.side) not in ALLIES]
    return [w / (sum(won) or 1.0) for w in won]


def rate_round(teams: Sequence[Team], sides: Mapping[str, Skill]) -> Outcome:
    """The round's update: `sides` holds each team's side teammate (by `team.side`).
    Needs a winner and a loser among the results; each rated player is in one seat of one
    team.

    The update is the softmax's own surprise (Weng and Lin's moment matching, as
    OpenSkill's Plackett-Luce does it): each team's strength moves by its variance times
    the gradient of the log chance of what happened, shared among its members by their
    variance; its variance shrinks by the curvature (times Weng and Lin's gamma, its sigma
    over the temperature). With two teams this is OpenSkill's Plackett-Luce update for a
    winner and a loser, exactly."""
    results = [t for t in teams if side_of(t.side) not in ALLIES]
    if len(results) < 2 or all(t.won for t in results) or not any(t.won for t in results):
        raise ValueError("a rated round needs a winning and a losing team")
    hands = [_hands_with_dynamics(team) for team in teams]
    mixed = [[_mix(seat) for seat in seats] for seats in hands]
    side_skills = [_with_dynamics(sides[team.side]) for team in teams]
    members = [[*seats, side] for seats, side in zip(mixed, side_skills, strict=True)]
    strengths = [Strength(sum(s.mu for s in skills), sum(s.sigma ** 2 for s in skills),
                          len(team.seats))
                 for skills, team in zip(members, teams, strict=True)]
    weights = result_weights(teams)
    c = update_temperature(strengths)
    chances = outcome_chances(strengths, weights, c)
    outcome, got = Outcome(), observed(teams)
    for t, team in enumerate(teams):
        mine = [row[t] for row in weights]
        mean = sum(w * p for w, p in zip(mine, chances, strict=True))
        surprise = sum(w * y for w, y in zip(mine, got, strict=True)) - mean
        curvature = sum(w * w * p for w, p in zip(mine, chances, strict=True)) - mean * mean
        variance = strengths[t].variance
        omega = variance * surprise / c
        delta = math.sqrt(variance) / c * variance * curvature / c ** 2
        after = [_moved(skill, variance, omega, delta) for skill in members[t]]
        outcome.sides[team.side] = after[-1]
        for s, seat_hands in enumerate(hands[t]):
            for hand in seat_hands:
                if hand.player is not None:
                    outcome.players[hand.player] = _share_of(hand, mixed[t][s], after[s],
                                                             alone=len(seat_hands) == 1)
    return outcome


def _moved(skill: Skill, team_variance: float, omega: float, delta: float) -> Skill:
    """One member's part of its team's move: by its share of the team's variance."""
    part = skill.sigma ** 2 / team_variance
    return Skill(skill.mu + part * omega,
                 skill.sigma * math.sqrt(max(1 - part * delta, KAPPA)))


def _share_of(hand: Hand, seat_before: Skill, seat_after: Skill, *, alone: bool) -> Skill:
    """One hand's part of its seat's update (see the module)."""
    if alone:
        return seat_after
    part = hand.share * hand.skill.sigma ** 2 / seat_before.sigma ** 2
    mu = hand.skill.mu + part * (seat_after.mu - seat_before.mu)
    shrink = 1 - part * (1 - seat_after.sigma ** 2 / seat_before.sigma ** 2)
    return Skill(mu, hand.skill.sigma * math.sqrt(max(shrink, 0.0001)))


def decayed(skill: Skill, last_round_at: datetime, now: datetime) -> Skill:
    """The skill with its certainty decayed by the months since its last rated round."""
    months = max(0.0, (now - last_round_at).total_seconds() / MONTH_SECONDS)
    variance = min(DEFAULT_SIGMA ** 2, skill.sigma ** 2 + months * VARIANCE_PER_MONTH)
    return Skill(skill.mu, max(skill.sigma, math.sqrt(variance)))


def settled_until(skill: Skill, last_round_at: datetime) -> datetime | None:
    """Until when the rating, as it stood after its last rated round, stays settled: its
    variance grows by VARIANCE_PER_MONTH from then (`decayed`) and passes
    PROVISIONAL_VARIANCE at this moment. None: provisional already."""
    room = PROVISIONAL_VARIANCE - skill.sigma ** 2
    if room < 0:
        return None
    return last_round_at + timedelta(seconds=room / VARIANCE_PER_MONTH * MONTH_SECONDS)
