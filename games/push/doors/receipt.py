"""POST /push/receipt/<signed id>: the service worker says it showed an alert, or that
the person clicked it (`{"event": "shown"}` or `{"event": "clicked"}`). The signed id is
the only credential (the worker has no cookie): a bad signature is a JSON 403 and
changes nothing. Limited per client address."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games.kit import limits
from games.kit.client import client_address
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, json_object
from games.kit.responses import private
from games.push.services.receipts import EVENTS, record_receipt


@csrf_exempt
def push_receipt(request: HttpRequest, receipt: str) -> HttpResponse:
    if request.method != "POST":
        response = json_error(405, "method_not_allowed", _("Use %(methods)s here.")
                              % {"methods": "POST"})
        response["Allow"] = "POST"
        return response
    try:
        limits.hit("push_receipt", client_address(request))
    except limits.Limited as busy:
        response = json_error(429, "too_many_requests", _(
            "Too many requests; try again in %(n)s seconds.") % {"n": busy.retry_after})
        response["Retry-After"] = str(busy.retry_after)
        return response
    data = json_object(request, 256, _('Send {"event": "shown"} or {"event": "clicked"}.'))
    if isinstance(data, JsonResponse):
        return data
    event = data.get("event")
    if event not in EVENTS:
        return json_error(400, "bad_event", _('Send {"event": "shown"} or {"event": "clicked"}.'))
    recorded = record_receipt(receipt, str(event))
    if recorded is None:
        return json_error(403, "bad_receipt", _("This receipt is not valid."))
    return private(JsonAnswer({"alert": "recorded", "event": recorded.event,
                               "first": recorded.first}))
