"""What a push carries: the notification's title and words, its tag (the game: a newer
alert replaces an older one on the device), where a click leads and the signed receipt
id. Nothing of the seat beyond the game's name and what kind of alert it is: no hand,
no role, no seat link. A click opens the game through the person's home
(/me/<token>/open/<game>), a link its owner may see, which the service worker hands to
the browser and never stores.

Built at send time, in the seat's language, like a letter.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core import signing
from django.templatetags.static import static
from django.urls import reverse
from django.utils import formats, translation
from django.utils.translation import gettext as _

from games.push.core.push_rows import AlertKind, PushAlert

RECEIPT_SALT = "games.push.receipt"


def receipt_id(alert_id: int) -> str:
    """The alert's id, signed: only the device the push reached can post its receipt."""
    return signing.dumps(alert_id, salt=RECEIPT_SALT, compress=False)


def alert_of_receipt(signed: str) -> int | None:
    """The alert id a receipt names, or None for a bad signature."""
    try:
        value = signing.loads(signed, salt=RECEIPT_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def topic(game_public_id: str) -> str:
    """The Topic header (RFC 8030: at most 32 URL-safe base64 characters): one per game,
    so the push service keeps only the newest alert of a game for an offline device."""
    return ("g" + game_public_id.replace("_", "-"))[:32]


def body_words(kind: str, deadline: datetime | None, *, ended: bool = True) -> str:
    """`ended`: of a "game started or ended" alert, which (an end comes beside the game's
    end email, a start has no email: games.push.services.planning)."""
    if kind == AlertKind.TURN:
        return _("Your turn.")
    if kind == AlertKind.DEADLINE:
        if deadline is None:
            return _("Your time is running out.")
        return _("Your time is running out: move by %(deadline)s.") % {
            "deadline": formats.date_format(deadline, "DATETIME_FORMAT")}
    if kind == AlertKind.START_END:
        return _("The game is over.") if ended else _("The game has started.")
    return _("New table talk.")


def payload(alert: PushAlert, home_token: str, language: str,
            local_deadline: datetime | None) -> dict[str, Any]:
    """The JSON the service worker shows (it is encrypted for the device alone)."""
    game = alert.game
    with translation.override(language):
        title = game.title
        body = body_words(alert.kind, local_deadline, ended=alert.notification_id is not None)
    return {"title": title, "body": body, "tag": topic(game.public_id), "kind": alert.kind,
            "url": reverse("games:me-open", args=[home_token, game.public_id]),
            "icon": static("games/icons/icon-192.png"),
            "receipt": reverse("games:push-receipt", args=[receipt_id(alert.pk)])}
