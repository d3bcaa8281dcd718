"""The marks as an email command writes them, in every language we speak:
`note 3 suspect broke my lamp`, `nota 3 sospetto ...`."""

from __future__ import annotations

from games.notes.core.sheet_rows import Mark

# Folded (lower case) words -> the mark; English words are read in every language.
MARK_WORDS: dict[str, str] = {
    **dict.fromkeys(("trusted", "trust", "fidato", "fiducia", "vertrouwd", "vertrouw",
                     "confiable", "confio", "confío", "vertraut", "vertraue"), Mark.TRUSTED),
    **dict.fromkeys(("unsure", "incerto", "dubbio", "twijfel", "onzeker", "dudoso",
                     "duda", "unsicher"), Mark.UNSURE),
    **dict.fromkeys(("suspect", "suspected", "sospetto", "sospettato", "verdacht",
                     "sospechoso", "sospecho", "verdächtig", "verdaechtig"), Mark.SUSPECTED),
    **dict.fromkeys(("clear", "none", "nessuno", "geen", "ninguno", "keine"), Mark.NONE),
}


def leading_mark(text: str) -> tuple[str | None, str]:
    """The mark the text starts with (None: no mark word, the mark stays as it was) and
    the rest, the note's line."""
    words = text.strip().split(None, 1)
    if words and words[0].casefold() in MARK_WORDS:
        return MARK_WORDS[words[0].casefold()], words[1].strip() if len(words) > 1 else ""
    return None, text.strip()
