"""What the ratings keep (games.ratings; docs/playing.md "Ratings").

- PlayerRating: one person's rating in one ruleset, by the hash of their mailbox key
  (games.people.core.mailboxes), never the address: OpenSkill's mu and sigma as of the last
  rated round, how many rated rounds it counts, when the last one was and until when it
  stays settled (its certainty decays: games.ratings.core.model.settled_until; none while it
  is provisional).
- SideRating: a side's virtual teammate (ruleset x side x the team's realised size),
  learned from the rated rounds like a player (the faction-as-teammate model).
- RatedRound: a round of a rated game, claimed once its roles are revealed (the unique
  pair is the claim: a round is never rated twice), with whether it counted for the
  ratings and why not (games.ratings.services.qualifying).
- RatingChange: what one counted round did to one rated player's rating (mu before and
  after, sigma after), written with the ratings it moved: the round's change shown at its
  end ("+31, now 1602") and the history a player's public page plots. By the hash of the
  mailbox key, like the rating; erased with it.

- RatingDue: the ratings' outbox: a rated game with a round ended and not rated yet,
  written in the transaction of the move that ended it (games.moves.core.turn_events
  .RoundEnded), claimed and deleted by the ratings' own sweep, kept for the next sweep
  when rating fails (`attempts`), so a round is never left unrated by one failure.

Who played each seat's turns is the seats' history (games.seats.core.history.PastHolder),
read by games.ratings.services.turn_shares.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.game.core.game import Game


class PlayerRating(models.Model):
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64)
    ruleset = models.CharField(_("ruleset"), max_length=20)
    mu = models.FloatField()
    sigma = models.FloatField()
    rounds = models.PositiveIntegerField(_("rated rounds"), default=0)
    last_round_at = models.DateTimeField(_("last rated round"), default=timezone.now)
    settled_until = models.DateTimeField(_("settled until"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["mailbox", "ruleset"],
                                               name="rating_one_per_ruleset")]
        indexes = [models.Index(fields=["ruleset", "-mu"], name="rating_ruleset_mu")]

    def __str__(self) -> str:
        return f"{self.mailbox[:8]} {self.ruleset}"


class SideRating(models.Model):
    ruleset = models.CharField(max_length=20)
    side = models.CharField(max_length=20)
    size = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    rounds = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ruleset", "side", "size"],
                                               name="side_rating_unique")]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.side} x{self.size}"


class RatedRound(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rated_rounds")
    round = models.PositiveSmallIntegerField()
    # The sides and their result (no address: seat numbers, sides, who won), and whether
    # the round counted: {"sides": [...], "counted": bool, "why": "" or the reason}.
    result = models.JSONField(default=dict)
    rated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "round"],
                                               name="rated_round_once")]

    def __str__(self) -> str:
        return f"{self.game_id} r{self.round}"


class RatingChange(models.Model):
    rated_round = models.ForeignKey(RatedRound, on_delete=models.CASCADE,
                                    related_name="changes")
    mailbox = models.CharField(_("mailbox (hash)"), max_length=64)
    ruleset = models.CharField(_("ruleset"), max_length=20)
    seat = models.PositiveSmallIntegerField(_("seat number"))
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["rated_round", "mailbox"],
                                               name="rating_change_once")]
        # A player's history in one ruleset, newest first (their public page).
        indexes = [models.Index(fields=["mailbox", "ruleset", "-rated_at"],
                                name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.mailbox[:8]} {self.rated_round_id}"


class RatingDue(models.Model):
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    attempts = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"rate game {self.game_id}"
