"""The seat page's dispute form: a player tells the moderators what is wrong.

POST only, CSRF-protected, then back to the seat page (PRG); a refused dispute
shows the page again with the form and the reason.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from games.kit import limits
from games.kit.form_fields import printable_message
from games.kit.remembered_forms import RememberedForm
from games.kit.responses import too_many
from games.moderation import services as moderation
from games.moderation.services.dispute_acts import MAX_TEXT
from games.play.doors import seat_page as seat_views
from games.seats.core.links import seat_path
from games.seats.core.seat import Seat
from games.seats.doors.access import with_seat


class DisputeForm(RememberedForm):
    text = forms.CharField(
        label=gettext_lazy("What is wrong?"), max_length=MAX_TEXT,
        widget=forms.Textarea(attrs={"rows": 4}), validators=[printable_message],
        error_messages={"required": gettext_lazy("Say what is wrong.")})
    move_number = forms.IntegerField(
        label=gettext_lazy("About move number (optional)"), required=False, min_value=1)
    share_with_table = forms.BooleanField(
        label=gettext_lazy("The other players may read my text"), required=False,
        help_text=gettext_lazy("Otherwise they only see that you filed a dispute."))


@require_POST
@with_seat
def seat_dispute(request: HttpRequest, seat: Seat, secret: str) -> HttpResponse:
    form = DisputeForm(request.POST, auto_id="dispute_%s")
    if form.is_valid():
        try:
            limits.hit("dispute_seat", f"seat:{seat.pk}")
        except limits.Limited as busy:
            return too_many(request, busy)
        try:
            moderation.file_dispute(seat.pk, text=form.cleaned_data["text"],
                                    move_number=form.cleaned_data["move_number"],
                                    share_with_table=form.cleaned_data["share_with_table"])
        except moderation.ModerationError as refused:
            form.add_error(None, refused.message)
    if not form.is_valid():
        return seat_views._render(request, seat, 400, secret=secret, dispute_form=form)
    messages.success(request, _("Your dispute was sent to the moderators."))
    return redirect(seat_path(secret) + "#disputes")
