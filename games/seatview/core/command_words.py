"""The words of the email commands, per language; English works in every language.

Words are compared lower-case and without accents (`fold`). The first word of a
language is the one the emails use in examples. A verb may be a few words: the card's own
name in that language ("caduta massi 5 in 3,0", as the card is called on the page and in
the hand), next to a shorter word ("frana").
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Mapping

LANGUAGES = ("en", "it", "nl", "es", "de")

VERBS: dict[str, dict[str, tuple[str, ...]]] = {
    "play": {"en": ("play",), "it": ("gioca",), "nl": ("speel",), "es": ("juega",),
             "de": ("spiele", "spiel")},
    "pass": {"en": ("pass", "discard"), "it": ("passa", "scarta"), "nl": ("pas", "passen"),
             "es": ("pasa", "descarta"), "de": ("passe", "passen")},
    "map": {"en": ("map",), "it": ("mappa",), "nl": ("kaart", "plan"), "es": ("mapa",),
            "de": ("karte", "schatzkarte")},
    # The card's name first (games.seatview.core.words: "Caduta massi", "Ingestorte gang",
    # "Caída de rocas"): the examples show the word the hand shows.
    "rockfall": {"en": ("rockfall",), "it": ("caduta massi", "frana"),
                 "nl": ("ingestorte gang", "instorting"),
                 "es": ("caida de rocas", "derrumbe"), "de": ("steinschlag",)},
    "gold": {"en": ("gold",), "it": ("oro",), "nl": ("goud",), "es": ("oro",), "de": ("gold",)},
    "steal": {"en": ("steal",), "it": ("ruba",), "nl": ("steel",), "es": ("roba",),
              "de": ("stiehl", "stehle")},
    "free": {"en": ("free",), "it": ("libera",), "nl": ("bevrijd",), "es": ("libera",),
             "de": ("befreie",)},
    # Italian: the imperative "di'" (as the seat page writes it) first, for the examples;
    # "dì" folds to "di", which is accepted too, and so is a typographic apostrophe.
    "say": {"en": ("say",), "it": ("di'", "di’", "di", "dici"), "nl": ("zeg",),
            "es": ("di", "dice"),
            "de": ("sag", "sage")},
    # A private note on another seat (games.notes): `note 3 suspect broke my lamp`.
    "note": {"en": ("note",), "it": ("nota", "appunta"), "nl": ("notitie", "noteer"),
             "es": ("nota", "anota"), "de": ("notiz", "notiere")},
    # The clock (games.inbound.services.clock_commands): no move, whatever the game's version.
    "nudge": {"en": ("nudge",), "it": ("sollecita",), "nl": ("duw",), "es": ("avisa",),
              "de": ("stups", "stupse")},
    "pause": {"en": ("pause",), "it": ("pausa",), "nl": ("pauze",), "es": ("pausa",),
              "de": ("pause",)},
}
# "pause agree", "pause end" (anything else after "pause": a number of days and a reason).
AGREE = {"en": ("agree", "yes", "ok"), "it": ("accetto", "si"), "nl": ("akkoord", "ja"),
         "es": ("acepto", "si"), "de": ("ja", "einverstanden")}
END = {"en": ("end", "stop"), "it": ("fine", "basta"), "nl": ("einde", "stop"),
       "es": ("fin", "basta"), "de": ("ende", "stopp")}

# Small words between the parts of a command: "at 2,1", "on Bert", "remove trapped".
AT = {"en": ("at",), "it": ("in", "a"), "nl": ("op",), "es": ("en",), "de": ("auf", "bei")}
ON = {"en": ("on",), "it": ("su", "a"), "nl": ("op", "bij"), "es": ("a", "sobre"),
      "de": ("auf", "an")}
REMOVE = {"en": ("remove",), "it": ("togli", "rimuovi"), "nl": ("verwijder",),
          "es": ("quita", "retira"), "de": ("entferne",)}
TURNED = {"en": ("turned", "rotated"), "it": ("girata", "ruotata"), "nl": ("gedraaid",),
          "es": ("girada",), "de": ("gedreht",)}
ME = {"en": ("me", "myself"), "it": ("me", "mi"), "nl": ("mij", "mezelf"), "es": ("mi", "yo"),
      "de": ("mich", "mir")}
GOALS: dict[int, dict[str, tuple[str, ...]]] = {
    0: {"en": ("top",), "it": ("alto", "sopra"), "nl": ("boven", "bovenste"),
        "es": ("arriba", "superior"), "de": ("oben", "obere")},
    1: {"en": ("middle",), "it": ("centro", "mezzo"), "nl": ("midden", "middelste"),
        "es": ("centro", "central"), "de": ("mitte", "mittlere")},
    2: {"en": ("bottom",), "it": ("basso", "sotto"), "nl": ("onder", "onderste"),
        "es": ("abajo", "inferior"), "de": ("unten", "untere")},
}
TOOLS: dict[str, dict[str, tuple[str, ...]]] = {
    "pickaxe": {"en": ("pickaxe", "pick"), "it": ("piccone",), "nl": ("houweel",),
                "es": ("pico",), "de": ("spitzhacke", "hacke")},
    "lantern": {"en": ("lantern", "lamp"), "it": ("lanterna",), "nl": ("lantaarn",),
                "es": ("linterna",), "de": ("laterne",)},
    "cart": {"en": ("cart", "wagon"), "it": ("vagoncino",), "nl": ("kruiwagen",),
             "es": ("carro",), "de": ("lore",)},
}
# Cards in front of you that `free ... remove X` can name besides a broken tool.
TRAPPED = {"en": ("trapped", "trap"), "it": ("trappola", "intrappolato"),
           "nl": ("opgesloten",), "es": ("atrapado",), "de": ("falle", "gefangen")}


def fold(text: str) -> str:
    """Lower case without accents: "Spiele" == "spiele", "libérate" == "liberate"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def all_words(table: Mapping[str, tuple[str, ...]]) -> frozenset[str]:
    return frozenset(word for words in table.values() for word in words)


def first(table: Mapping[str, tuple[str, ...]], language: str) -> str:
    """The word a language's examples use (English where the language has none)."""
    return (table.get(language) or table["en"])[0]


def lookup(word: str, tables: Mapping[str, Mapping[str, tuple[str, ...]]]) -> str | None:
    """Which entry of `tables` (a verb, a tool) the word names in any language."""
    for key, table in tables.items():
        if word in all_words(table):
            return key
    return None


@functools.cache
def _verb_phrases() -> list[tuple[list[str], str]]:
    return sorted(((phrase.split(), verb) for verb, table in VERBS.items()
                   for phrase in all_words(table)), key=lambda item: -len(item[0]))


def leading_verb(words: list[str]) -> tuple[str | None, int]:
    """The verb a line's folded words start with, and how many words it takes (the
    longest name first: "caduta massi" before a one-word verb)."""
    for parts, verb in _verb_phrases():
        if words[:len(parts)] == parts:
            return verb, len(parts)
    return None, 0


def goal_of(word: str) -> int | None:
    if word in ("1", "2", "3"):
        return int(word) - 1
    found = lookup(word, {str(k): v for k, v in GOALS.items()})
    return int(found) if found is not None else None
