"""Checking a finished game's record (docs/api.md "Fairness and the game record"), without
Django: what `manage.py verifygame` runs.

A record holds the commitment, the salt and the seed, the moves, and (format 2) the
hash chain of the moves and the final scores (games.records.services.game_record). The check:

- sha256("<salt>:<seed>") is the commitment (h_0) published at the start;
- the moves replay from the seed, with this engine, to a finished game;
- the head after each move (games.engine.chain) is the record's, and the last one the
  head the game published; the replay's final scores are the record's;
- each head a player saw (`seen`: move number -> the characters they kept, e.g. from a
  turn email) starts the head worked out after that move.

`check_record` returns every line to print (the head after each move among them, so a
player can compare any head they kept) and the first mismatch, or None.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import chain
from .errors import IllegalMove
from .rules import rules_for
from .state import State


class NotARecord(ValueError):
    """The JSON is no game record (a key missing, a value of the wrong kind)."""


@dataclass
class Verdict:
    lines: list[str] = field(default_factory=list)
    mismatch: str | None = None  # the first one found

    def say(self, line: str) -> None:
        self.lines.append(line)

    def refuse(self, problem: str) -> None:
        if self.mismatch is None:
            self.mismatch = problem


@dataclass(frozen=True)
class _Record:
    format: int
    seats: int
    seed: int
    salt: str
    commitment: str
    ruleset: str
    options: dict[str, Any]
    moves: list[Any]
    names: list[str]
    chain: Mapping[str, Any] | None
    scores: Any


def check_record(record: Mapping[str, Any], seen: Mapping[int, str] | None = None) -> Verdict:
    """Check `record` (and the heads a player `seen`); see the module's docstring."""
    parsed = _parse(record)
    verdict = Verdict()
    if not hmac.compare_digest(chain.commitment(parsed.salt, parsed.seed),
                               parsed.commitment.lower()):
        verdict.refuse("sha256(salt:seed) is not the published commitment")
        return verdict
    verdict.say("commitment: matches sha256(salt:seed)")
    verdict.say(f"move 0: {parsed.commitment.lower()}  (the commitment)")
    heads = _replay(parsed, verdict)
    if heads is None:
        return verdict
    _check_chain(parsed, heads, verdict)
    _check_seen(seen or {}, [parsed.commitment.lower(), *heads], verdict)
    return verdict


def _parse(record: Mapping[str, Any]) -> _Record:
    try:
        seats = record["seats"]
        parsed = _Record(
            format=int(record.get("format", 1)), seats=int(seats["count"]),
            seed=int(record["seed"]), salt=str(record["salt"]),
            commitment=str(record["commitment"]), ruleset=str(record["ruleset"]),
            options=dict(record["options"] or {}), moves=list(record["moves"]),
            names=[str(name) for name in seats.get("names") or []],
            chain=record.get("chain"), scores=record.get("scores"))
    except (KeyError, TypeError, ValueError) as missing:
        raise NotARecord(f"not a game record: {missing!r}") from None
    chained = isinstance(parsed.chain, Mapping) and isinstance(parsed.chain.get("heads"), list)
    if (parsed.chain is not None and not chained) or (
            parsed.format >= 2 and (not chained or "scores" not in record)):
        raise NotARecord("not a game record: a record of format 2 has `chain` (with "
                         "`heads`) and `scores`")
    return parsed


def _replay(record: _Record, verdict: Verdict) -> list[str] | None:
    """Apply the moves from the seed, saying the head after each and comparing it with
    the record's as it goes (the first move that differs is the one named); the heads,
    or None when the moves do not replay to the end of a game."""
    try:
        rules = rules_for(record.ruleset)
        state: State = rules.new_game(record.seats, record.seed, record.options)
    except (TypeError, ValueError) as bad:
        verdict.refuse(f"the game cannot be set up from the record: {bad}")
        return None
    listed = [] if record.chain is None else list(record.chain["heads"])
    heads, head = [], record.commitment.lower()
    for number, move in enumerate(record.moves, start=1):
        try:
            state = rules.apply(state, move)
        except (IllegalMove, ValueError) as refused:
            verdict.refuse(f"move {number} does not replay: {refused}")
            return None
        head = chain.extend(head, record.salt, move)
        heads.append(head)
        verdict.say(f"move {number}: {head}")
        said = str(listed[number - 1]).lower() if number <= len(listed) else None
        if record.chain is not None and said != head:
            verdict.refuse(f"move {number}: the head after it is {head}; the record says "
                           f"{said} (move {number} or an earlier one was changed)")
    if not state.finished:
        verdict.refuse("the moves replay, but the game does not end")
        return None
    verdict.say(f"replay: {len(record.moves)} moves, the game ends")
    _check_scores(record, state.scores, verdict)
    return heads


def _check_scores(record: _Record, scores: list[int], verdict: Verdict) -> None:
    for number, score in enumerate(scores):
        name = record.names[number] if number < len(record.names) else str(number)
        verdict.say(f"  {name}: {score}")
    if record.format >= 2 and record.scores != scores:
        verdict.refuse(f"the moves end with the scores {scores}; the record says "
                       f"{record.scores}")


def _check_chain(record: _Record, heads: list[str], verdict: Verdict) -> None:
    """The record's list of heads (each was compared during the replay) is as long as
    the moves, and its head is the one the game published after the last move."""
    if record.chain is None:
        verdict.say("chain: this record (format 1) lists no heads; compare the heads above "
                    "with those your emails showed")
        return
    listed = record.chain["heads"]
    if len(listed) != len(heads):
        verdict.refuse(f"the record lists {len(listed)} heads for {len(heads)} moves")
    final = heads[-1] if heads else record.commitment.lower()
    published = str(record.chain.get("head", "")).lower()
    if published != final or record.chain.get("version") != len(heads):
        verdict.refuse(f"the game published the head {published} at move "
                       f"{record.chain.get('version')}; its {len(heads)} moves give {final}")
    if verdict.mismatch is None:
        verdict.say(f"chain: every head matches the record; after move {len(heads)}: "
                    f"{final}")


def _check_seen(seen: Mapping[int, str], heads: list[str], verdict: Verdict) -> None:
    for number in sorted(seen):
        kept = seen[number].strip().lower()
        if not 0 <= number < len(heads):
            verdict.refuse(f"move {number}: the record has no such move (0 to {len(heads) - 1})")
        elif not heads[number].startswith(kept):
            verdict.refuse(f"move {number}: the head after it is {heads[number]}, not the "
                           f"{kept} you saw: the record is not the game you played")
        else:
            verdict.say(f"move {number}: {kept} as you saw it")
