"""Names nobody may take as a public name, because they would speak for the site: its
moderators and staff, the site itself and the sender of its emails, and the names the site
gives seats and writes in the log ("Player 2", "a former player", "a bot"), in every
language the site speaks.

Compared through the name's confusable-safe readings (games.tables.services.naming.name_keys),
with the letters that look alike in many fonts folded further: `I`, `l`, `1`, `|` and `!`
read as one letter, `0` as `o`, `rn` as `m`. Punctuation and spaces separate words.

- A long word or phrase (`moderator`, `Saboteur by post`) is refused anywhere in the name,
  even inside a word and with its letters spaced out: `Ann (moderator)`, `xModeratorx`.
- A short word that ordinary words contain (`admin` in "badminton", `mod` in "modest")
  is refused as a word of its own, or spelled out as the whole name.
- The names the site numbers ("Player %(n)s", "seat %(n)s", "Bot 2") are refused with any
  number, as words of their own: `PIayer 1`, `Player 12 (real)`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from email.utils import parseaddr

import confusables
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

FOLD = str.maketrans({"i": "l", "1": "l", "|": "l", "!": "l", "0": "o"})
SEPARATORS = re.compile(r"[\W_]+")
NUMBER = "[0-9lo]+"  # a number, its 1s and 0s folded like the letters they look like

# Words that speak for the site in every language it speaks (it, nl, es, de and English),
# refused anywhere in a name: none is part of an ordinary name or word.
# ("moderatore", "Moderatorin", "moderadora" contain a word listed.)
ANYWHERE = [
    "moderator", "administrator", "webmaster", "postmaster",   # en, nl, de
    "moderatrice", "amministratore", "amministratrice",        # it
    "beheerder",                                               # nl
    "moderador", "administrador",                              # es
    "mitarbeiter",                                             # de
]
# Short ones, refused as words of their own.
AS_WORDS = [
    "admin", "mod", "mods", "staff", "system", "sysop", "support", "server",  # en
    "sistema", "supporto", "personale",                                      # it
    "systeem", "personeel",                                                  # nl
    "soporte", "servidor",                                                   # es
    "systemverwalter", "verwalter",                                          # de
]


@dataclass(frozen=True)
class Reserved:
    """The folded forms to compare with (each its words joined by single spaces) and
    patterns of the numbered names."""

    anywhere: dict[str, str]  # folded letters (no spaces) -> the word as written
    words: dict[str, str]  # folded words -> the word as written
    numbered: list[tuple[re.Pattern[str], str]]


def folded(reading: str) -> str:
    """A reading (NFKC, case folded, look-alikes as ASCII) with I/l/1 and 0/O made one,
    words separated by single spaces."""
    text = reading.translate(FOLD).replace("rn", "m")
    return " ".join(SEPARATORS.sub(" ", text).split())


def _forms(text: str) -> set[str]:
    """Every folded reading of a reserved word, made as a name's readings are."""
    return {folded(reading) for reading in confusables.normalize(
        unicodedata.normalize("NFKC", text).casefold(), prioritize_alpha=True)}


def _numbered(template: str) -> re.Pattern[str]:
    """"Player %(n)s" -> a pattern of that name with any number, spaces optional."""
    before, _marker, after = template.partition("%(n)s")
    parts = [" ?".join(re.escape(word) for word in sorted(_forms(side))[0].split())
             for side in (before, after)]
    body = (parts[0] + " ?" if parts[0] else "") + NUMBER + (" ?" + parts[1] if parts[1] else "")
    return re.compile(rf"(?:^| ){body}(?: |$)")


def _site_names(senders: Sequence[str],
                languages: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """What the site calls itself (its emails' senders too) and writes for people, in
    each of its languages: (anywhere, as words, numbered templates)."""
    anywhere = [name for name in (parseaddr(sender)[0] for sender in senders) if name]
    words: list[str] = []
    numbered = ["Bot %(n)s"]  # bots filling seats (games.setup.services.game_setup.bot_players)
    for language in languages:
        with translation.override(language):
            anywhere += [_("Saboteur by post"), _("a former player")]
            words += [_("a bot"), _("a moderator")]
            numbered += [_("Player %(n)s"), _("seat %(n)s")]
    return anywhere, words, numbered


@functools.cache
def _reserved(senders: tuple[str, ...], languages: tuple[str, ...]) -> Reserved:
    site_anywhere, site_words, templates = _site_names(senders, languages)
    anywhere = {form.replace(" ", ""): word for word in [*ANYWHERE, *site_anywhere]
                for form in _forms(word)}
    words = {form: word for word in [*AS_WORDS, *site_words] for form in _forms(word)}
    numbered = [(_numbered(template), template.replace("%(n)s", "N"))
                for template in dict.fromkeys(templates)]
    return Reserved(anywhere=anywhere, words=words, numbered=numbered)


def reserved() -> Reserved:
    """The reserved names under the current settings (the senders and the languages
    decide them)."""
    return _reserved((settings.DEFAULT_FROM_EMAIL, settings.SERVER_EMAIL),
                     tuple(code for code, _label in settings.LANGUAGES))


def reserved_word_in(readings: Sequence[str]) -> str | None:
    """The reserved word or name one of the name's readings (games.tables.services.naming.
    name_keys) reads as or contains, as the site writes it; None when there is none."""
    found = reserved()
    for reading in readings:
        words = folded(reading)
        letters = words.replace(" ", "")
        for form, word in found.anywhere.items():
            if form in letters:
                return word
        for form, word in found.words.items():
            if f" {form} " in f" {words} " or letters == form.replace(" ", ""):
                return word
        for pattern, example in found.numbered:
            if pattern.search(words):
                return example
    return None
