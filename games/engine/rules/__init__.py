"""Rulesets. Each is a `Rules` object; `RULESETS` maps the public name to it."""

from __future__ import annotations

from .base import BaseRules, Rules
from .saboteur2 import Saboteur2Rules

RULESETS: dict[str, Rules] = {"base": BaseRules(), "saboteur2": Saboteur2Rules()}


def register(rules: Rules) -> None:
    RULESETS[rules.name] = rules


def rules_for(name: str) -> Rules:
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown ruleset {name!r}; known: {sorted(RULESETS)}") from None
