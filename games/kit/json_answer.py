"""The JSON API's answers, encoded with orjson.

A late move's answer is the seat's whole view with the game log (20-30 KB): orjson encodes
it about ten times faster than the standard library's encoder (bench/README.md).
The output means the same as JsonResponse's: int keys become strings, and what orjson
does not know itself (lazy translations, and datetimes, so they read as before) goes
through Django's own encoder.
"""

from __future__ import annotations

from typing import Any

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, JsonResponse

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_DJANGO = DjangoJSONEncoder()


def encode(data: Any) -> bytes:
    return orjson.dumps(data, default=_DJANGO.default, option=_OPTIONS)


class JsonAnswer(JsonResponse):
    """A JsonResponse (what the views check for) whose body orjson wrote."""

    def __init__(self, data: Any, status: int = 200) -> None:
        # JsonResponse.__init__ would encode again with the standard library.
        HttpResponse.__init__(self, content=encode(data), content_type="application/json",
                              status=status)
