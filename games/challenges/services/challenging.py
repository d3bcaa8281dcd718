"""Challenging players by their public name, and their answers (docs/playing.md
"Challenge a player").

- A challenger needs a public name of their own (the challenged see it, never an
  address) and may challenge CHALLENGES_PER_DAY players a day (by counted mailbox,
  games.people.core.mailboxes: a refusal says when one more is possible).
- A name is challenged only when its player takes challenges: a public name whose
  person has not closed them, has not blocked the challenger, has an address the server
  can write to and has not asked to be forgotten. Every other case, an unknown name
  too, gets the one answer, so nothing tells whether a name has an address behind it
  or what its player chose.
- The server emails each player challenged (games.challenges.doors.challenge_letters):
  the challenger's public name and the terms, and their own home, where they answer.
  Neither side ever sees the other's address: the challenger's list names the players
  by their public names, and every email goes from the server.
- Accepted by everyone named, the challenge becomes an open table with them at it
  (games.tables.services.forming.seat_together): full, it starts at once through the
  tables' starting service and each player gets their own seat link by email and on
  their home; with seats left, strangers take them (or bots at the end of the table's
  wait, when the challenger allowed them). A refusal ends the challenge; so does
  CHALLENGE_DAYS without every answer (the beat's `expire_challenges`).
- While it waits, its challenger may withdraw it (and a moderator, from the admin: the
  same service). Each player challenged who had its email is told it was withdrawn;
  those whose email never went (it was still queued, or failed) are not, since theirs
  is skipped now and they never heard of it. A withdrawn challenge still counts towards
  the daily cap: withdrawing and challenging again is not a way round it.

Every act locks the challenge's row, checks, then writes; a refusal changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.challenges.core.challenge_rows import (
    Challenge,
    ChallengeBlock,
    Challenged,
    ChallengesClosed,
)
from games.challenges.core.challenge_terms import ChallengeError, Terms
from games.clock.core.clock_facts import duration
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.mail.services.notification_rows import Spec, address_hash
from games.people.core.home_links import HomeLink
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_hash, mailbox_key_hash
from games.people.core.player_data import is_forgotten
from games.players.services.player_page import named
from games.seats.core.invitations import one_at_a_time
from games.seats.core.seat import Seat
from games.setup.core.player_defaults import seat_language_and_zone
from games.tables.core.wishes import TableError, Wish
from games.tables.services.forming import seat_together
from games.tables.services.naming import public_name

DAY = timedelta(days=1)
OPEN = Challenge.Status.OPEN
Kind = Notification.Kind


def nobody(name: str) -> ChallengeError:
    """The one answer for every name that cannot be challenged (see the module)."""
    return ChallengeError(404, "cannot_challenge", _(
        "No player takes challenges under the name “%(name)s”. Check the name as their "
        "public page writes it; some players take no challenges.") % {"name": name[:30]},
        "to")


@dataclass(frozen=True)
class Opponent:
    name: str  # the public name as its player writes it
    address: str  # never shown to the challenger


def address_of_key(key: str) -> str:
    """The address the server writes to for the person of this mailbox key's hash: their
    home's, else one of their seats' ("" for none)."""
    found = HomeLink.objects.filter(mailbox_key=key).values_list("address", flat=True).first()
    if not found:
        found = (Seat.objects.filter(mailbox_key=key).exclude(email="")
                 .order_by("-created_at").values_list("email", flat=True).first())
    return found or ""


def _opponent(name: str, challenger: str) -> Opponent:
    owner = named(name)
    if owner is None:
        raise nobody(name)
    mine = mailbox_key_hash(challenger)
    if owner.mailbox == mine:
        raise ChallengeError(400, "bad_request", _("You cannot challenge yourself."), "to")
    if (ChallengesClosed.objects.filter(mailbox=owner.mailbox).exists()
            or ChallengeBlock.objects.filter(by_key=owner.mailbox, blocked_key=mine).exists()):
        raise nobody(name)
    address = address_of_key(owner.mailbox)
    if not address or is_forgotten(address) or mailbox_hash(address) == mailbox_hash(challenger):
        raise nobody(name)  # a second home of the challenger's own mailbox counts as none
    return Opponent(name=owner.name, address=address)


def challenged_today(address: str, now: datetime) -> list[datetime]:
    """When each player the address's mailbox challenged in the last day was, oldest
    first."""
    return list(Challenged.objects.filter(challenge__counted=mailbox_hash(address),
                                          created_at__gt=now - DAY)
                .order_by("created_at").values_list("created_at", flat=True))


def _check_cap(address: str, wanted: int, now: datetime) -> None:
    """ChallengeError 429 (with the seconds until enough of today's challenges are a day
    old) when `wanted` more would pass the daily cap; 400 when no day would let them."""
    cap = settings.CHALLENGES_PER_DAY
    if wanted > cap:
        raise ChallengeError(400, "too_many_names", _(
            "You can challenge at most %(n)s players a day.") % {"n": cap}, "to")
    sent = challenged_today(address, now)
    over = len(sent) + wanted - cap
    if over > 0:
        free_at = sent[over - 1] + DAY
        wait = max(int((free_at - now).total_seconds()) + 1, 1)
        raise ChallengeError(429, "too_many_challenges", _(
            "A player may challenge %(cap)s players a day, and you have challenged %(n)s "
            "in the last day: try again in %(wait)s.") % {
            "cap": cap, "n": len(sent), "wait": duration(timedelta(seconds=wait))},
            retry_after=wait)


def create_challenge(address: str, terms: Terms) -> Challenge:
    """Challenge the players `terms` names and email each of them. ChallengeError: 409
    no public name of one's own, or an open challenge to one of them already; 404 a name
    that cannot be challenged (one answer for all: see the module); 429 the daily cap;
    400 oneself."""
    now = timezone.now()
    with transaction.atomic():
        one_at_a_time()  # the caps are checked one request at a time (games.seats)
        mine = public_name(address)
        if mine is None:
            raise ChallengeError(409, "no_name", _(
                "Choose a public name first: the players you challenge see it, never your "
                "address."))
        _check_cap(address, len(terms.names), now)
        opponents = [_opponent(name, address) for name in terms.names]
        waiting = Challenged.objects.filter(
            challenge__status=OPEN, challenge__challenger_key=mailbox_key_hash(address),
            mailbox_key__in=[mailbox_key_hash(o.address) for o in opponents])
        already = waiting.values_list("name", flat=True).first()
        if already is not None:
            raise ChallengeError(409, "already_challenged", _(
                "Your challenge to %(name)s is still waiting for an answer.")
                % {"name": already}, "to")
        wish = terms.wish
        challenge = Challenge.objects.create(
            challenger=address.strip(), counted=mailbox_hash(address),
            challenger_name=mine.name, ruleset=wish.ruleset, seats=wish.high,
            hours_per_move=wish.hours_per_move, clock_preset=wish.clock,
            language=wish.language, rated=wish.rated, bots_fill=wish.bots_fill,
            created_at=now, expires_at=now + timedelta(days=settings.CHALLENGE_DAYS))
        Challenged.objects.bulk_create([
            Challenged(challenge=challenge, address=o.address, name=o.name, created_at=now)
            for o in opponents])
        plan.queue([_letter(challenge, o.address) for o in opponents])
    return challenge


def challenge_letter_key(challenge_id: int, address: str) -> str:
    """The key of the challenge's email to one player challenged (its one row)."""
    return f"challenge:{challenge_id}:to={address_hash(address)}"


def _letter(challenge: Challenge, address: str) -> Spec:
    """The challenge's email to one player challenged."""
    return _to_challenged(challenge, address, Kind.CHALLENGE,
                          challenge_letter_key(challenge.pk, address))


def _to_challenged(challenge: Challenge, address: str, kind: str, key: str) -> Spec:
    """An email about the challenge to one player it named, in their home's language."""
    language, _zone = seat_language_and_zone(address, game_language=challenge.language)
    return Spec(key=key, kind=kind, to_email=address,
                params={"challenge": challenge.pk, "language": language})


# A challenge's email that went, or is going out now (claimed, rendered while it was
# open): its player may have it. Pending or retrying ones render again and are skipped
# once the challenge is over; skipped and failed ones never reached anyone.
EMAILED = (Notification.Status.SENT, Notification.Status.SENDING)


def emailed_among(challenge_id: int, addresses: list[str]) -> list[str]:
    """Those of `addresses` (players the challenge named) its email went to."""
    keys = {challenge_letter_key(challenge_id, address): address for address in addresses}
    went = set(Notification.objects.filter(key__in=keys, status__in=EMAILED)
               .values_list("key", flat=True))
    return [address for key, address in keys.items() if key in went]


def _withdrawn_letter(challenge: Challenge, address: str) -> Spec:
    """A player challenged hears the challenge was withdrawn."""
    return _to_challenged(challenge, address, Kind.CHALLENGE_OFF,
                          f"challenge_off:{challenge.pk}:to={address_hash(address)}")


def answer_letter(challenge: Challenge, outcome: str, name: str = "") -> Spec:
    """The challenger hears what became of their challenge: "refused" (by `name`),
    "forming" (everyone accepted; the table waits for more players) or "expired"."""
    language, _zone = seat_language_and_zone(challenge.challenger,
                                             game_language=challenge.language)
    return Spec(key=f"challenge_answer:{challenge.pk}:{outcome}",
                kind=Kind.CHALLENGE_ANSWER, to_email=challenge.challenger,
                params={"challenge": challenge.pk, "outcome": outcome, "name": name,
                        "language": language})


@dataclass(frozen=True)
class Answered:
    """A challenge after one player's answer: its status, and its table once everyone
    accepted (its number, whether it started, its game's public id)."""

    challenge: int
    status: str
    table: int | None = None
    started: bool = False
    game: str | None = None

    def as_json(self) -> dict[str, object]:
        return {"challenge": self.challenge, "status": self.status, "table": self.table,
                "started": self.started, "game": self.game}


def _no_challenge() -> ChallengeError:
    return ChallengeError(404, "no_challenge", _("You have no such challenge."))


def _over() -> ChallengeError:
    return ChallengeError(409, "challenge_over", _(
        "This challenge is over: it was accepted, refused, withdrawn or has expired."))


def _mine(address: str, challenge_id: object) -> tuple[Challenge, Challenged]:
    """The locked challenge `challenge_id` and the address's place in it: 404 for any
    challenge that does not name the address (another's is as unknown as none); 409 when
    it is no longer open or the address has answered."""
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        raise _no_challenge()
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    mine = (challenge.challenged.filter(of_mailbox(address)).first()
            if challenge is not None else None)
    if challenge is None or mine is None:
        raise _no_challenge()
    if challenge.status != OPEN or challenge.expires_at <= timezone.now():
        raise _over()
    if mine.answer:
        raise ChallengeError(409, "already_answered", _("You have answered this challenge."))
    return challenge, mine


def _table_wish(challenge: Challenge) -> Wish:
    return Wish(ruleset=challenge.ruleset, low=challenge.seats, high=challenge.seats,
                hours_per_move=challenge.hours_per_move, language=challenge.language,
                rated=challenge.rated, bots_fill=challenge.bots_fill,
                clock=challenge.clock_preset)


def accept_challenge(address: str, challenge_id: object) -> Answered:
    """Accept: when everyone named has, the table is made for them (see the module).
    ChallengeError: 404 no such challenge of the address's, 409 over or answered."""
    with transaction.atomic():
        challenge, mine = _mine(address, challenge_id)
        now = timezone.now()
        mine.answer, mine.answered_at = Challenged.Answer.ACCEPTED, now
        mine.save(update_fields=["answer", "answered_at"])
        everyone = list(challenge.challenged.order_by("pk"))
        if any(other.answer != Challenged.Answer.ACCEPTED for other in everyone):
            return Answered(challenge=challenge.pk, status=challenge.status)
        try:
            seated = seat_together([challenge.challenger, *(o.address for o in everyone)],
                                   _table_wish(challenge))
        except TableError as refused:  # two of them share a mailbox now: nothing made
            raise ChallengeError(409, refused.code, refused.message) from None
        challenge.status, challenge.ended_at = Challenge.Status.ACCEPTED, now
        challenge.table_id = seated.table
        challenge.save(update_fields=["status", "ended_at", "table"])
        started = seated.status != "forming"
        if not started:
            plan.queue([answer_letter(challenge, "forming")])
        return Answered(challenge=challenge.pk, status=challenge.status, table=seated.table,
                        started=started, game=seated.game)


def refuse_challenge(address: str, challenge_id: object, *, block: bool = False) -> Answered:
    """Refuse (and, with `block`, take no challenge from the challenger again): the
    challenge ends, and its challenger hears that it was refused (never of the block).
    ChallengeError: 404 no such challenge of the address's, 409 over or answered."""
    with transaction.atomic():
        challenge, mine = _mine(address, challenge_id)
        end(challenge, mine)
        if block:
            add_block(address, challenge.challenger_key, challenge.challenger_name)
        return Answered(challenge=challenge.pk, status=challenge.status)


def withdraw_challenge(challenge_id: object, *, challenger: str | None) -> Challenge:
    """Withdraw a challenge still waiting for answers: by its challenger (`challenger`,
    their address: a challenge of anyone else's is as unknown as none) or by a moderator
    (None: any challenge, from the admin). It ends as withdrawn, and every player it
    named who had its email is told (see the module). ChallengeError: 404 no such
    challenge of the challenger's, 409 no longer waiting (accepted by everyone, refused,
    withdrawn, or past its days)."""
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        raise _no_challenge()
    with transaction.atomic():
        found = Challenge.objects.select_for_update().filter(pk=challenge_id)
        if challenger is not None:
            found = found.filter(of_mailbox(challenger, "challenger_key"))
        challenge = found.first()
        if challenge is None:
            raise _no_challenge()
        now = timezone.now()
        if challenge.status != OPEN or challenge.expires_at <= now:
            raise _over()
        challenge.status, challenge.ended_at = Challenge.Status.WITHDRAWN, now
        challenge.save(update_fields=["status", "ended_at"])
        named = list(challenge.challenged.order_by("pk").values_list("address", flat=True))
        plan.queue([_withdrawn_letter(challenge, address)
                    for address in emailed_among(challenge.pk, named)])
    return challenge


def end(challenge: Challenge, refuser: Challenged) -> None:
    """`refuser` refuses the locked, open challenge: it ends, and its challenger is told."""
    now = timezone.now()
    refuser.answer, refuser.answered_at = Challenged.Answer.REFUSED, now
    refuser.save(update_fields=["answer", "answered_at"])
    challenge.status, challenge.ended_at = Challenge.Status.REFUSED, now
    challenge.save(update_fields=["status", "ended_at"])
    plan.queue([answer_letter(challenge, "refused", refuser.name)])


def add_block(address: str, blocked_key: str, blocked_name: str) -> bool:
    """The address takes no challenge from the person of `blocked_key` (kept by both
    mailbox keys' hashes); False when it did not already."""
    _row, made = ChallengeBlock.objects.get_or_create(
        by_key=mailbox_key_hash(address), blocked_key=blocked_key,
        defaults={"blocked_name": blocked_name})
    return made


def expire_challenges(now: datetime | None = None) -> int:
    """The beat: every open challenge past its days ends as expired, and its challenger
    hears of it; each in its own transaction, locked and checked again. How many."""
    now = now or timezone.now()
    due = list(Challenge.objects.filter(status=OPEN, expires_at__lte=now)
               .order_by("expires_at").values_list("pk", flat=True)[:500])
    done = 0
    for challenge_id in due:
        with transaction.atomic():
            challenge = Challenge.objects.select_for_update().filter(
                pk=challenge_id, status=OPEN, expires_at__lte=now).first()
            if challenge is None:
                continue
            challenge.status, challenge.ended_at = Challenge.Status.EXPIRED, now
            challenge.save(update_fields=["status", "ended_at"])
            plan.queue([answer_letter(challenge, "expired")])
            done += 1
    return done
