"""`{% suspicion_sheet %}`: the seat page's private notes, one form for each other seat
(a mark, a line, the public actions that seat took this round, the earlier rounds'
notes), built from the seat's own view (games.notes.services.sheet). Shown to the seat's
own link only: never to a spectator, nor through an invitation link; read-only once the
game is over. Each seat's part is written here (`sheet_rows`), not by template tags on
each mark, round and action: a table of ten has nine of them on every refresh.
`plain_sheet_rows` renders the same from a plain template
(templates/games/reference/sheet_rows.html): the reference the tests hold `sheet_rows` to
(tests/web/test_seat_html_reference.py); no page uses it."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from games.game.core.game import GOING_ON, Game
from games.kit.html_pieces import csrf_input, filled, from_template, translated
from games.kit.seat_numbers import shown_seat
from games.notes.core.sheet_rows import MAX_NOTE_LENGTH, Mark
from games.notes.services.sheet import RoundNotes, SheetRow, sheet_of
from games.seats.core.seat import Seat

register = template.Library()


@register.inclusion_tag("games/_sheet.html", takes_context=True)
def suspicion_sheet(context: template.Context) -> dict[str, Any]:
    """Context: game, seat, view, names, secret."""
    game: Game = context["game"]
    seat: Seat | None = context.get("seat")
    if seat is None or not seat.email or getattr(seat, "via_invitation", False) \
            or game.status in (Game.Status.SETUP, Game.Status.CANCELLED):
        return {"sheet": []}
    sheet = sheet_of(seat, context["view"], context["names"])
    return {"sheet": sheet,
            "rows": sheet_rows(sheet, secret=str(context.get("secret", "")),
                               csrf_token=context.get("csrf_token"),
                               open_=game.status in GOING_ON,
                               round_now=context["view"].get("round") or 1)}


def sheet_rows(sheet: list[SheetRow], *, secret: str, csrf_token: object, open_: bool,
               round_now: int) -> SafeString:
    """Each other seat's part of the sheet: while the game goes on (`open_`) a form
    posting its note of round `round_now` through the seat's link `secret`, its rounds."""
    page = _SheetPage(secret=secret, csrf=csrf_input(csrf_token), open_=open_,
                      round_now=round_now)
    return format_html_join("", "{}", ((page.row(row),) for row in sheet))


def plain_sheet_rows(sheet: list[SheetRow], *, secret: str, csrf_token: object, open_: bool,
                     round_now: int) -> SafeString:
    """`sheet_rows`, from the plain template it stands in for: the tests' reference."""
    return from_template("games/reference/sheet_rows.html", {
        "sheet": sheet, "secret": secret, "csrf_token": csrf_token, "open": open_,
        "round": round_now, "marks": Mark.choices, "max_length": MAX_NOTE_LENGTH})


class _SheetPage:
    """The words, path and CSRF field every seat's part of the sheet shares, made once."""

    def __init__(self, *, secret: str, csrf: SafeString, open_: bool, round_now: int) -> None:
        self.open, self.round_now = open_, round_now
        if open_:
            self.action = reverse("games:seat-note", args=[secret])
            self.csrf = csrf
            self.marks = [(value, capfirst(str(label))) for value, label in Mark.choices]
            self.your_note = translated(_("Your note"))
            self.did = translated(_("What this player did this round:"))
            self.nothing = translated(_("Nothing against anyone yet this round."))
            self.earlier = translated(_("Earlier rounds:"))
        self.no_mark = translated(_("no mark"))

    def row(self, row: SheetRow) -> SafeString:
        """One other seat's part: its note of this round to edit (or, once the game is
        over, its name), then its rounds."""
        head = self.form(row) if self.open else format_html(
            "<h3>{}</h3>", filled(_("%(name)s, seat %(number)s"), name=row.name,
                                  number=shown_seat(row.number)))
        return format_html('\n  <div class="sheet-row" id="sheet-{}">\n  {}\n  {}\n  </div>\n  ',
                           row.number, head, self.rounds(row.rounds))

    def form(self, row: SheetRow) -> SafeString:
        marks = format_html_join("", (
            '<label class="choice"><input type="radio" name="mark" value="{}"{}> {}</label>'
            "\n      "), ((value, " checked" if value == row.now.mark else "", label)
                           for value, label in self.marks))
        return format_html(
            '<form method="post" action="{action}">{csrf}\n'
            '    <input type="hidden" name="about" value="{number}">\n'
            "    <fieldset>\n"
            "      <legend>{legend}</legend>\n"
            "      {marks}<p><label for=\"note-{number}\">{your_note}</label>\n"
            '      <input id="note-{number}" name="text" maxlength="{max_length}"'
            ' value="{text}"></p>\n'
            '      <button type="submit">{save}</button>\n'
            "    </fieldset>\n"
            "  </form>",
            action=self.action, csrf=self.csrf, number=row.number, marks=marks,
            legend=filled(_("%(name)s, seat %(number)s: round %(round)s"), name=row.name,
                          number=shown_seat(row.number), round=self.round_now),
            your_note=self.your_note, max_length=MAX_NOTE_LENGTH, text=row.now.text,
            save=filled(_("Save my note on %(name)s"), name=row.name))

    def rounds(self, rounds: list[RoundNotes]) -> SafeString:
        """While the game goes on, this round's actions, then the earlier rounds' notes
        (all of them once it is over), newest first."""
        parts: list[SafeString] = []
        earlier = rounds
        if self.open:
            parts.append(format_html('\n    <p class="sheet-actions-title">{}</p>\n    {}\n  ',
                                     self.did, _actions(rounds[0].actions) if rounds[0].actions
                                     else format_html('<p class="hint">{}</p>', self.nothing)))
            earlier = rounds[1:]
            if earlier:
                parts.append(format_html('<p class="sheet-actions-title">{}</p>', self.earlier))
        if earlier:
            parts.append(format_html('<ul class="sheet-rounds">{}</ul>', format_html_join(
                "", "{}", ((self.round_notes(notes),) for notes in earlier))))
        return format_html_join("", "{}", ((part,) for part in parts))

    def round_notes(self, notes: RoundNotes) -> SafeString:
        return format_html(
            "\n    <li><strong>{}:</strong>\n      {}{}\n      {}</li>\n  ",
            filled(_("Round %(round)s"), round=notes.round),
            filled(_("marked %(mark)s"), mark=notes.mark_label) if notes.mark_label
            else self.no_mark,
            format_html("; “{}”", notes.text) if notes.text else "",
            _actions(notes.actions) if notes.actions else "")


def _actions(lines: list[str]) -> SafeString:
    return format_html("<ul>{}</ul>", format_html_join("", "<li>{}</li>",
                                                         ((line,) for line in lines)))
