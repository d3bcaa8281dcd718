"""The "How to play" pages and the home page's "email me my links" form."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import engine
from games.home.services import lost_links
from games.kit import limits
from games.kit.client import client_address
from games.kit.replica_reads import reads_from_replica
from games.kit.responses import too_many
from games.people.doors.address_form import AddressForm
from games.seatview.core.words import ruleset_name
from games.site import bot_strength, rules_page


@require_GET
@reads_from_replica()
def rules(request: HttpRequest, ruleset: str) -> HttpResponse:
    if ruleset not in engine.RULESETS:
        raise Http404("No such rules")
    language = request.GET.get("lang", "")
    known = {code for code, _label in settings.LANGUAGES}
    with translation.override(language if language in known else translation.get_language()):
        paths, actions = rules_page.deck(ruleset)
        return render(request, "games/rules.html", {
            "ruleset": ruleset, "title": ruleset_name(ruleset), "paths": paths,
            "actions": actions, "expansion": ruleset == "saboteur2",
            "table_cards": rules_page.table_cards(), "setup": rules_page.base_setup(),
            "saboteur_shares": rules_page.saboteur_shares(),
            "winner_shares": rules_page.winner_shares(), "dwarves": rules_page.s2_dwarves(),
            "s2": rules_page.s2_numbers(), "LANGUAGE_CODE": translation.get_language(),
            "strength": bot_strength.strength_rows(ruleset),
            "strength_date": bot_strength.MEASURED_ON, "strength_cpu": bot_strength.CPU_MS})


@require_POST
def ask_links(request: HttpRequest) -> HttpResponse:
    form = AddressForm(request.POST)
    if not form.is_valid():  # says what is wrong with the address, nothing about who plays
        messages.error(request, " ".join(str(error) for error in form["email"].errors))
        return render(request, "games/links_sent.html", status=400)
    try:
        lost_links.ask_for_links(form.cleaned_data["email"], client_address(request))
    except limits.Limited as busy:
        return too_many(request, busy)
    # The same answer whatever the address: it reveals nothing about who plays.
    messages.success(request, _("If this address has seats in games here, we have emailed "
                                "it their links. Look in your mailbox (and its spam folder)."))
    return redirect("games:links-sent")


@require_GET
def links_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "games/links_sent.html", {"form": AddressForm()})
