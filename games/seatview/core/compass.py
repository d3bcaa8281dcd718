"""The four sides of a card in each language's letters and words.

The engine names a card's exits N, E, S, W (English). A reader sees their own
language's letters: Italian and Spanish write O for west (Ovest, Oeste), German O for
east (Ost), Dutch O for east and Z for south (Oost, Zuid). So the same letter can mean
east or west: a letter is read in the reader's language first, then in English
(`exit_of`), and a language's letters never contradict the English ones it keeps.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation

SIDES = "NESW"  # the engine's order and letters
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}  # a side after a card is turned round
LETTERS = {"en": "NESW", "it": "NESO", "es": "NESO", "nl": "NOZW", "de": "NOSW"}
WORDS: dict[str, tuple[str, str, str, str]] = {
    "en": ("north", "east", "south", "west"),
    "it": ("nord", "est", "sud", "ovest"),
    "es": ("norte", "este", "sur", "oeste"),
    "nl": ("noord", "oost", "zuid", "west"),
    "de": ("nord", "ost", "sud", "west"),  # "süd" folded (command_words.fold)
}
# The words as a reader reads them (the maze's cells say them): German's are nouns.
SPOKEN: dict[str, tuple[str, str, str, str]] = {
    **WORDS, "de": ("Nord", "Ost", "Süd", "West"),
}


def language_code(language: str | None = None) -> str:
    """The language whose letters and words are used: `language`, else the current one
    (English for a language without its own)."""
    code = (language or translation.get_language() or "en")[:2]
    return code if code in LETTERS else "en"


_language = language_code


def letter(side: str, language: str | None = None) -> str:
    """One engine side ("W") in the language's letter ("O" in Italian); the current
    language when none is given."""
    index = SIDES.find(side)
    return LETTERS[_language(language)][index] if index >= 0 else side


def letters(sides: Iterable[str], language: str | None = None, joiner: str = "-") -> str:
    """"E-S-W" in the language's letters: "E-S-O" (it), "O-S-W" (de), "O-Z-W" (nl)."""
    return joiner.join(letter(side, language) for side in sides)


def exit_of(word: str, language: str) -> str | None:
    """The engine side a typed letter or word names (lower case, no accents), read in
    `language` first and then in English; None if it names none."""
    for code in (_language(language), "en"):
        lower = LETTERS[code].lower()
        if len(word) == 1 and word in lower:
            return SIDES[lower.index(word)]
        if word in WORDS[code]:
            return SIDES[WORDS[code].index(word)]
    return None


def exits_of(text: str, language: str) -> tuple[str, ...] | None:
    """The sides of a typed list of exits: "n-o", "s-e", "nord-ovest", "no" (letters run
    together): in the engine's order, or None when any part names no side."""
    parts = [p for p in text.replace("/", "-").split("-") if p]
    if len(parts) == 1 and len(parts[0]) > 1 and exit_of(parts[0], language) is None:
        parts = list(parts[0])  # "neso": letters run together
    if not 1 <= len(parts) <= 4:
        return None
    sides = [exit_of(part, language) for part in parts]
    if any(side is None for side in sides) or len(set(sides)) != len(sides):
        return None
    return tuple(side for side in SIDES if side in sides)
