"""How far each of the beat's periodic sweeps has got: bookkeeping of no feature's (the
clock's sweeps, the reminders, the digests each keep a mark)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class SweepMark(models.Model):
    """How far a periodic sweep (games.clock.services.sweeps) has got: every deadline (or reminder
    time) up to `reached` has been handed to a task. A sweep claims the interval from
    here to now with one conditional UPDATE of this row, so two sweeps never take the
    same interval and no per-game row is written to claim it."""

    name = models.CharField(_("sweep"), max_length=40, unique=True)
    reached = models.DateTimeField(_("reached"))

    class Meta:
        verbose_name = _("sweep mark")
        verbose_name_plural = _("sweep marks")

    def __str__(self) -> str:
        return f"{self.name} up to {self.reached:%Y-%m-%d %H:%M:%S}"
