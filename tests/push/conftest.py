from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.push.standin import StandIn, start


@pytest.fixture
def standin() -> Iterator[StandIn]:
    """The stand-in push service on loopback (tests/push/standin.py)."""
    service = start()
    yield service
    service.server.shutdown()
    service.server.server_close()
