"""The game moderation page in the admin and its actions (thin: forms -> games.moderation.services).

    GET  /admin/games/game/<id>/moderate/                 the whole truth (recorded)
    POST /admin/games/game/<id>/moderate/<action>/        undo, replace, extend, pause,
                                                          resume, cancel, move, resend,
                                                          rotate, verify, to_bot,
                                                          to_person, open_seat, assign,
                                                          bot_level
    POST /admin/games/game/<id>/moderate/resolve/<d>/     resolve a dispute

Looking needs `games.view_secrets`, acting needs `games.moderate_game` too; anyone
else gets 403. A refused or invalid action shows the page again with the reason;
undo shows its consequences on a confirmation page first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import engine
from games.game.core.game import Game
from games.moderation import services as moderation
from games.moderation.doors import action_forms, truth
from games.moderation.doors import admin_handover as handover
from games.moderation.doors.permissions import can_moderate, moderator, require_secrets
from games.moves.services import seat_services as services
from games.seats.core.seat import Seat
from games.seatview.core import describe
from games.seatview.core.recent import view_log
from games.seatview.services import pages

FORMS: dict[str, Callable[..., forms.Form]] = {
    "undo": action_forms.UndoForm,
    "replace": action_forms.ReplaceForm,
    "extend": action_forms.ExtendForm,
    "pause": action_forms.PublicReasonForm,
    "resume": action_forms.PublicReasonForm,
    "cancel": action_forms.CancelForm,
    "move": action_forms.MoveForm,
    "resend": action_forms.ReasonForm,
    "rotate": action_forms.SeatReasonForm,
    "verify": action_forms.ReasonForm,
    "to_bot": action_forms.HandSeatForm,
    "to_person": action_forms.HandSeatForm,
    "open_seat": handover.OpenSeatForm,
    "assign": handover.AssignSeatForm,
    "bot_level": action_forms.BotLevelForm,
}
NEEDS_GAME = {"undo", "replace", "extend", "move", "rotate", "to_bot", "to_person",
              "open_seat", "assign", "bot_level"}


def page_url(game: Game) -> str:
    return reverse("admin:games_game_moderate", args=[game.pk])


def make_form(name: str, game: Game, data: Any = None) -> forms.Form:
    kwargs: dict[str, Any] = {"prefix": name}
    if name in NEEDS_GAME:
        kwargs["game"] = game
    if name == "move":
        kwargs["legal"] = moderation.legal_for_actor(game)
        kwargs["names"] = pages.moderator_names(game)
    return FORMS[name](data, **kwargs)


def render_page(request: HttpRequest, site: admin.AdminSite, game: Game,
                bound: dict[str, forms.Form] | None = None, status: int = 200) -> HttpResponse:
    """The moderation page; showing it is recorded as a look at the secrets."""
    moderation.secrets_viewed(game, request.user)  # type: ignore[arg-type]
    context = dict(site.each_context(request), **truth.context(game))
    acting = can_moderate(request)
    page_forms = {name: make_form(name, game) for name in FORMS} if acting else {}
    resolve_forms: dict[int, forms.Form] = (
        {row["dispute"].pk: action_forms.ResolveForm(prefix=f"resolve-{row['dispute'].pk}")
         for row in context["disputes"] if row["open"]} if acting else {})
    for name, form in (bound or {}).items():
        if name.startswith("resolve-"):
            resolve_forms[int(name.split("-", 1)[1])] = form
        else:
            page_forms[name] = form
    for row in context["disputes"]:
        row["form"] = resolve_forms.get(row["dispute"].pk)
    context.update(
        title=_("Moderate: %(game)s") % {"game": game.name}, opts=Game._meta,
        can_moderate=acting, forms=page_forms, has_legal_moves=bool(
            "move" in page_forms and action_forms.choice_field(page_forms["move"], "move").choices))
    return TemplateResponse(request, "admin/games/game/moderate.html", context, status=status)


def done(request: HttpRequest, game: Game, text: str) -> HttpResponse:
    messages.success(request, text)
    return HttpResponseRedirect(page_url(game))


# ---- the actions ------------------------------------------------------------------------


def act(request: HttpRequest, site: admin.AdminSite, game: Game, name: str) -> HttpResponse:
    form = make_form(name, game, request.POST)
    if form.is_valid():
        try:
            return ACTIONS[name](request, site, game, form)
        except (moderation.ModerationError, services.ServiceError, engine.IllegalMove) as no:
            form.add_error(None, getattr(no, "message", str(no)))
    game.refresh_from_db()
    return render_page(request, site, game, {name: form}, status=400)


def _undo(request: HttpRequest, site: admin.AdminSite, game: Game,
          form: forms.Form) -> HttpResponse:
    data = form.cleaned_data
    user = moderator(request)
    if not data["confirm"]:
        plan = moderation.plan_undo(game, data["to_version"])
        return confirm_undo(request, site, game, plan, form)
    plan = moderation.undo_to(
        game.pk, data["to_version"], expected_version=data["expected_version"],
        moderator=user, reason=data["reason"], force=data["force"],
        public_note=data["public_note"])
    return done(request, game, _("Undid moves %(first)s to %(last)s; the game is back at "
                                 "move %(to)s.") % {"first": plan.to_version + 1,
                                                   "last": plan.from_version,
                                                   "to": plan.to_version})


def confirm_undo(request: HttpRequest, site: admin.AdminSite, game: Game,
                 plan: moderation.UndoPlan, form: forms.Form) -> HttpResponse:
    """The consequences of an undo, shown before anything is done."""
    names = pages.moderator_names(game)
    moderation.secrets_viewed(game, request.user, "undo confirmation")  # type: ignore[arg-type]
    truth_log = view_log(engine.moderator_view(game.state()))
    first = len(truth_log) - len(plan.undone_events)
    context = dict(
        site.each_context(request), title=_("Undo moves in %(game)s") % {"game": game.name},
        opts=Game._meta, game=game, plan=plan, form=form,
        # Each move and event named after whoever held its seat then.
        dropped=[{"move": m, "who": describe.seat_name(m.seat_number, names.at_move(m.number)),
                  "by": truth._made_by(m)} for m in plan.dropped],
        undone=[describe.event_sentence(e, names.at_log(first + i), game.ruleset)
                for i, e in enumerate(truth_log[first:])],
        needs_force=plan.crosses_round_end, page_url=page_url(game))
    return TemplateResponse(request, "admin/games/game/confirm_undo.html", context)


def _replace(request: HttpRequest, site: admin.AdminSite, game: Game,
             form: forms.Form) -> HttpResponse:
    data = form.cleaned_data
    seat = moderation.replace_player(
        data["seat"], name=data["name"], email=data["email"], moderator=moderator(request),
        reason=data["reason"], public_note=data["public_note"], time_zone=data["time_zone"],
        language=data["language"])
    return done(request, game, _("Seat %(n)s now belongs to %(name)s; the invitation with the "
                                 "new link is on its way and the old link no longer works.")
                % {"n": seat.shown_number, "name": seat.player_name})


def _extend(request: HttpRequest, site: admin.AdminSite, game: Game,
            form: forms.Form) -> HttpResponse:
    data = form.cleaned_data
    moderation.extend_deadline(game.pk, data["hours"], moderator=moderator(request),
                               reason=data["reason"], public_note=data["public_note"])
    return done(request, game, _("The deadline was extended by %(n)s hours.")
                % {"n": data["hours"]})


def _clock(name: str, service: Callable[..., Game], text: Callable[[], str]) -> Callable[
        [HttpRequest, admin.AdminSite, Game, forms.Form], HttpResponse]:
    def handler(request: HttpRequest, site: admin.AdminSite, game: Game,
                form: forms.Form) -> HttpResponse:
        data = form.cleaned_data
        service(game.pk, moderator=moderator(request), reason=data["reason"],
                public_note=data["public_note"])
        return done(request, game, text())
    handler.__name__ = f"_{name}"
    return handler


def _move(request: HttpRequest, site: admin.AdminSite, game: Game,
          form: forms.Form) -> HttpResponse:
    data = form.cleaned_data
    after = moderation.moderator_move(
        game.pk, data["move"], expected_version=data["expected_version"],
        moderator=moderator(request), reason=data["reason"], public_note=data["public_note"])
    return done(request, game, _("Move %(n)s was made for the seat.") % {"n": after.version})


def _resend(request: HttpRequest, site: admin.AdminSite, game: Game,
            form: forms.Form) -> HttpResponse:
    moderation.resend_turn_email(game.pk, moderator=moderator(request),
                                 reason=form.cleaned_data["reason"])
    return done(request, game, _("The turn email is being sent again."))


def _rotate(request: HttpRequest, site: admin.AdminSite, game: Game,
            form: forms.Form) -> HttpResponse:
    seat = moderation.rotate_seat_link(form.cleaned_data["seat"], moderator=moderator(request),
                                       reason=form.cleaned_data["reason"])
    return done(request, game, _("Seat %(n)s has a new link, mailed to its player; the old "
                                 "link no longer works.") % {"n": seat.shown_number})


def _hand(service: Callable[..., Seat], text: Callable[[], str]) -> Callable[
        [HttpRequest, admin.AdminSite, Game, forms.Form], HttpResponse]:
    def handler(request: HttpRequest, site: admin.AdminSite, game: Game,
                form: forms.Form) -> HttpResponse:
        data = form.cleaned_data
        seat = service(data["seat"], moderator=moderator(request), reason=data["reason"],
                       public_note=data["public_note"])
        return done(request, game, text() % {"n": seat.shown_number})
    return handler


def _verify(request: HttpRequest, site: admin.AdminSite, game: Game,
            form: forms.Form) -> HttpResponse:
    report = moderation.verify_integrity(game.pk, moderator=moderator(request),
                                         reason=form.cleaned_data["reason"])
    if report.ok:
        return done(request, game, _("Integrity verified: the %(n)s moves replay from the seed "
                                     "to exactly the stored snapshot.") % {"n": report.moves})
    where = (_(" First bad move: %(n)s.") % {"n": report.first_bad_move}
             if report.first_bad_move else "")
    messages.error(request, _("Integrity check FAILED.") + where + " " + " ".join(
        report.problems))
    return HttpResponseRedirect(page_url(game))


def _bot_level(request: HttpRequest, site: admin.AdminSite, game: Game,
               form: forms.Form) -> HttpResponse:
    data = form.cleaned_data
    game = moderation.set_bot_level(game.pk, level=data["level"], moderator=moderator(request),
                                    reason=data["reason"])
    return done(request, game, _("The bots play at the level “%(level)s” from now on.")
                % {"level": game.get_bot_level_display()})


def _handover(service: Callable[[HttpRequest, admin.AdminSite, Game, forms.Form],
                                 tuple[Game, str]]) -> Callable[
        [HttpRequest, admin.AdminSite, Game, forms.Form], HttpResponse]:
    def handler(request: HttpRequest, site: admin.AdminSite, game: Game,
                form: forms.Form) -> HttpResponse:
        game, text = service(request, site, game, form)
        return done(request, game, text)
    return handler


ACTIONS: dict[str, Callable[[HttpRequest, admin.AdminSite, Game, forms.Form], HttpResponse]] = {
    "undo": _undo, "replace": _replace, "extend": _extend, "move": _move,
    "pause": _clock("pause", moderation.pause_game, lambda: _("The game is paused.")),
    "resume": _clock("resume", moderation.resume, lambda: _("The game is running again.")),
    "cancel": _clock("cancel", moderation.cancel, lambda: _("The game was cancelled.")),
    "resend": _resend, "rotate": _rotate, "verify": _verify,
    "to_bot": _hand(moderation.hand_to_bot, lambda: _("A bot plays seat %(n)s from now on.")),
    "to_person": _hand(moderation.hand_to_person,
                       lambda: _("Seat %(n)s is played by its player again.")),
    "open_seat": _handover(handover.open_seat_action),
    "assign": _handover(handover.assign_action),
    "bot_level": _bot_level,
}


def resolve(request: HttpRequest, site: admin.AdminSite, game: Game,
            dispute_id: int) -> HttpResponse:
    dispute = get_object_or_404(game.disputes, pk=dispute_id)
    prefix = f"resolve-{dispute.pk}"
    form = action_forms.ResolveForm(request.POST, prefix=prefix)
    if form.is_valid():
        data = form.cleaned_data
        try:
            moderation.resolve_dispute(dispute.pk, moderator=moderator(request),
                                       outcome=data["outcome"], note=data["note"],
                                       public_note=data["public_note"])
        except moderation.ModerationError as no:
            form.add_error(None, no.message)
        else:
            return done(request, game, _("Dispute #%(n)s is resolved; its filer was emailed.")
                        % {"n": dispute.pk})
    return render_page(request, site, game, {prefix: form}, status=400)


# ---- urls -------------------------------------------------------------------------------


def urls(site: admin.AdminSite) -> list[URLPattern]:
    @require_GET
    def page_view(request: HttpRequest, game_id: int) -> HttpResponse:
        require_secrets(request)
        return render_page(request, site, get_object_or_404(Game, pk=game_id))

    @require_POST
    def action_view(request: HttpRequest, game_id: int, action: str) -> HttpResponse:
        moderator(request)
        if action not in ACTIONS:
            raise Http404
        return act(request, site, get_object_or_404(Game, pk=game_id), action)

    @require_POST
    def resolve_view(request: HttpRequest, game_id: int, dispute_id: int) -> HttpResponse:
        moderator(request)
        return resolve(request, site, get_object_or_404(Game, pk=game_id), dispute_id)

    return [
        path("<int:game_id>/moderate/", site.admin_view(page_view),
             name="games_game_moderate"),
        path("<int:game_id>/moderate/resolve/<int:dispute_id>/", site.admin_view(resolve_view),
             name="games_game_resolve"),
        path("<int:game_id>/moderate/<str:action>/", site.admin_view(action_view),
             name="games_game_moderate_action"),
    ]
