"""The challenges a person sent and received, as their home and GET
/api/me/<token>/challenges show them (every player by their public name, never an
address), what their data export holds of challenges, and erasing them ("forget me").
A few queries, however many challenges.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Case, Count, Q, Value, When
from django.utils import timezone

from games.challenges.core.challenge_rows import (
    Challenge,
    ChallengeBlock,
    Challenged,
    ChallengesClosed,
)
from games.challenges.services.challenge_blocks import blocks_of, takes_challenges
from games.challenges.services.challenging import challenged_today
from games.clock.core.clock_presets import clock_words, preset_named
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import public_names_of

SHOWN = 20  # challenges listed each way: the open ones first, then the latest


@dataclass(frozen=True)
class Player:
    name: str
    answer: str  # "" (none yet), "accepted", "refused"
    you: bool = False  # the reader

    def as_json(self) -> dict[str, str | bool | None]:
        return {"name": self.name, "answer": self.answer or None, "you": self.you}


@dataclass(frozen=True)
class ChallengeShown:
    id: int
    sent: bool  # the reader challenged; else they were challenged
    by: str  # the challenger's public name
    players: tuple[Player, ...]  # everyone challenged
    your_answer: str  # the reader's, when challenged
    status: str
    ruleset: str
    seats: int
    hours_per_move: int
    clock: str
    language: str
    rated: bool
    bots_fill: bool
    created: datetime
    expires: datetime
    table: int | None
    game: str | None

    @property
    def clock_words(self) -> str:
        preset = preset_named(self.clock)
        return clock_words(self.hours_per_move, preset.clock if preset else None)

    @property
    def others(self) -> list[str]:
        """The names of the players challenged besides the reader."""
        return [player.name for player in self.players if not player.you]

    @property
    def waiting(self) -> bool:
        """Still waiting for answers: open and within its days."""
        return self.status == Challenge.Status.OPEN and self.expires > timezone.now()

    @property
    def answerable(self) -> bool:
        return not self.sent and self.waiting and not self.your_answer

    @property
    def withdrawable(self) -> bool:
        """The reader sent it and it still waits: they may withdraw it."""
        return self.sent and self.waiting

    def as_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "id": self.id, "by": self.by, "players": [p.as_json() for p in self.players],
            "status": self.status, "ruleset": self.ruleset, "seats": self.seats,
            "hours_per_move": self.hours_per_move, "clock": self.clock or None,
            "language": self.language, "rated": self.rated, "bots_fill": self.bots_fill,
            "created": self.created.isoformat(), "expires": self.expires.isoformat(),
            "table": self.table, "game": self.game}
        if not self.sent:
            answer["your_answer"] = self.your_answer or None
        return answer


def _listed(found: Any) -> list[Challenge]:
    """The open ones first, then the latest: one query."""
    waiting = Case(When(status=Challenge.Status.OPEN, then=Value(0)), default=Value(1))
    return list(found.order_by(waiting, "-created_at", "-pk")
                .select_related("table__game")[:SHOWN])


def _shown(rows: list[Challenge], address: str, *, sent: bool) -> list[ChallengeShown]:
    everyone: dict[int, list[Challenged]] = {}
    for one in Challenged.objects.filter(challenge__in=rows).order_by("pk"):
        everyone.setdefault(one.challenge_id, []).append(one)
    keys = {r.challenger_key for r in rows} | {
        c.mailbox_key for found in everyone.values() for c in found}
    names = public_names_of(keys)
    mine = mailbox_key_hash(address)
    shown = []
    for row in rows:
        named = everyone.get(row.pk, [])
        own = next((c.answer for c in named if c.mailbox_key == mine), "")
        game = row.table.game if row.table is not None else None
        shown.append(ChallengeShown(
            id=row.pk, sent=sent, by=names.get(row.challenger_key, row.challenger_name),
            players=tuple(Player(names.get(c.mailbox_key, c.name), c.answer,
                                 you=c.mailbox_key == mine) for c in named),
            your_answer=own, status=row.status, ruleset=row.ruleset, seats=row.seats,
            hours_per_move=row.hours_per_move, clock=row.clock_preset,
            language=row.language, rated=row.rated, bots_fill=row.bots_fill,
            created=row.created_at, expires=row.expires_at, table=row.table_id,
            game=game.public_id if game is not None else None))
    return shown


def one_challenge(address: str, challenge_id: object, *, sent: bool) -> ChallengeShown | None:
    """One challenge as the address sees it (a letter's), if it sent it (`sent`) or
    received it; None otherwise."""
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        return None
    found = Challenge.objects.filter(pk=challenge_id)
    found = (found.filter(of_mailbox(address, "challenger_key")) if sent else found.filter(
        pk__in=Challenged.objects.filter(of_mailbox(address)).values("challenge_id")))
    rows = list(found.select_related("table__game"))
    return _shown(rows, address, sent=sent)[0] if rows else None


def sent_by(address: str) -> list[ChallengeShown]:
    found = Challenge.objects.filter(of_mailbox(address, "challenger_key"))
    return _shown(_listed(found), address, sent=True)


def received_by(address: str) -> list[ChallengeShown]:
    found = Challenge.objects.filter(
        pk__in=Challenged.objects.filter(of_mailbox(address)).values("challenge_id"))
    return _shown(_listed(found), address, sent=False)


def left_today(address: str) -> int:
    """How many more players the address may challenge now (the daily cap's rest)."""
    return max(settings.CHALLENGES_PER_DAY - len(challenged_today(address, timezone.now())),
               0)


def challenges_json(address: str) -> dict[str, Any]:
    """GET /api/me/<token>/challenges."""
    return {"sent": [c.as_json() for c in sent_by(address)],
            "received": [c.as_json() for c in received_by(address)],
            "blocked": [b.as_json() for b in blocks_of(address)],
            "takes_challenges": takes_challenges(address),
            "challenges_left_today": left_today(address)}


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def export_challenges(address: str) -> dict[str, Any]:
    """What the data export holds of challenges: those the address sent and received,
    with its own answers, its blocks and its choice; of the other players nothing (no
    address, no name), only how many a challenge named."""
    key = mailbox_key_hash(address)
    sent = (Challenge.objects.filter(of_mailbox(address, "challenger_key"))
            .annotate(named=Count("challenged")).order_by("pk"))
    received = Challenged.objects.filter(of_mailbox(address)).select_related(
        "challenge").order_by("pk")
    return {
        "challenges_sent": [
            {"challenge": row.pk, "as_name": row.challenger_name, **_terms(row),
             "players_challenged": row.named} for row in sent],
        "challenges_received": [
            {"challenge": row.challenge_id, "as_name": row.name, **_terms(row.challenge),
             "your_answer": row.answer or None, "answered_at": _when(row.answered_at)}
            for row in received],
        "challengers_blocked": [{"blocked_at": _when(row.created_at)} for row in
                                ChallengeBlock.objects.filter(by_key=key).order_by("pk")],
        "takes_challenges": not ChallengesClosed.objects.filter(mailbox=key).exists(),
    }


def _terms(row: Challenge) -> dict[str, Any]:
    return {"ruleset": row.ruleset, "seats": row.seats, "hours_per_move": row.hours_per_move,
            "clock": row.clock_preset or None, "language": row.language, "rated": row.rated,
            "bots_fill": row.bots_fill, "status": row.status,
            "created_at": _when(row.created_at), "ended_at": _when(row.ended_at)}


def forget_challenges(address: str) -> None:
    """"Forget me": the challenges the address sent; its place in those it received (an
    open one ends: it cannot be accepted without it); its blocks, the blocks of it and
    its choice. Nothing of it stays in a challenge."""
    key = mailbox_key_hash(address)
    Challenge.objects.filter(of_mailbox(address, "challenger_key")).delete()
    mine = Challenged.objects.filter(of_mailbox(address))
    Challenge.objects.filter(pk__in=mine.values("challenge_id"),
                             status=Challenge.Status.OPEN).delete()
    mine.delete()
    ChallengeBlock.objects.filter(Q(by_key=key) | Q(blocked_key=key)).delete()
    ChallengesClosed.objects.filter(mailbox=key).delete()
