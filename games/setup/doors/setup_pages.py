"""The front page and the page where a host sets up a game (games.setup.services.web_setup).

    GET/POST /new/                    the setup form; a valid POST asks the host to confirm
                                      their address and redirects to /new/sent/
    GET      /new/sent/               "check your mailbox"
    GET/POST /new/confirm/<token>/    the host checks the game; POST sends the invitations
                                      (once) and shows the invitation links (once)
    GET      /new/host/<token>/       the host's page: who has accepted (same token)
    POST     /new/host/<token>/resend one invitation emailed again (field `seat`)
    POST     /new/host/<token>/cancel the game cancelled before it starts (field `sure`)
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.game.core.game import Game
from games.kit import limits
from games.kit.client import client_address
from games.kit.responses import private, too_many
from games.moves.services import seat_services as services
from games.people.doors.address_form import AddressForm
from games.seatview.services import pages
from games.setup.doors.setup_form import SetupForm
from games.setup.services import host_view, web_setup


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"links_form": AddressForm()})


@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    if settings.SETUP != "open":
        return render(request, "games/setup_closed.html", status=403)
    form = SetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            requested = web_setup.request_game(
                host_email=data["host_email"], client=client_address(request),
                name=data["name"], players=data["players"], ruleset=data["ruleset"],
                options=data["options"], hours_per_move=data["hours_per_move"],
                shuffle_seats=data["seating"] == "random", start=data["start"] == "now",
                spectators_allowed=data["spectators_allowed"], rated=data["rated"],
                anonymous=data["anonymous"],
                timeout_policy=data["timeout_policy"],
                while_seat_open=data["while_seat_open"],
                bot_level=data["bot_level"],
                open_absent_seats=data["open_absent_seats"],
                list_open_seats=data["list_open_seats"], clock=data.get("clock"))
        except limits.Limited as busy:
            return too_many(request, busy)
        except services.SetupError as refused:
            form.add_error(None, refused.message)
        else:
            # Redirect after POST: a reload shows the notice, it does not set up again.
            if requested.emailed:
                messages.success(request, _("We have emailed %(address)s: open the link in "
                                            "that email to check the game and send the "
                                            "invitations.") % {"address": data["host_email"]})
            else:
                messages.warning(request, _(
                    "%(address)s has been sent as many confirmation emails today as an "
                    "address gets for games it has not confirmed, so no new one goes: the "
                    "page that the link of any of them opens lists this game too, to "
                    "confirm. Unconfirmed, it expires in a day.")
                    % {"address": data["host_email"]})
            return redirect("games:setup-sent")
    status = 400 if request.method == "POST" else 200
    return render(request, "games/setup.html", {"form": form}, status=status)


@require_GET
def setup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "games/setup_sent.html")


@require_http_methods(["GET", "POST"])
def confirm(request: HttpRequest, token: str) -> HttpResponse:
    game = web_setup.pending_game(token)
    if game is None:
        raise Http404("No such game to confirm")
    refused = ""
    if request.method == "POST":
        try:
            confirmed = web_setup.confirm_game(game.pk)
        except services.SetupError as error:
            refused = error.message  # a cap would be passed now: nothing was sent
        else:
            # Shown once, straight from the POST: invitation links are stored only as hashes.
            return private(render(request, "games/created.html", {
                "created": confirmed.created, "game": confirmed.game, "token": token}))
    seats = list(game.seats.order_by("number"))
    return private(render(request, "games/confirm.html", {
        "game": game, "seats": seats, "names": pages.seat_names(game), "token": token,
        "refused": refused, "others": web_setup.waiting_beside(game)},
        status=400 if refused else 200))


# ---- the host's page (games.setup.services.host_view)
# ----------------------------------------------


def _hosted(token: str) -> Game:
    game = host_view.host_game(token)
    if game is None:
        raise Http404("No such game")
    return game


def _host_page(request: HttpRequest, game: Game, token: str, status: int = 200,
               error: str = "") -> HttpResponse:
    return private(render(request, "games/host.html", {
        "game": game, "rows": host_view.host_rows(game), "token": token, "error": error,
        "cancel_form": CancelGameForm()}, status=status))


@require_GET
def host_page(request: HttpRequest, token: str) -> HttpResponse:
    return _host_page(request, _hosted(token), token)


@require_POST
def host_resend(request: HttpRequest, token: str) -> HttpResponse:
    game = _hosted(token)
    try:
        number = int(request.POST.get("seat", ""))
        seat = host_view.resend_invitation(game.pk, number)
    except ValueError:
        return _host_page(request, game, token, 400, _("Choose a seat."))
    except services.SetupError as refused:
        return _host_page(request, game, token, 400, refused.message)
    messages.success(request, _("The invitation was sent to %(name)s again.")
                     % {"name": seat.name_shown})
    return redirect("games:host", token=token)


class CancelGameForm(forms.Form):
    sure = forms.BooleanField(label=gettext_lazy("Yes, cancel this game for everyone"))


@require_POST
def host_cancel(request: HttpRequest, token: str) -> HttpResponse:
    game = _hosted(token)
    if not CancelGameForm(request.POST).is_valid():
        return _host_page(request, game, token, 400,
                          _("Tick the box to confirm that you want to cancel the game."))
    try:
        host_view.cancel_game(game.pk)
    except services.SetupError as refused:
        return _host_page(request, game, token, 400, refused.message)
    messages.success(request, _("The game is cancelled."))
    return redirect("games:host", token=token)
