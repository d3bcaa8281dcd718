"""What every JSON view shares (the seat API and its clock actions, the home's JSON
twins): the error envelope `{"error": {"code", "message", ...}}` and a request body read
no further than its limit, parsed with games.kit.jsonsafe (docs/api.md "Errors")."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games.kit import jsonsafe
from games.kit.json_answer import JsonAnswer
from games.kit.responses import private


def json_error(status: int, code: str, message: str, **extra: Any) -> JsonResponse:
    """A refusal in the API's shape; never cached (it may name a seat's state)."""
    return private(JsonAnswer({"error": {"code": code, "message": message, **extra}},
                              status=status))


def request_body(request: HttpRequest, limit: int) -> bytes | None:
    """The request body, or None when it is larger than `limit` (read no further)."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        return None
    try:
        body = request.body
    except RequestDataTooBig:
        return None
    return body if len(body) <= limit else None


def json_object(request: HttpRequest, limit: int, shape: str) -> dict[str, Any] | JsonResponse:
    """The body as a JSON object, or the answer: 413 past `limit`, 400 not JSON, 400 not
    an object or no body at all (`shape` says what to send). An endpoint that takes no
    body (accept, nudge, leave) never reads one."""
    body = request_body(request, limit)
    if body is None:
        return json_error(413, "too_large", _("The request body is too large."))
    if not body.strip():
        return json_error(400, "bad_request", shape)
    try:
        data = jsonsafe.loads(body)
    except (ValueError, UnicodeDecodeError):
        return json_error(400, "bad_json", _("The request body is not valid JSON."))
    if not isinstance(data, dict):
        return json_error(400, "bad_request", shape)
    return data
