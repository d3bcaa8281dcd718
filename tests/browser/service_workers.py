"""A page's service worker seen through the DevTools protocol: when it is registered, and
a push handed to it as a push service would (`ServiceWorker.deliverPushMessage`, the data
in the clear: the encryption is the stand-in push service's part, tests/push/standin.py),
waiting for the receipt the worker posts when it shows the notification."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from games.push.doors import receipt as receipt_door
from games.push.services import receipts


class ServiceWorkers:
    """Listens from before the page registers its worker (make it before the gesture)."""

    def __init__(self, context: Any, page: Any) -> None:
        self.registered = threading.Event()
        self.registrations: list[str] = []
        self.cdp = context.new_cdp_session(page)
        self.cdp.on("ServiceWorker.workerRegistrationUpdated", self._seen)
        self.cdp.send("ServiceWorker.enable")

    def _seen(self, event: dict[str, Any]) -> None:
        for found in event.get("registrations", []):
            if not found.get("isDeleted"):
                self.registrations.append(found["registrationId"])
                self.registered.set()

    def push_and_wait_for_receipt(self, monkeypatch: pytest.MonkeyPatch, origin: str,
                                  data: dict[str, Any]) -> None:
        """Hand `data` to the newest registration's worker; return once its receipt is in."""
        received = threading.Event()
        original = receipts.record_receipt

        def recording(signed: str, event: str) -> Any:
            answer = original(signed, event)
            received.set()
            return answer

        monkeypatch.setattr(receipt_door, "record_receipt", recording)
        self.cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": origin + "/", "registrationId": self.registrations[-1],
            "data": json.dumps(data)})
        assert received.wait(30)
