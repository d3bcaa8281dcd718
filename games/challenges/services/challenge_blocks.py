"""Who may challenge whom: blocking a player by their public name (their open challenges
to the blocker are refused with it), unblocking, and taking no challenges at all. Kept by
the hashes of mailbox keys (games.challenges.core.challenge_rows), never an address.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from games.challenges.core.challenge_rows import (
    Challenge,
    ChallengeBlock,
    Challenged,
    ChallengesClosed,
)
from games.challenges.core.challenge_terms import ChallengeError
from games.challenges.services.challenging import add_block, end
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import public_names_of
from games.players.services.player_page import named


@dataclass(frozen=True)
class Blocked:
    id: int
    name: str  # their public name now, else the one they had when blocked

    def as_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name}


def _no_player(name: str) -> ChallengeError:
    return ChallengeError(404, "no_player", _("No player has the public name “%(name)s”.")
                          % {"name": name[:30]})


def block_name(address: str, name: str) -> Blocked:
    """Take no challenge from the player of the public name `name` (again: nothing
    changes); their open challenges to the address are refused. ChallengeError: 404 no
    such name, 400 one's own."""
    owner = named(name)
    if owner is None:
        raise _no_player(name)
    if owner.mailbox == mailbox_key_hash(address):
        raise ChallengeError(400, "bad_request", _("You cannot block yourself."))
    with transaction.atomic():
        add_block(address, owner.mailbox, owner.name)
        waiting = Challenged.objects.filter(
            of_mailbox(address), answer=Challenged.Answer.WAITING,
            challenge__status=Challenge.Status.OPEN, challenge__challenger_key=owner.mailbox)
        for mine in waiting.select_related("challenge"):
            challenge = Challenge.objects.select_for_update().get(pk=mine.challenge_id)
            if challenge.status == Challenge.Status.OPEN:
                end(challenge, mine)
        row = ChallengeBlock.objects.get(by_key=mailbox_key_hash(address),
                                         blocked_key=owner.mailbox)
    return Blocked(id=row.pk, name=owner.name)


def unblock(address: str, *, name: str = "", block_id: int | None = None) -> Blocked:
    """Let the blocked player (by their public name, now or when blocked, or by the
    block's id on the home) challenge the address again. ChallengeError 404 when the
    address blocked no such player."""
    mine = ChallengeBlock.objects.filter(by_key=mailbox_key_hash(address))
    row = None
    if block_id is not None:
        row = mine.filter(pk=block_id).first()
    elif name:
        owner = named(name)
        row = (mine.filter(blocked_key=owner.mailbox).first() if owner is not None else None)
        row = row or mine.filter(blocked_name=name).order_by("pk").first()
    if row is None:
        raise ChallengeError(404, "not_blocked", _("You have not blocked such a player."))
    blocked = Blocked(id=row.pk, name=public_names_of([row.blocked_key]).get(
        row.blocked_key, row.blocked_name))
    row.delete()
    return blocked


def blocks_of(address: str) -> list[Blocked]:
    """The players the address blocked, each by their public name now (else then)."""
    rows = list(ChallengeBlock.objects.filter(by_key=mailbox_key_hash(address))
                .order_by("created_at", "pk"))
    names = public_names_of(row.blocked_key for row in rows)
    return [Blocked(id=row.pk, name=names.get(row.blocked_key, row.blocked_name))
            for row in rows]


def takes_challenges(address: str) -> bool:
    return not ChallengesClosed.objects.filter(mailbox=mailbox_key_hash(address)).exists()


def set_takes_challenges(address: str, *, takes: bool) -> bool:
    """Take challenges or none at all (challenges waiting for an answer stay to be
    answered). The choice now."""
    key = mailbox_key_hash(address)
    if takes:
        ChallengesClosed.objects.filter(mailbox=key).delete()
    else:
        ChallengesClosed.objects.get_or_create(mailbox=key)
    return takes
