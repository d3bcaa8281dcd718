"""The seat page's table talk as HTML: `{% talk_items %}`, each line with its report form,
and `{% mute_items %}`, each other player with a mute or unmute button. Written here, not
by template tags on each item: a page shows up to 50 lines on every refresh. Each item
starts on a line of its own, as the template wrote them (the spaces between a form's
label, box and button show). `plain_talk_items` and `plain_mute_items` render the same
from plain templates (templates/games/reference/): the reference the tests hold these to
(tests/web/test_seat_html_reference.py); no page uses them.

Context: table_talk (games.play.services.seat_context.table_talk), seat, secret,
first_unread and unread_count (games.talk.services.reading.read_on_page), players and
muted (the seat page's), csrf_token.
"""

from __future__ import annotations

from django import template
from django.template.defaultfilters import linebreaksbr
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.game.core.talk_and_notices import Message
from games.kit.html_pieces import csrf_input, filled, from_template, translated

register = template.Library()


@register.simple_tag(takes_context=True)
def talk_items(context: template.Context) -> SafeString:
    """The talk's list items, oldest first; the first line the reader has not read is
    preceded by how many are new; every other seat's line has a report form."""
    lines: list[Message] = context["table_talk"]
    if not lines:
        return format_html('\n<li class="hint">{}</li>',
                           translated(_("Nobody has said anything yet.")))
    seat, secret = context.get("seat"), context.get("secret")
    # A seat reports the others' lines (a spectator reports none).
    report = _Report(secret, csrf_input(context.get("csrf_token"))) if seat and secret \
        else None
    mine = seat.pk if seat else None
    first_unread, count = context.get("first_unread"), int(context.get("unread_count") or 0)
    items = []
    for line in lines:
        if line.pk == first_unread:
            items.append(format_html(
                '\n<li class="unread-from" id="unread"><strong>{}</strong></li>',
                filled(ngettext("New since you last looked: %(n)s line",
                                "New since you last looked: %(n)s lines", count), n=count)))
        items.append(format_html(
            '\n<li data-id="{}"><span class="who">{}</span> <time datetime="{}">{}</time>: '
            '<span class="said">{}</span>{}</li>',
            line.pk, line.who, timezone.localtime(line.created_at).isoformat(),  # type: ignore[attr-defined]
            line.when, linebreaksbr(line.text, autoescape=True),  # type: ignore[attr-defined]
            report.form(line.pk) if report is not None and line.seat_id != mine else ""))
    return SafeString("".join(items))


class _Report:
    """A line's report form: its words, path and CSRF field made once a page."""

    def __init__(self, secret: str, csrf: SafeString) -> None:
        self.action = reverse("games:seat-report", args=[secret])
        self.csrf = csrf
        self.summary = translated(_("Report"))
        self.label = translated(_("What is wrong with this line (optional)"))
        self.button = translated(_("Report to the moderators"))

    def form(self, line: int) -> SafeString:
        return format_html(
            '\n<details class="report"><summary>{}</summary>'
            '\n<form method="post" action="{}">{}<input type="hidden" name="message" value="{}">'
            '\n<label for="report-{}">{}</label>'
            '\n<input id="report-{}" name="reason" maxlength="1000">'
            '\n<button type="submit">{}</button></form></details>',
            self.summary, self.action, self.csrf, line, line, self.label, line, self.button)


@register.simple_tag(takes_context=True)
def mute_items(context: template.Context) -> SafeString:
    """A list item for each other player: their name and a button to mute their talk
    for the reader, or to unmute it (said muted)."""
    action = reverse("games:seat-mute", args=[context["secret"]])
    csrf, muted = csrf_input(context.get("csrf_token")), context["muted"]
    unmute = format_html(
        ' ({}) <input type="hidden" name="action" value="unmute"><button type="submit">{}'
        "</button>", translated(_("muted")), translated(_("Unmute")))
    mute = format_html(
        ' <input type="hidden" name="action" value="mute"><button type="submit">{}</button>',
        translated(_("Mute")))
    return format_html_join("", (
        '\n<li><form method="post" action="{}" class="inline">{}'
        '<input type="hidden" name="seat" value="{}">\n{}{}</form></li>\n'), (
        (action, csrf, player.number, player.name,
         unmute if player.number in muted else mute)
        for player in context["players"] if not player.is_me))


def plain_talk_items(context: template.Context) -> SafeString:
    """`talk_items`, from the plain template it stands in for: the tests' reference."""
    return from_template("games/reference/talk_items.html", context)


def plain_mute_items(context: template.Context) -> SafeString:
    """`mute_items`, from the plain template it stands in for: the tests' reference."""
    return from_template("games/reference/mute_items.html", context)
