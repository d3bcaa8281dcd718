"""Open seats: the public list, asking for one, and the offer page (games.handover).

    GET      /seats/[?page=N]          open seats of games whose host allowed the list:
                                       facts only, no names or addresses; 20 a page, in
                                       the same few queries however many are listed, and
                                       rate limited per client (`seats_page`)
    POST     /seats/<id>/ask           the offer goes to the address given (404 for a seat
                                       not listed or no longer open)
    GET/POST /seats/offer/<token>/     an offer's private link: GET shows it, POST takes the
                                       seat; the own link goes to the offer's address only
"""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.handover.core.handover_errors import HandoverError, SeatGone
from games.handover.core.handover_rows import SeatOffer, find_offer
from games.handover.doors.handover_forms import AskSeatForm, TakeSeatForm
from games.handover.services import offers, takeover
from games.handover.services.open_seat_facts import facts_of, seat_facts
from games.kit import limits
from games.kit.client import client_address
from games.kit.responses import private, too_many

SEATS_PER_PAGE = 20


@require_GET
def open_seats(request: HttpRequest) -> HttpResponse:
    try:
        limits.hit("seats_page", client_address(request))
    except limits.Limited as busy:
        return too_many(request, busy)
    page = Paginator(offers.listed_seats(), SEATS_PER_PAGE).get_page(request.GET.get("page"))
    rows = list(page.object_list)
    seats = [{"row": row, "facts": facts, "ask": reverse("games:open-seat-ask", args=[row.pk])}
             for row, facts in zip(rows, facts_of(rows), strict=True)]
    return render(request, "games/open_seats.html", {
        "seats": seats, "page": page, "email_label": AskSeatForm.base_fields["email"].label})


@require_POST
def ask(request: HttpRequest, open_seat_id: int) -> HttpResponse:
    form = AskSeatForm(request.POST, prefix=f"s{open_seat_id}")
    if not form.is_valid():
        # The address's own refusal (games.people.core.deliverable) says what to write instead.
        messages.error(request, " ".join(str(error) for error in form["email"].errors)
                       or _("Give a valid email address."))
        return redirect("games:open-seats")
    email = form.cleaned_data["email"]
    try:
        offers.ask_listed(open_seat_id, email, translation.get_language() or "en",
                          client_address(request))
    except limits.Limited as busy:
        return too_many(request, busy)
    except HandoverError as refused:
        if refused.code == "not_open":
            raise Http404("No such open seat") from None
        messages.error(request, refused.message)
        return redirect("games:open-seats")
    messages.success(request, _("The offer is on its way to %(address)s: accept it from "
                                "that mailbox.") % {"address": email})
    return redirect("games:open-seats")


@require_http_methods(["GET", "POST"])
def offer_page(request: HttpRequest, token: str) -> HttpResponse:
    offer = find_offer(token)
    if offer is None:
        raise Http404("No such offer")
    row = offer.open_seat
    if offer.state != SeatOffer.State.PENDING or row.closed_at is not None:
        yours = offer.state == SeatOffer.State.TAKEN
        # An accept that comes too late did not happen: the same 409 whether another
        # accept committed before this request was read or while it ran.
        late = request.method == "POST" and not yours
        return _gone(request, yours=yours, status=409 if late else 200)
    name = offer.volunteer.name if offer.volunteer is not None else ""
    form = TakeSeatForm(request.POST or None, initial={
        "name": name, "language": translation.get_language() or "en"})
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                seat = takeover.accept_offer(token, name=form.cleaned_data["name"],
                                             language=form.cleaned_data["language"])
            except SeatGone:
                return _gone(request, yours=False, status=409)
            except HandoverError as refused:
                form.add_error(None, refused.message)
            else:
                return private(render(request, "games/seat_taken.html", {
                    "game": seat.game, "seat": seat}))
    return private(render(request, "games/seat_offer.html", {
        "offer": offer, "facts": seat_facts(row), "game": row.game, "form": form},
        status=status))


def _gone(request: HttpRequest, *, yours: bool, status: int = 200) -> HttpResponse:
    """The offer is over: the seat was taken (by someone else, or by this offer already),
    or it no longer needs a player. Said kindly: they offered to help."""
    return private(render(request, "games/seat_gone.html", {"yours": yours}, status=status))
