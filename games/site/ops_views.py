"""/healthz and /metrics for the operator's load balancer and monitoring (games.site.health)."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from games.site import health


@require_http_methods(["GET", "HEAD"])
def healthz(request: HttpRequest) -> JsonResponse:
    result = health.report(timezone.now())
    response = JsonResponse({"status": "ok" if result.ok else "fail", "checks": result.checks},
                            status=200 if result.ok else 503)
    response["Cache-Control"] = "no-store"
    return response


@require_http_methods(["GET"])
def metrics(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    if not token:
        raise Http404("metrics are off (METRICS_TOKEN)")
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
    if not hmac.compare_digest(given.encode(), token.encode()):
        return HttpResponse("forbidden\n", status=403, content_type="text/plain")
    response = HttpResponse(health.metrics(timezone.now()),
                            content_type="text/plain; version=0.0.4; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response
