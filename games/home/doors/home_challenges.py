"""Challenges from a home (games.challenges; docs/playing.md "Challenge a player"): the
"Challenge a player" form, answering a challenge (accept, refuse, refuse and block),
withdrawing one sent, unblocking and taking challenges or none (HTML forms, POST with
CSRF), and the JSON twins (docs/api.md "Challenges"):

    GET  /api/me/<token>/challenges                      sent, received, blocked
    POST /api/me/<token>/challenges                      challenge (201)
    POST /api/me/<token>/challenges/<id>/accept
    POST /api/me/<token>/challenges/<id>/refuse          {"block": true} blocks too
    POST /api/me/<token>/challenges/<id>/withdraw        the challenger's, while it waits
    POST /api/me/<token>/challenges/settings             {"takes_challenges": false}
    POST /api/me/<token>/blocks/<name>                   block a player by public name
    DELETE /api/me/<token>/blocks/<name>, or POST .../blocks/<name>/unblock

Thin over games.challenges.services; every refusal is a clear answer in the endpoint's
format (400, 404, 405, 409, 429 with Retry-After) and changes nothing.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.challenges.core.challenge_terms import ChallengeError, read_terms
from games.challenges.services import challenge_blocks, challenging
from games.challenges.services.challenge_lists import challenges_json, one_challenge, sent_by
from games.home.doors.home_pages import render_home, with_home
from games.home.services import page
from games.kit import limits
from games.kit.json_answer import JsonAnswer
from games.kit.json_body import json_error, json_object, request_body
from games.kit.responses import private, too_many
from games.people.doors.home_api_access import home_api

MAX_BODY = 4096
LIMIT = "tables_home"  # the home's forms' limit per link (games.kit.limits)


def _back(token: str) -> HttpResponse:
    return redirect(page.home_path(token) + "#challenges")


def _refused(request: HttpRequest, address: str, token: str,
             refused: ChallengeError) -> HttpResponse:
    """The home again with the reason and the refusal's status; nothing changed."""
    messages.error(request, refused.message)
    response = render_home(request, address, token, status=refused.status)
    if refused.retry_after is not None:
        response["Retry-After"] = str(refused.retry_after)
    return response


def form_terms(post: QueryDict) -> dict[str, Any]:
    """The "Challenge a player" form as the JSON API's object (read_terms checks it):
    names one a line; no number of seats: the fewest the names and the rules allow; a
    clock preset chosen sets the pace (the hours box is left out)."""
    terms: dict[str, Any] = {
        "to": [line for line in post.get("to", "").splitlines() if line.strip()],
        "ruleset": post.get("ruleset", "base"), "language": post.get("language", ""),
        "rated": post.get("rated") == "on", "bots_fill": post.get("bots_fill") == "on"}
    if post.get("players", "").strip():
        seats = 0  # not a number: refused by the reader as a size out of range
        with contextlib.suppress(ValueError):
            seats = int(post.get("players", ""))
        terms["players"] = seats
    if post.get("clock"):
        terms["clock"] = post.get("clock", "")
        return terms
    hours = 0
    with contextlib.suppress(ValueError):
        hours = int(post.get("hours_per_move", ""))
    return {**terms, "hours_per_move": hours}


@require_POST
@with_home
def home_challenge(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        limits.hit(LIMIT, address)
        terms = read_terms(form_terms(request.POST),
                           language=page.language_and_zone(address)[0])
        challenging.create_challenge(address, terms)
    except limits.Limited as busy:
        return too_many(request, busy)
    except ChallengeError as refused:
        return _refused(request, address, token, refused)
    messages.success(request, _("Your challenge is on its way to %(names)s. You see here "
                                "when they answer.") % {"names": ", ".join(terms.names)})
    return _back(token)


def _challenge_id(request: HttpRequest, field: str = "challenge") -> int:
    try:
        return int(request.POST.get(field, ""))
    except ValueError:
        return 0  # no such challenge: refused as one


@require_POST
@with_home
def home_answer(request: HttpRequest, address: str, token: str) -> HttpResponse:
    """Accept, refuse, or refuse and block ("action": accept, refuse, block)."""
    action = request.POST.get("action", "")
    try:
        if action == "accept":
            answered = challenging.accept_challenge(address, _challenge_id(request))
        elif action in ("refuse", "block"):
            answered = challenging.refuse_challenge(address, _challenge_id(request),
                                                    block=action == "block")
        else:
            raise ChallengeError(400, "bad_request", _("Accept or refuse the challenge."))
    except ChallengeError as refused:
        return _refused(request, address, token, refused)
    if action != "accept":
        messages.success(request, _("You refused the challenge.") if action == "refuse"
                         else _("You refused the challenge and blocked its player: they "
                                "cannot challenge you again until you unblock them."))
    elif answered.started:
        messages.success(request, _("Everyone accepted and the game has started: it is on "
                                    "your home, and your own link is on its way to your "
                                    "mailbox."))
    elif answered.table is not None:
        messages.success(request, _("Everyone accepted: the table is forming, and the game "
                                    "starts when other players have taken the seats left."))
    else:
        messages.success(request, _("You accepted. The game starts when every player "
                                    "challenged has accepted."))
    return _back(token)


@require_POST
@with_home
def home_withdraw(request: HttpRequest, address: str, token: str) -> HttpResponse:
    """Withdraw a challenge the home's player sent, while it waits for answers."""
    try:
        limits.hit(LIMIT, address)
        challenging.withdraw_challenge(_challenge_id(request), challenger=address)
    except limits.Limited as busy:
        return too_many(request, busy)
    except ChallengeError as refused:
        return _refused(request, address, token, refused)
    messages.success(request, _("You withdrew your challenge. The players who had its "
                                "email are told there is nothing to answer."))
    return _back(token)


@require_POST
@with_home
def home_unblock(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        unblocked = challenge_blocks.unblock(address, block_id=_challenge_id(request, "block"))
    except ChallengeError as refused:
        return _refused(request, address, token, refused)
    messages.success(request, _("%(name)s can challenge you again.")
                     % {"name": unblocked.name})
    return _back(token)


@require_POST
@with_home
def home_challenge_setting(request: HttpRequest, address: str, token: str) -> HttpResponse:
    takes = challenge_blocks.set_takes_challenges(address,
                                                  takes=request.POST.get("takes") == "1")
    messages.success(request, _("You take challenges.") if takes
                     else _("You take no challenges: nobody can challenge you."))
    return _back(token)


# ---- the JSON twins -----------------------------------------------------------------------


def _error(refused: ChallengeError) -> JsonResponse:
    extra: dict[str, Any] = {"field": refused.field} if refused.field else {}
    response = json_error(refused.status, refused.code, refused.message, **extra)
    if refused.retry_after is not None:
        response["Retry-After"] = str(refused.retry_after)
    return response


def _busy(busy: limits.Limited) -> JsonResponse:
    response = json_error(429, "too_many_requests", _(
        "Too many requests for this link; try again in %(n)s seconds.")
        % {"n": busy.retry_after})
    response["Retry-After"] = str(busy.retry_after)
    return response


@home_api("GET", "HEAD", "POST", limit="api_home")
def api_challenges(request: HttpRequest, address: str) -> JsonResponse:
    """GET: the challenges sent and received, the players blocked, whether the player
    takes challenges and how many more they may send today. POST {"to", "players",
    "ruleset", "hours_per_move" or "clock", "language", "rated", "bots_fill"}: challenge
    (201, the challenge as the list shows it)."""
    with page.home_locale(address):
        if request.method != "POST":
            return private(JsonAnswer(challenges_json(address)))
        data = json_object(request, MAX_BODY, _("Send a JSON object."))
        if isinstance(data, JsonResponse):
            return data
        try:
            limits.hit(LIMIT, address)
            terms = read_terms(data, language=page.language_and_zone(address)[0])
            made = challenging.create_challenge(address, terms)
        except limits.Limited as busy:
            return _busy(busy)
        except ChallengeError as refused:
            return _error(refused)
        shown = next(c for c in sent_by(address) if c.id == made.pk)
        return private(JsonAnswer(shown.as_json(), status=201))


@home_api("POST", limit=LIMIT)
def api_accept(request: HttpRequest, address: str, challenge_id: int) -> JsonResponse:
    with page.home_locale(address):
        try:
            answered = challenging.accept_challenge(address, challenge_id)
        except ChallengeError as refused:
            return _error(refused)
        return private(JsonAnswer(answered.as_json()))


@home_api("POST", limit=LIMIT)
def api_withdraw(request: HttpRequest, address: str, challenge_id: int) -> JsonResponse:
    """POST (no body): withdraw a challenge sent while it waits -> the challenge as the
    list shows it, `status` "withdrawn"."""
    with page.home_locale(address):
        try:
            withdrawn = challenging.withdraw_challenge(challenge_id, challenger=address)
        except ChallengeError as refused:
            return _error(refused)
        shown = one_challenge(address, withdrawn.pk, sent=True)
        if shown is None:  # erased since ("forget me"): as unknown as none
            return json_error(404, "no_challenge", _("You have no such challenge."))
        return private(JsonAnswer(shown.as_json()))


def _optional_object(request: HttpRequest) -> dict[str, Any] | JsonResponse:
    """The body as a JSON object; no body at all is {}."""
    body = request_body(request, MAX_BODY)
    if body is not None and not body.strip():
        return {}
    return json_object(request, MAX_BODY, _("Send a JSON object, or nothing."))


@home_api("POST", limit=LIMIT)
def api_refuse(request: HttpRequest, address: str, challenge_id: int) -> JsonResponse:
    """POST (no body, or {"block": true} to take no challenge from its player again)."""
    with page.home_locale(address):
        data = _optional_object(request)
        if isinstance(data, JsonResponse):
            return data
        block = data.get("block", False)
        if not isinstance(block, bool):
            return json_error(400, "bad_request", _("%(field)s is true or false.")
                              % {"field": "block"}, field="block")
        try:
            answered = challenging.refuse_challenge(address, challenge_id, block=block)
        except ChallengeError as refused:
            return _error(refused)
        return private(JsonAnswer(answered.as_json()))


@home_api("POST", limit=LIMIT)
def api_challenge_settings(request: HttpRequest, address: str) -> JsonResponse:
    """POST {"takes_challenges": true or false} -> {"takes_challenges"}."""
    with page.home_locale(address):
        data = json_object(request, MAX_BODY, _("Send a JSON object."))
        if isinstance(data, JsonResponse):
            return data
        takes = data.get("takes_challenges")
        if not isinstance(takes, bool):
            return json_error(400, "bad_request", _("%(field)s is true or false.")
                              % {"field": "takes_challenges"}, field="takes_challenges")
        return private(JsonAnswer({"takes_challenges": challenge_blocks.set_takes_challenges(
            address, takes=takes)}))


@home_api("POST", "DELETE", limit=LIMIT)
def api_block(request: HttpRequest, address: str, name: str) -> JsonResponse:
    """POST: take no challenge from the player of this public name (their open ones to
    you are refused); DELETE: take them again. -> {"blocked": bool, "name"}."""
    with page.home_locale(address):
        try:
            if request.method == "DELETE":
                done = challenge_blocks.unblock(address, name=name)
            else:
                done = challenge_blocks.block_name(address, name)
        except ChallengeError as refused:
            return _error(refused)
        return private(JsonAnswer({"blocked": request.method != "DELETE",
                                   "name": done.name}))


@home_api("POST", limit=LIMIT)
def api_unblock(request: HttpRequest, address: str, name: str) -> JsonResponse:
    """POST .../blocks/<name>/unblock: DELETE's twin for clients that only POST."""
    with page.home_locale(address):
        try:
            done = challenge_blocks.unblock(address, name=name)
        except ChallengeError as refused:
            return _error(refused)
        return private(JsonAnswer({"blocked": False, "name": done.name}))
