"""Friendly error pages, and JSON errors under /api/ (docs/api.md: every API answer
is JSON, whatever went wrong)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        return JsonResponse({"error": {"code": "not_found", "message": _(
            "There is nothing at this address.")}}, status=404)
    seat_link = request.path.startswith(("/play/", "/api/play/"))
    return render(request, "404.html", {"seat_link": seat_link}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if _api(request):
        return JsonResponse({"error": {"code": "server_error", "message": _(
            "Something went wrong on our side; nothing was changed. Try again later.")}},
            status=500)
    # No context processors, no database: this page must render whatever broke.
    from django.template import loader
    return HttpResponse(loader.get_template("500.html").render(), status=500)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _api(request):
        return JsonResponse({"error": {"code": "bad_request", "message": _(
            "The request could not be read.")}}, status=400)
    return render(request, "400.html", status=400)
