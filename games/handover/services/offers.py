"""Who is asked to take an open seat: standby volunteers, a few at a time; whoever a
player of the table invites; whoever asks on the open-seats page. Each gets a SeatOffer
with a private link, by email (a Notification in their language); the first accepted
takes the seat (games.handover.services.takeover) and the others die.

Limits: a volunteer is offered at most `offers_per_day` seats in 24 hours (their choice,
at most MAX_OFFERS_PER_DAY) and nothing while they play `games_at_once` games; a mailbox
that refused these emails (games.handover.services.standby.refuse_offers) is offered nothing; a
player's invitations and the page's requests count against the invitation caps of the
setup page (games.setup.services.web_setup: per recipient's and per sender's mailbox, per day),
and a day's asks (a player's invitations and the page's requests) are capped per game
(OPEN_SEAT_ASKS_PER_GAME_PER_DAY) and per asking seat: the open seat asked for and the
player inviting (OPEN_SEAT_ASKS_PER_SEAT_PER_DAY). No offer email names a player's
address, nor carries anything a host or a player wrote (games.handover.doors.handover_letters).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.game.core.game import Game, SeatKind
from games.handover.core.handover_errors import HandoverError
from games.handover.core.handover_rows import (
    MAX_OFFERS_PER_DAY,
    RUNNING,
    OpenSeat,
    SeatOffer,
    Volunteer,
    offer_link_parts,
)
from games.kit import limits
from games.mail.core.notifications import Notification
from games.mail.services import plan
from games.people.core.deliverable import refusal_to_store
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_hash
from games.seats.core.invitations import Invitation, one_at_a_time
from games.seats.core.seat import Seat

DAY = timedelta(days=1)
PLAYING = (Game.Status.SETUP, Game.Status.ACTIVE, Game.Status.PAUSED)


def _offer(row: OpenSeat, email: str, source: str, language: str, *,
           volunteer: Volunteer | None = None, invited_by: Seat | None = None) -> SeatOffer:
    """A new offer row and its email, sent after the commit."""
    salt, digest = offer_link_parts()
    offer = SeatOffer.objects.create(
        open_seat=row, volunteer=volunteer, to_email=email, mailbox=mailbox_hash(email),
        source=source, invited_by=invited_by, link_salt=salt, token_hash=digest)
    plan.queue([plan.Spec(key=f"seat_offer:{offer.pk}", kind=Notification.Kind.SEAT_OFFER,
                          to_email=email, game_id=row.game_id,
                          params={"offer": offer.pk, "language": language,
                                  "mailbox": offer.mailbox})])
    return offer


def refused(mailbox: str) -> bool:
    """Whether this mailbox asked for no more of these emails."""
    return Volunteer.objects.filter(mailbox=mailbox, left_at__isnull=False).exists()


def _seat_mailboxes(game: Game) -> set[str]:
    return {mailbox_hash(email) for email in game.seats.values_list("email", flat=True)
            if email}


# ---- standby volunteers -----------------------------------------------------------------


def offer_to_volunteers(open_seat_id: int) -> int:
    """Offer the open seat to the next matching volunteers, a few at a time: a round of
    offers holds at most HANDOVER_OFFERS_AT_ONCE and lasts HANDOVER_OFFER_HOURS (then the
    next few are asked). A round with room left (nobody fitted when the seat opened, or
    fewer than a few) takes whoever fits now, so a volunteer who confirms or resumes is
    offered the seat at the beat's next sweep, not when the round is over. Returns how
    many were offered it."""
    now = timezone.now()
    with transaction.atomic():
        row = (OpenSeat.objects.select_for_update().select_related("game", "seat")
               .filter(pk=open_seat_id, closed_at__isnull=True).first())
        if row is None or row.game.status not in RUNNING:
            return 0
        round_open = row.offered_at is not None and row.offered_at > now - timedelta(
            hours=settings.HANDOVER_OFFER_HOURS)
        room = settings.HANDOVER_OFFERS_AT_ONCE - (offers_this_round(row) if round_open
                                                   else 0)
        if room <= 0:
            return 0
        chosen = matching_volunteers(row, now)[:room]
        seat_language = row.seat.language
        for volunteer in chosen:
            # The language the seat was played in if they play in it, else their first.
            language = (seat_language if seat_language in volunteer.languages
                        else volunteer.language)
            _offer(row, volunteer.email, SeatOffer.Source.STANDBY, language,
                   volunteer=volunteer)
        if chosen and not round_open:  # a round starts with its first offer
            OpenSeat.objects.filter(pk=row.pk).update(offered_at=now)
    return len(chosen)


def offers_this_round(row: OpenSeat) -> int:
    """The volunteers offered the seat since its current round of offers began."""
    return SeatOffer.objects.filter(open_seat=row, source=SeatOffer.Source.STANDBY,
                                    created_at__gte=row.offered_at).count()


def matching_volunteers(row: OpenSeat, now: datetime) -> list[Volunteer]:
    """Volunteers who may be offered this seat now, those offered least lately first."""
    game = row.game
    languages = set(game.seats.filter(Q(kind=SeatKind.PERSON) | Q(pk=row.seat_id))
                    .values_list("language", flat=True))
    excluded = _seat_mailboxes(game) | {row.left_mailbox} | set(
        SeatOffer.objects.filter(open_seat=row).values_list("mailbox", flat=True))
    found: list[tuple[int, datetime, Volunteer]] = []
    on_standby = Volunteer.objects.filter(confirmed_at__isnull=False, paused_at__isnull=True,
                                          left_at__isnull=True).exclude(email="")
    for volunteer in on_standby:
        if (volunteer.mailbox in excluded or game.ruleset not in volunteer.rulesets
                or not languages & set(volunteer.languages)):
            continue
        recent = SeatOffer.objects.filter(mailbox=volunteer.mailbox,
                                          created_at__gte=now - DAY).count()
        if recent >= min(volunteer.offers_per_day, MAX_OFFERS_PER_DAY):
            continue
        playing = Seat.objects.filter(of_mailbox(volunteer.email), kind=SeatKind.PERSON,
                                      game__status__in=PLAYING).count()
        if playing >= volunteer.games_at_once:
            continue
        found.append((recent, volunteer.created_at, volunteer))
    found.sort(key=lambda entry: (entry[0], entry[1]))
    return [volunteer for _recent, _since, volunteer in found]


# ---- invited by a player, asked for on the open-seats page -------------------------------


def _open_row(open_seat_id: int) -> OpenSeat:
    row = (OpenSeat.objects.select_related("game").filter(pk=open_seat_id,
                                                          closed_at__isnull=True).first())
    if row is None or row.game.status not in RUNNING:
        raise HandoverError("not_open", _("This seat no longer looks for a new player."))
    return row


def _check_recipient(row: OpenSeat, email: str, sender: str = "") -> str:
    """The recipient's mailbox hash, or HandoverError (at the table, refused, capped)."""
    why = refusal_to_store(email)
    if why:
        raise HandoverError("refused", why)
    box = mailbox_hash(email)
    if box in _seat_mailboxes(row.game):
        raise HandoverError("already_at_table", _("This address already has a seat in "
                                                  "this game."))
    if refused(box):
        raise HandoverError("refused", _("%(email)s asked for no more of these emails.")
                            % {"email": email})
    recent = Invitation.objects.filter(created_at__gte=timezone.now() - DAY)
    if (recent.filter(recipient_hash=box).count()
            >= settings.SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY):
        raise HandoverError("recipient_limit", _("%(email)s has been invited as often today "
                                                 "as anyone may; try again tomorrow.")
                            % {"email": email})
    if sender and (recent.filter(host_hash=mailbox_hash(sender)).count()
                   >= settings.SETUP_INVITATIONS_PER_HOST_PER_DAY):
        raise HandoverError("sender_limit", _("You have invited as many people today as "
                                              "one address may; try again tomorrow."))
    return box


ASKED = (SeatOffer.Source.TABLE, SeatOffer.Source.LISTED)


def _check_asks(row: OpenSeat, inviter: Seat | None = None) -> None:
    """HandoverError when the game, the open seat or the inviting player has asked as
    many people to take a seat today as the caps allow."""
    recent = SeatOffer.objects.filter(source__in=ASKED, created_at__gte=timezone.now() - DAY)
    per_seat = settings.OPEN_SEAT_ASKS_PER_SEAT_PER_DAY
    if (recent.filter(open_seat__game_id=row.game_id).count()
            >= settings.OPEN_SEAT_ASKS_PER_GAME_PER_DAY):
        raise HandoverError("game_limit", _("This game has asked as many people today to "
                                            "take a seat as one game may; try again "
                                            "tomorrow."))
    if recent.filter(open_seat=row).count() >= per_seat:
        raise HandoverError("seat_limit", _("This seat has been offered to as many people "
                                            "today as one seat may; try again tomorrow."))
    if inviter is not None and recent.filter(invited_by=inviter).count() >= per_seat:
        raise HandoverError("inviter_limit", _("You have asked as many people today to take "
                                               "a seat as one player may; try again "
                                               "tomorrow."))


def _count_invitation(row: OpenSeat, box: str, sender: str = "") -> None:
    """What the caps count (games.seats.core.invitations.Invitation): once per seat and
    mailbox, like a setup's invitation."""
    Invitation.objects.bulk_create([Invitation(
        recipient_hash=box, host_hash=mailbox_hash(sender) if sender else "",
        game_id=row.game_id, seat_id=row.seat_id)], ignore_conflicts=True)


def invite_by_table(inviter: Seat, open_seat_id: int, email: str) -> SeatOffer:
    """A player of the game sends the open seat's offer to `email`."""
    email = email.strip()
    with transaction.atomic():
        one_at_a_time()
        row = _open_row(open_seat_id)
        if row.game_id != inviter.game_id or not inviter.email:
            raise HandoverError("not_open", _("This seat no longer looks for a new player."))
        box = _check_recipient(row, email, inviter.email)
        if SeatOffer.objects.filter(open_seat=row, mailbox=box).exists():
            raise HandoverError("offered", _("%(email)s has been offered this seat already.")
                                % {"email": email})
        _check_asks(row, inviter)
        _count_invitation(row, box, inviter.email)
        try:
            with transaction.atomic():
                return _offer(row, email, SeatOffer.Source.TABLE, inviter.language,
                              invited_by=inviter)
        except IntegrityError:  # the same address, invited by another player just now
            raise HandoverError("offered", _("%(email)s has been offered this seat "
                                             "already.") % {"email": email}) from None


def ask_listed(open_seat_id: int, email: str, language: str, client: str) -> None:
    """Someone on the open-seats page asks for a listed seat: the offer goes to the
    address they gave (so only its mailbox can accept). Asking twice sends nothing more.
    Raises HandoverError, or limits.Limited per client address."""
    email = email.strip()
    limits.hit("seats_client", client)
    with transaction.atomic():
        one_at_a_time()
        row = _open_row(open_seat_id)
        if not row.game.list_open_seats:
            raise HandoverError("not_open", _("This seat no longer looks for a new player."))
        box = _check_recipient(row, email)
        if SeatOffer.objects.filter(open_seat=row, mailbox=box).exists():
            return  # its email went out already
        _check_asks(row)
        _count_invitation(row, box)
        _offer(row, email, SeatOffer.Source.LISTED, language)


def listed_seats() -> QuerySet[OpenSeat]:
    """Open seats of running games whose host allowed the open-seats page, oldest first,
    with only what their facts need of their games and seats
    (games.handover.services.open_seat_facts)."""
    return (OpenSeat.objects.filter(closed_at__isnull=True, game__list_open_seats=True,
                                    game__status__in=RUNNING)
            .select_related("game", "seat")
            .only("game_id", "seat_id", "while_open", "opened_at", "game__ruleset",
                  "game__hours_per_move", "game__version", "game__status", "game__snapshot",
                  "game__rated", "seat__number", "seat__kind")
            .order_by("opened_at", "pk"))


# ---- the beat ---------------------------------------------------------------------------


@shared_task(name="games.tasks.offer_open_seat")
def offer_open_seat(open_seat_id: int) -> int:
    """The first offers of a seat that just opened, to standby volunteers."""
    return offer_to_volunteers(open_seat_id)

