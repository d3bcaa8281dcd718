"""`{% hand_cards %}`: the seat page's hand, each card with its drawing or name and, when
it can be played, its form: a select of every legal move with it
(games.seatview.core.move_forms), grouped by kind. Written here, not by template tags on
each card and option: a hand of six path cards offers a hundred moves and more on every
refresh. Each piece starts on a line of its own, as the template wrote them.
`plain_hand_cards` renders the same from a plain template
(templates/games/reference/hand_cards.html): the reference the tests hold this one to
(tests/web/test_seat_html_reference.py); no page uses it.

Context: forms (MoveForms), lesson (the guide, or None), secret, version, chosen and
chosen_cards (a refused move's choice, kept), csrf_token.
"""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.kit.html_pieces import csrf_input, filled, from_template, translated
from games.seatview.core.move_forms import Choice, HandCard

register = template.Library()


@register.simple_tag(takes_context=True)
def hand_cards(context: template.Context) -> SafeString:
    hand: list[HandCard] = context["forms"].hand
    if not hand:
        return format_html("\n    <p>{}</p>", translated(_("You hold no cards.")))
    page = _HandPage(context)
    return format_html_join("", "{}", ((page.card(number, card),)
                                       for number, card in enumerate(hand, 1)))


def plain_hand_cards(context: template.Context) -> SafeString:
    """`hand_cards`, from the plain template it stands in for: the tests' reference."""
    return from_template("games/reference/hand_cards.html", context)


class _HandPage:
    """What every card's part shares (the form's path, the CSRF field, the words), made
    once a page."""

    def __init__(self, context: template.Context) -> None:
        lesson = context.get("lesson")
        self.lesson_card = getattr(lesson, "card", None) if lesson else None
        self.chosen = context.get("chosen")
        self.chosen_cards = context.get("chosen_cards") or []
        self.version = context.get("version")
        self.action = reverse("games:seat-move", args=[context["secret"]])
        self.csrf = csrf_input(context.get("csrf_token"))
        self.guides = translated(_("the guide's card"))
        self.discard = translated(_("discard"))
        self.choose = translated(_("choose…"))
        self.play = translated(_("Play"))

    def card(self, number: int, card: HandCard) -> SafeString:
        """The `number`th card of the hand (its id on the page: hand-card-<number>)."""
        guides = card.card["id"] == self.lesson_card and self.lesson_card is not None
        if card.svg:
            face = format_html('{}\n      <div class="card-name" id="hand-card-{}">{}</div>',
                               card.svg, number, card.name)
        else:
            face = format_html('<div class="action-face" id="hand-card-{}">{}</div>',
                               number, card.name)
        return format_html(
            '\n    <div class="hand-card {}{}" data-card="{}">\n      {}{}{}{}\n    </div>',
            card.card["kind"], " lesson-card" if guides else "", card.card["id"], face,
            format_html('\n      <p class="lesson-mark">★ {}</p>', self.guides) if guides
            else "",
            self.discard_pick(card) if card.discardable else "",
            self.form(number, card) if card.playable else "")

    def discard_pick(self, card: HandCard) -> SafeString:
        return format_html(
            '\n      <label class="discard-pick"><input type="checkbox" name="cards" value="{}"'
            ' form="discard-form" aria-label="{}"{}> {}</label>', card.card["id"],
            filled(_("discard %(name)s"), name=card.name),
            " checked" if card.card["id"] in self.chosen_cards else "", self.discard)

    def form(self, number: int, card: HandCard) -> SafeString:
        lit = (_("lit: %(name)s fits here") if card.card["kind"] == "path"
               else _("lit: %(name)s can be played here"))
        groups = format_html_join(
            "", '<optgroup label="{}">\n            {}\n          </optgroup>',
            ((group.label, self.options(group.choices)) for group in card.groups))
        return format_html(
            '\n      <form method="post" action="{}" class="card-form" data-cells="{}"\n'
            '            data-lit="{}">\n'
            "        {}\n"
            '        <input type="hidden" name="version" value="{}">\n'
            '        <select name="move" required aria-label="{}">\n'
            '          <option value="">{}</option>\n'
            "          {}\n"
            "        </select>\n"
            '        <button type="submit" aria-describedby="hand-card-{}">{}</button>\n'
            "      </form>\n      ",
            self.action, card.cells,
            filled(lit, name=card.name), self.csrf, self.version,
            filled(_("What to do with %(name)s"), name=card.name), self.choose, groups,
            number, self.play)

    def options(self, choices: list[Choice]) -> SafeString:
        return format_html_join("", '<option value="{}"{}{}>{}</option>', (
            (choice.value, format_html(' data-cell="{}"', choice.cell) if choice.cell else "",
             " selected" if choice.value == self.chosen else "", choice.label)
            for choice in choices))
