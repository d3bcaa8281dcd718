"""A player's home: /me/ (ask for the home link by email), /me/<token>/ (every game of the
address, games.home) and its settings forms; the JSON twin is games.home.doors.api_home."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.clock.services import quiet_hours
from games.home.services import everywhere, page, welcome
from games.home.services.address import (
    address_for_home_token,
    new_home_and_seat_links,
    new_home_path,
)
from games.home.services.listing import home_of
from games.kit import limits
from games.kit.client import client_address
from games.kit.responses import private, too_many
from games.kit.service_errors import ServiceError, http_status
from games.people.doors.address_form import AddressForm
from games.play.doors.seat_forms import PreferencesForm
from games.play.doors.seat_mail_settings import MAX_VACATION_HOURS, email_options


@require_http_methods(["GET", "HEAD", "POST"])
def ask_home(request: HttpRequest) -> HttpResponse:
    """Email an address its home link (with its seats' links), or, if it plays nowhere
    yet, a link that confirms it and opens a new home (games.home.services.welcome): the same
    answer at the same speed either way (a task plans the email after it), and limited
    like the lost-links form."""
    form = AddressForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            welcome.ask_for_home(form.cleaned_data["email"], client_address(request),
                                 translation.get_language() or settings.LANGUAGE_CODE)
        except limits.Limited as busy:
            return too_many(request, busy)
        messages.success(request, _("We are emailing this address the link to its home (or, "
                                    "if it plays nowhere yet, a link that confirms it and "
                                    "opens a new home). Look in your mailbox (and its spam "
                                    "folder)."))
        return redirect("games:me")
    status = 400 if request.method == "POST" else 200
    return render(request, "games/me_ask.html", {"form": form}, status=status)


HomeView = Callable[..., HttpResponse]


def with_home(view: HomeView) -> Callable[..., HttpResponse]:
    """Resolve the home link's address (404 for an unknown or rotated link) and show the
    words in the home's language; the URL's other parts follow as keywords."""
    @wraps(view)
    def wrapper(request: HttpRequest, token: str, **parts: Any) -> HttpResponse:
        address = address_for_home_token(token)
        if address is None:
            raise Http404("No such home")
        with page.home_locale(address):
            return private(view(request, address, token, **parts))
    return wrapper


@require_GET
@with_home
def home_page(request: HttpRequest, address: str, token: str) -> HttpResponse:
    return render_home(request, address, token)


@require_GET
@with_home
def home_open(request: HttpRequest, address: str, token: str, game: str) -> HttpResponse:
    """/me/<token>/open/<game>: where an alert's click leads (games.push): the person's
    seat page of that game, found through the home (an alert never carries a seat link);
    the home itself when the game is no longer theirs. A redirect, nothing changes."""
    for row in home_of(address).rows:
        if row.game == game and row.path:
            return redirect(row.path)
    return redirect(page.home_path(token))


def render_home(request: HttpRequest, address: str, token: str,
                status: int = 200) -> HttpResponse:
    """The home page (a refused form shows it again with its status and the reason); a
    public name in `?challenge=` (or the challenge form's refused "to") fills the
    challenge form."""
    context = page.context(address, token, challenge_to=request.GET.get("challenge")
                           or request.POST.get("to", ""))
    context["preferences_form"] = PreferencesForm(
        initial={"language": context["language"], "time_zone": context["zone"]})
    return render(request, "games/me.html", context, status=status)


def _back(token: str, anchor: str = "") -> HttpResponse:
    return redirect(page.home_path(token) + anchor)


def _say_saved(request: HttpRequest, count: int) -> None:
    """A setting of the games going on: saved in `count` of them, or in none at all."""
    (messages.success if count else messages.info)(request, page.saved_words(count))


@require_POST
@with_home
def home_preferences(request: HttpRequest, address: str, token: str) -> HttpResponse:
    form = PreferencesForm(request.POST)
    if not form.is_valid():
        messages.error(request, form.refusal())  # at the top of the page, where it is seen
        return _back(token)
    count = everywhere.set_language_and_zone(address, language=form.cleaned_data["language"],
                                             time_zone=form.cleaned_data["time_zone"])
    with page.home_locale(address):
        messages.success(request, page.saved_words(count, kept_for_new_games=True))
    return _back(token, "#settings")


@require_POST
@with_home
def home_emails(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        count = everywhere.set_email_mode_everywhere(address, request.POST.get("email_mode", ""))
    except ServiceError as refused:
        messages.error(request, refused.message)
    else:
        if request.POST.get("email_options"):  # the form's checkboxes were sent with it
            everywhere.set_email_options_everywhere(address, **email_options(request))
        _say_saved(request, count)
    return _back(token, "#settings")


@require_POST
@with_home
def home_quiet(request: HttpRequest, address: str, token: str) -> HttpResponse:
    """Quiet hours for every game going on (games.clock.services.quiet_hours); empty: none. A
    refusal (bad hours, a second change within a day) is the home again with the reason
    and a 4xx status: nothing changed."""
    try:
        start, end = (_hour(request.POST.get(name, "")) for name in ("quiet_from", "quiet_to"))
        count = quiet_hours.set_quiet_hours(address, start, end)
    except ServiceError as refused:
        messages.error(request, refused.message)
        return render_home(request, address, token, status=http_status(refused))
    _say_saved(request, count)
    if count:
        messages.info(request, _("For your clock the change applies from your next turn in "
                                 "each game (a turn already running keeps its clock); emails "
                                 "follow the new hours at once."))
    return _back(token, "#quiet")


def _hour(raw: str) -> int | None:
    if raw.strip() == "":
        return None
    try:
        return int(raw)
    except ValueError:
        return -1  # refused by the service


@require_POST
@with_home
def home_vacation(request: HttpRequest, address: str, token: str) -> HttpResponse:
    if request.POST.get("action") == "end":
        everywhere.end_vacation_everywhere(address)
        messages.success(request, _("Welcome back: your vacation has ended."))
        return _back(token, "#settings")
    try:
        hours = int(request.POST.get("hours", ""))
    except ValueError:
        hours = 0
    if not 0 < hours <= MAX_VACATION_HOURS:
        messages.error(request, _("Choose how long your vacation is."))
        return _back(token, "#settings")
    outcome = everywhere.take_vacation_everywhere(address, timedelta(hours=hours))
    if outcome.done:
        messages.success(request, _("Enjoy your vacation: your clock is stopped in %(games)s.")
                         % {"games": ", ".join(outcome.done)})
    for name, why in outcome.refused:
        messages.error(request, f"{name}: {why}")
    return _back(token, "#settings")


@require_POST
@with_home
def home_rotate(request: HttpRequest, address: str, token: str) -> HttpResponse:
    try:
        limits.hit("rotate_home", address)
    except limits.Limited as busy:
        return too_many(request, busy)
    # Whoever saw the home could open every seat it lists: they all get new links unless
    # the player asks to keep them.
    if request.POST.get("keep_seats") == "1":
        path, seats = new_home_path(address), 0
    else:
        path, seats = new_home_and_seat_links(address)
    if seats:
        messages.warning(request, ngettext(
            "This is your new home link: bookmark it. The old link no longer works, nor "
            "does the old link of your %(n)s seat: its new one is below.",
            "This is your new home link: bookmark it. The old link no longer works, nor "
            "do the old links of your %(n)s seats: their new ones are below.", seats)
            % {"n": seats})
    else:
        messages.warning(request, _("This is your new home link: bookmark it. The old link "
                                    "no longer works."))
    return redirect(path)



@require_http_methods(["GET", "HEAD", "POST"])
def new_home(request: HttpRequest, token: str) -> HttpResponse:
    """/me/new/<token>/: the link that confirms an address asking for a home while it
    plays nowhere yet (games.home.services.welcome). GET shows a button (mail scanners open links:
    GET changes nothing), POST with CSRF confirms and opens the new, empty home."""
    row = welcome.pending_home(token)
    if row is None:
        raise Http404("No such home to confirm")
    if request.method != "POST":
        return private(render(request, "games/me_new.html", {"token": token}))
    path = welcome.confirm_home(row)
    messages.success(request, _("Your home is ready. Bookmark this page: its link is yours "
                                "alone. From here you can find a table with other players."))
    return private(redirect(path))
