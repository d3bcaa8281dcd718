"""The public page's "Challenge" button (/players/<name>/, games.players): there are no
accounts, so the visitor gives the link of their own home (pasted: it is theirs alone),
and POST /players/<name>/challenge sends them to that home's "Challenge a player" form
with the name filled in, where they choose the terms (games.home.doors.home_challenges).
Nothing is written. A link that opens no home is the page again, 400, with the reason;
tries are limited per client address, so links cannot be guessed through it.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.kit import limits
from games.kit.client import client_address
from games.kit.responses import private, too_many
from games.people.core.home_links import home_path, home_row_of_token
from games.players.doors.player_pages import page_context
from games.players.services.player_page import named

# A home link as the home's emails and pages write it, or its token alone.
HOME_LINK = re.compile(r"(?:/me/)?([A-Za-z0-9_-]{20,80})/?(?:[?#].*)?$")


def home_token_in(text: str) -> str | None:
    """The token of the home link pasted (the whole link or the token), if it opens a
    home; None otherwise."""
    found = HOME_LINK.search(text.strip()[:300])
    if found is None or home_row_of_token(found.group(1)) is None:
        return None
    return found.group(1)


@require_POST
def challenge_from_page(request: HttpRequest, name: str) -> HttpResponse:
    owner = named(name)
    if owner is None:
        raise Http404(_("No player has this public name."))
    try:
        limits.hit("home_paste_client", client_address(request))
    except limits.Limited as busy:
        return too_many(request, busy)
    token = home_token_in(request.POST.get("home", ""))
    if token is None:
        return render(request, "games/player.html", {
            **page_context(owner), "challenge_error": _(
                "This is not the link of a home: paste the link of your own home, as its "
                "emails give it (it has /me/ in it).")}, status=400)
    return private(redirect(home_path(token) + "?" + urlencode({"challenge": owner.name})
                            + "#challenges"))
