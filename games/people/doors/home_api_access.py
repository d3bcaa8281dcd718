"""The door of every JSON view of a home link (`home_api`, the home's twin of
`games.seats.doors.access.seat_api`): the method, the limit per link, the link itself.
One answer for each refusal, in the API's format: 405 with Allow, 429 with Retry-After,
404 for a link that opens no home. Here, under every feature with such a view (the
home's, the tournaments', the alerts' devices: games.push), so that each uses the one
door."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Concatenate, ParamSpec

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

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


P = ParamSpec("P")
HomeApiView = Callable[Concatenate[HttpRequest, str, P], JsonResponse]


def home_api(*methods: str,
             limit: str) -> Callable[[HomeApiView[P]], Callable[..., JsonResponse]]:
    """Every JSON view of a home link: `home_or_refusal` first, then the view with the
    home's address instead of the link (Django passes the link as `token`). CSRF-exempt:
    the credential is the link in the URL, which a cross-site page cannot know."""
    def decorate(view: HomeApiView[P]) -> Callable[..., JsonResponse]:
        @csrf_exempt
        @wraps(view)
        def wrapper(request: HttpRequest, token: str, *args: P.args,
                    **kwargs: P.kwargs) -> JsonResponse:
            address = home_or_refusal(request, token, methods=methods, limit=limit)
            if isinstance(address, JsonResponse):
                return address
            return view(request, address, *args, **kwargs)
        return wrapper
    return decorate
