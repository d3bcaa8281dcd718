"""Muting another player's table talk, for oneself only (the seat page; the filter every
page and email applies is games.talk.core.mutes.muted_seats)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.kit.service_errors import ServiceError
from games.seats.core.seat import Seat
from games.talk.core.mutes import TalkMute


def _other_seat(seat: Seat, number: int) -> Seat:
    other = Seat.objects.filter(game_id=seat.game_id, number=number).first()
    if other is None or other.pk == seat.pk:
        raise ServiceError("bad_seat", _("Choose another player of this table."))
    return other


def mute(seat: Seat, number: int) -> None:
    """Hide seat `number`'s talk from `seat`'s pages and emails (nobody else's)."""
    other = _other_seat(seat, number)
    TalkMute.objects.filter(by_seat=seat, muted_seat=other).delete()  # a stale one
    try:
        with transaction.atomic():
            TalkMute.objects.create(game_id=seat.game_id, by_seat=seat,
                                    by_mailbox=seat.mailbox_key, muted_seat=other,
                                    muted_mailbox=other.mailbox_key)
    except IntegrityError:
        pass  # muted at the same moment by another click


def unmute(seat: Seat, number: int) -> None:
    TalkMute.objects.filter(by_seat=seat, muted_seat=_other_seat(seat, number)).delete()
