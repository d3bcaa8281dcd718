"""Move shapes: checking that a move dict is well formed, before any rule is asked.

Each move type lists its fields as (name, accepted types, required, default). Unknown
fields are refused too: a typo such as "rotate" must not silently become "not rotated".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any, cast

from .errors import MalformedMove
from .types import Move

FieldSpec = tuple[str, tuple[type, ...], bool, Any]

INT = (int,)
STR = (str,)
BOOL = (bool,)
OPT_STR = (str, type(None))
LIST = (list,)

COMMON: tuple[FieldSpec, ...] = (("seat", INT, False, None),)


def parse(move: object, shapes: Mapping[str, tuple[FieldSpec, ...]],
          known_cards: Collection[str]) -> Move:
    """Return a normalised copy of `move`, or raise MalformedMove with a clear message."""
    if not isinstance(move, dict):
        raise MalformedMove("not_an_object", "A move must be a JSON object.")
    kind = move.get("type")
    if not isinstance(kind, str):
        raise MalformedMove("missing_type", 'A move needs a "type" such as "place" or "pass".')
    if kind not in shapes:
        allowed = ", ".join(sorted(shapes))
        raise MalformedMove("unknown_move_type",
                            f'There is no move of type "{kind}" here. Known types: {allowed}.',
                            {"type": kind, "known": sorted(shapes)})
    fields = shapes[kind] + COMMON
    names = {f[0] for f in fields}
    for key in move:
        if key != "type" and key not in names:
            raise MalformedMove("unknown_field", f'A "{kind}" move has no field "{key}".',
                                {"type": kind, "field": key})
    clean: dict[str, object] = {"type": kind}
    for name, types, required, default in fields:
        if name not in move:
            if required:
                raise MalformedMove("missing_field", f'A "{kind}" move needs the field "{name}".',
                                    {"type": kind, "field": name})
            if default is not None or name in ("card", "rotated"):
                clean[name] = default
            continue
        value = move[name]
        # bool is an int in Python; refuse True as a coordinate or seat.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            wanted = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise MalformedMove("bad_field",
                                f'The field "{name}" of a "{kind}" move must be {wanted}.',
                                {"type": kind, "field": name})
        if isinstance(value, list):
            if not all(isinstance(v, str) for v in value) or len(set(value)) != len(value):
                raise MalformedMove("bad_field", f'The field "{name}" of a "{kind}" move must '
                                    "be a list of different card ids.",
                                    {"type": kind, "field": name})
            value = list(value)
        clean[name] = value
    for name in ("card", "cards", "remove"):
        for card in _card_values(clean.get(name)):
            if card not in known_cards:
                raise MalformedMove("unknown_card", f'There is no card "{card}" in this game.',
                                    {"card": card})
    # Every field is now one the move's type has, of the type `Move` names: the checks
    # above are what makes this dict a Move.
    return cast(Move, clean)


def named_card(move: Move) -> str:
    """The card of a move whose type requires one (`parse` has checked it is there)."""
    card = move.get("card")
    if card is None:
        raise MalformedMove("missing_field", f'A "{move["type"]}" move needs the field "card".',
                            {"type": move["type"], "field": "card"})
    return card


def _card_values(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []
