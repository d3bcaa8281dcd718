"""The clock's settings kept on a game and on a seat (games.clock.services.turn_clock.timing reads
them).

A game plays either with a fixed time per move (`Game.hours_per_move`, the default) or
with a time bank per seat (`bank_hours` set): each seat starts with `bank_hours`, a move
adds `increment_hours` up to `bank_max_hours`; `banks` holds each seat's bank in seconds
as it stood when its last turn ended (public: every seat may see every bank). Days off
stop every clock on `weekdays_off` (0 is Monday) in each seat's own time zone and on the
table's `dates_off` (ISO dates). `stops` are the table's pauses, [start, end] in ISO
form, during which no clock runs. A seat's quiet hours (`quiet_from`, `quiet_to`, local
hours; the player sets them on the home, at most once a day: `quiet_changed_at`) hold its
emails at once and, from its next turn on, stop its clock (a bank) or keep its deadlines
out of them (a fixed time per move): `turn_clock` keeps the time zone and quiet hours the
seat to act had when its turn began (games.clock.core.rules).
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

MAX_BANK_HOURS = 24 * 30


class GameClockFields(models.Model):
    bank_hours = models.PositiveIntegerField(
        _("time bank (hours)"), null=True, blank=True,
        validators=[MaxValueValidator(MAX_BANK_HOURS)])
    increment_hours = models.PositiveIntegerField(
        _("time added per move (hours)"), default=0,
        validators=[MaxValueValidator(MAX_BANK_HOURS)])
    bank_max_hours = models.PositiveIntegerField(
        _("time bank cap (hours)"), null=True, blank=True,
        validators=[MaxValueValidator(MAX_BANK_HOURS)])
    banks = models.JSONField(_("time banks (seconds)"), default=dict, blank=True)
    weekdays_off = models.JSONField(_("weekdays off"), default=list, blank=True)
    dates_off = models.JSONField(_("dates off"), default=list, blank=True)
    stops = models.JSONField(_("pauses"), default=list, blank=True, editable=False)
    # The table's pause (games.clock.services.table_pause): the proposal and its votes while
    # it is open or running ({} without one), and who has proposed one (once each).
    pause = models.JSONField(_("pause proposed"), default=dict, blank=True, editable=False)
    pause_proposers = models.JSONField(_("seats that proposed a pause"), default=list,
                                       blank=True, editable=False)
    # The seat to act's time zone and quiet hours as its turn began ({"seat": 2, "zone":
    # "Europe/Rome", "quiet": [22, 8] or null}): the running turn counts with these; and
    # "plain", the deadline the turn's time gave, when its quiet hours moved it.
    turn_clock = models.JSONField(_("the running turn's own settings"), default=dict,
                                  blank=True, editable=False)
    # The version whose turn was nudged (games.clock.services.nudges): once per turn.
    nudged_version = models.PositiveIntegerField(_("nudged at version"), null=True,
                                                 blank=True, editable=False)

    class Meta:
        abstract = True


class SeatClockFields(models.Model):
    quiet_from = models.PositiveSmallIntegerField(
        _("quiet hours from"), null=True, blank=True, validators=[MaxValueValidator(23)])
    quiet_to = models.PositiveSmallIntegerField(
        _("quiet hours until"), null=True, blank=True, validators=[MaxValueValidator(23)])
    quiet_changed_at = models.DateTimeField(_("quiet hours changed at"), null=True,
                                            blank=True, editable=False)

    class Meta:
        abstract = True
