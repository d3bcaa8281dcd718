"""The choices of games and seats: emails, deadlines, who plays a seat, open seats."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class EmailMode(models.TextChoices):
    EACH_TURN = "each_turn", _("an email for each turn")
    DAILY_DIGEST = "digest", _("one daily digest")
    LINKS_ONLY = "links_only", _("no email, links only")


class ConfirmMoves(models.TextChoices):
    """Whether the seat page asks once more before a card is played (a guard against
    mis-taps on phones): the page's script decides "on touch screens" on the device."""

    TOUCH = "touch", _("on touch screens")
    ALWAYS = "always", _("always")
    NEVER = "never", _("never")


class TimeoutPolicy(models.TextChoices):
    AUTO_PASS = "auto_pass", _("the server passes for the player")
    WAIT = "wait", _("wait and tell the moderators")
    BOT = "bot", _("a bot plays for the absent player")


class WhileOpen(models.TextChoices):
    """Who holds a seat while it looks for a new player (a game's setting, games.handover)."""

    BOT = "bot", _("a bot plays it")
    WAIT = "wait", _("the game waits")


class BotLevel(models.TextChoices):
    """How the game's bots play (games.bots levels): a game's setting."""

    NORMAL = "normal", _("normal")
    STRONG = "strong", _("strong: reads the table and looks ahead")


class SeatKind(models.TextChoices):
    """Who plays a seat: a person (by link and email) or a bot (games.moves.services.bot_turns)."""

    PERSON = "person", _("person")
    BOT = "bot", _("bot")
