"""bench/api.py's URLconf: the whole site plus the bare view the API is measured against.

The bare view does the minimum a move needs, in one transaction on its own table
(bench/api.py's TABLES): lock the row (SELECT ... FOR UPDATE, reading its ~20 KB JSON),
a conditional UPDATE of the new JSON (WHERE version = %s), one log row. It gets the same
request body as the API and goes through the same middleware in the same gunicorn.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from saboteur_site.urls import handler400, handler404, handler500
from saboteur_site.urls import urlpatterns as site_patterns

__all__ = ["handler400", "handler404", "handler500", "urlpatterns"]

def _answer(status: int, body: dict[str, Any]) -> JsonResponse:
    return JsonResponse(body, status=status)


@csrf_exempt
def bare_move(request: HttpRequest, row: int) -> JsonResponse:
    if request.method != "POST":
        return _answer(405, {"error": "POST"})
    body = json.loads(request.body)
    version, move = body["version"], body["move"]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT version, data FROM bench_bare WHERE id = %s FOR UPDATE", [row])
        found = cursor.fetchone()
        if found is None:
            return _answer(404, {"error": "no such row"})
        if found[0] != version:
            return _answer(409, {"error": "stale", "version": found[0]})
        data = json.loads(found[1]) if isinstance(found[1], str | bytes) else found[1]
        data["version"] = version + 1
        data["last_move"] = move
        cursor.execute("UPDATE bench_bare SET version = %s, data = %s::jsonb "
                       "WHERE id = %s AND version = %s",
                       [version + 1, json.dumps(data), row, version])
        if cursor.rowcount != 1:
            return _answer(409, {"error": "stale"})
        cursor.execute("INSERT INTO bench_bare_log (row_id, number, move, created_at) "
                       "VALUES (%s, %s, %s::jsonb, now())",
                       [row, version + 1, json.dumps(move)])
    return _answer(200, {"version": version + 1})


urlpatterns = [
    path("bench/bare/<int:row>/moves", bare_move),
    *site_patterns,
]
