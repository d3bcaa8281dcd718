"""POST /play/<secret>/notes: a note on another seat for the round now, from the seat
page's sheet (CSRF-protected; back to the sheet, or the reason it was refused)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.notes.services.sheet import NoteRefused, save_note
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat


@require_POST
@with_seat
def seat_note(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    try:
        about = int(request.POST.get("about", ""))
    except ValueError:
        about = -1
    try:
        save_note(seat, about, mark=request.POST.get("mark"), text=request.POST.get("text"))
    except NoteRefused as refused:
        messages.error(request, refused.message)
        return redirect(seat_path(secret) + "#sheet")
    messages.success(request, _("Your note is saved. Only you can see it."))
    return redirect(seat_path(secret) + f"#sheet-{about}")
