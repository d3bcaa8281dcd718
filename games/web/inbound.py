"""anymail's inbound webhook (/anymail/<provider>/inbound/, basic auth with
ANYMAIL_WEBHOOK_SECRET like the tracking webhook): each message goes to the moves-by-email
pipeline (games.play.inbound)."""

from __future__ import annotations

import logging
from typing import Any

from anymail.signals import AnymailInboundEvent, inbound
from django.dispatch import receiver

from games.mail.inbound.incoming import from_anymail
from games.mail.tracking import webhook_secured
from games.play.inbound import receive

log = logging.getLogger("games.inbound")


@receiver(inbound, dispatch_uid="games.web.inbound")
def handle_inbound(sender: Any, event: AnymailInboundEvent, esp_name: str, **kwargs: Any) -> None:
    if not webhook_secured():
        log.warning("ignored a %s inbound email: set ANYMAIL_WEBHOOK_SECRET", esp_name)
        return
    if event.message is None:
        return
    event_id = f"{esp_name.lower()}:{event.event_id}" if event.event_id else ""
    result = receive(from_anymail(event.message, event_id))
    log.info("%s inbound email: %s", esp_name, result.outcome)
