"""What people may type into names and messages: no control or format characters (NUL,
line breaks in a name, zero-width and right-to-left override characters), and something
visible. Every text input goes through these (forms, services, email replies), so a name
can never break an email header or hide itself on a page."""

from __future__ import annotations

import unicodedata

# Format characters a name may not hide behind, and controls (Cc) other than the line
# breaks a message may hold.
_FORBIDDEN_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_MESSAGE_WHITESPACE = {"\n", "\r", "\t"}
# Letters that draw nothing (Hangul fillers, the blank Braille pattern): a name made of
# them alone looks empty, so they never count as the visible part.
_BLANK_LOOKING = {"\u115f", "\u1160", "\u2800", "\u3164", "\uffa0"}


def _has_visible(text: str) -> bool:
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LOOKING
               for ch in text)


def is_clean_line(text: str) -> bool:
    """One line of visible text: a name of a game or a player."""
    if not _has_visible(text):
        return False
    return not any(unicodedata.category(ch) in _FORBIDDEN_CATEGORIES for ch in text)


def is_clean_message(text: str) -> bool:
    """Table talk, a dispute: lines of text (line breaks and tabs allowed)."""
    if not _has_visible(text):
        return False
    return not any(unicodedata.category(ch) in _FORBIDDEN_CATEGORIES
                   and ch not in _MESSAGE_WHITESPACE for ch in text)
