"""The rating model: OpenSkill's Plackett-Luce over the teams of one round, with each side's
virtual teammate (pure Python, no Django: bench/ratings.py runs it on self-play).

A round of Saboteur is a team game whose teams are known only once the round's roles are
revealed: the gold-diggers against the saboteurs (Saboteur 2: the blue team, the green
team and the saboteurs). The sides are not equal, and how unequal depends on the ruleset
and on how many seats each side got this round, so no advantage is set by hand: each
team plays with a virtual teammate, one per ruleset x side x the team's realised size,
whose rating is learned from every rated round like a player's (the faction-as-teammate
model). A team's strength is then the sum of its players' and its side teammate's mu
(OpenSkill's team rating), so a saboteur who wins where saboteurs usually win gains
little, and one who wins where they seldom do gains much.

A seat played by several hands in one round (a player left and someone took the seat
over, or a bot stood in) counts as one player whose skill is the mix of theirs by their
share of the seat's turns (mu and variance averaged by share). The seat's update is then
shared among them as the sum-of-skills model shares a team's: each hand's mu moves by
its part of the seat's variance (share x sigma² / the seat's), and its variance shrinks
by the same part, so a hand who played the whole seat gets exactly OpenSkill's update and
one who played a tenth of it a tenth of the information. Bots take part at a fixed skill
and are never updated.

Each rated round adds `TAU` to every rated hand's sigma before the update (OpenSkill's
additive dynamics, done here so that a mixed seat stays exact); certainty also decays
with months without a rated round (`decayed`), never above the starting sigma.

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
from statistics import NormalDist

from openskill.models import PlackettLuce

DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
# The performance noise of one seat in one round, for predicting who wins: a round of
# Saboteur is luckier than OpenSkill's default (beta) assumes, and more so the more seats
# it has; this value calibrates the predicted chances on self-play (bench/ratings.py).
SEAT_NOISE = 6.0
DOOR_TEAMS = frozenset({"blue", "green"})  # Saboteur 2's digger teams
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
    lost (Plackett-Luce ranks: every winner first, every loser after)."""

    side: str
    seats: tuple[tuple[Hand, ...], ...]
    won: bool


@dataclass
class Outcome:
    """The skills after the round: each rated player's and each side teammate's, and
    what the model predicted before it (each team's chance of winning)."""

    players: dict[str, Skill] = field(default_factory=dict)
    sides: dict[str, Skill] = field(default_factory=dict)
    predicted: list[float] = field(default_factory=list)


def side_key(ruleset: str, side: str, size: int) -> str:
    return f"{ruleset}:{side}:{size}"


def side_prior(size: int) -> Skill:
    """A side teammate before any round: it makes an average team of any size as strong
    as one average player (the sum of mus is then DEFAULT_MU), so the first prediction
    of every size is an even match, and the rounds teach the rest."""
    return Skill(DEFAULT_MU * (1 - size), DEFAULT_SIGMA)


def new_model(beta: float = BETA) -> PlackettLuce:
    # A mixed seat is shared out here (see the module), not by OpenSkill's own weights,
    # and the dynamics are added here: tau 0 inside.
    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA, beta=beta, tau=0.0)


MODEL = new_model()


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


def _strength(team: Team, sides: Mapping[str, Skill]) -> Skill:
    skills = [_mix(seat) for seat in team.seats] + [sides[team.side]]
    return Skill(sum(s.mu for s in skills), math.sqrt(sum(s.sigma ** 2 for s in skills)))


def predict(teams: Sequence[Team], sides: Mapping[str, Skill]) -> list[float]:
    """Each team's chance of winning the round, before it is played: of outplaying every
    other team, each pair by the normal model (Thurstone) with SEAT_NOISE of performance
    noise per seat, so a big table's round is as uncertain as it is. The two door teams
    of Saboteur 2 do not outplay each other to win (both win when the gold is open to
    both), so each must only outplay the other sides, and the chances need not add up to
    one."""
    strengths = [_strength(team, sides) for team in teams]
    doors = [team.side.split(":")[1] in DOOR_TEAMS for team in teams]
    chances = []
    for i, mine in enumerate(strengths):
        chance = 1.0
        for j, other in enumerate(strengths):
            if j != i and not (doors[i] and doors[j]):
                seats = len(teams[i].seats) + len(teams[j].seats)
                spread = math.sqrt(seats * SEAT_NOISE ** 2 + mine.sigma ** 2 + other.sigma ** 2)
                chance *= NormalDist().cdf((mine.mu - other.mu) / spread)
        chances.append(chance)
    return chances


def rate_round(teams: Sequence[Team], sides: Mapping[str, Skill]) -> Outcome:
    """The round's update: `sides` holds each team's side teammate (by `team.side`).
    Needs a winner and a loser; each rated player is in one seat of one team."""
    if len(teams) < 2 or all(t.won for t in teams) or not any(t.won for t in teams):
        raise ValueError("a rated round needs a winning and a losing team")
    outcome = Outcome(predicted=predict(teams, sides))
    hands = [_hands_with_dynamics(team) for team in teams]
    mixed = [[_mix(seat) for seat in seats] for seats in hands]
    side_skills = [_with_dynamics(sides[team.side]) for team in teams]
    ratings = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in [*seats, side]]
               for seats, side in zip(mixed, side_skills, strict=True)]
    rated = MODEL.rate(ratings, ranks=[1.0 if team.won else 2.0 for team in teams])
    for t, team in enumerate(teams):
        after = rated[t]
        outcome.sides[team.side] = Skill(after[-1].mu, after[-1].sigma)
        for s, seat_hands in enumerate(hands[t]):
            seat_after = Skill(after[s].mu, after[s].sigma)
            for hand in seat_hands:
                if hand.player is not None:
                    outcome.players[hand.player] = _share_of(hand, mixed[t][s], seat_after,
                                                             alone=len(seat_hands) == 1)
    return outcome


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
