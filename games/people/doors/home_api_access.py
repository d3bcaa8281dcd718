"""The door of every JSON view of a home link: the method, the limit per link, the link
itself. One answer for each refusal, in the API's format: 405 with Allow, 429 with
Retry-After, 404 for a link that opens no home. Here, under every feature with such a
view (the home's, the alerts' devices: games.push), so that each uses the one door."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from games.kit import limits
from games.kit.json_body import json_error
from games.kit.link_tokens import token_digest
from games.people.core.home_links import home_row_of_token


def home_or_refusal(request: HttpRequest, token: str, *, methods: tuple[str, ...],
                    limit: str) -> str | JsonResponse:
    """The home's address, or the answer that refuses the request."""
    if request.method not in methods:
        allowed = ", ".join(methods)
        response = json_error(405, "method_not_allowed",
                              _("Use %(methods)s here.") % {"methods": allowed})
        response["Allow"] = allowed
        return response
    digest = token_digest(token)
    if digest is not None:
        try:
            limits.hit(limit, f"home:{digest}")
        except limits.Limited as busy:
            response = json_error(429, "too_many_requests", _(
                "Too many requests for this link; try again in %(n)s seconds.")
                % {"n": busy.retry_after})
            response["Retry-After"] = str(busy.retry_after)
            return response
    row = home_row_of_token(token)
    if row is None:
        return json_error(404, "not_found", _("There is no home with this link."))
    return row.address
