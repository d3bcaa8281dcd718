"""'Download my data' (the right of access): everything stored of one address, as JSON.

Exactly that person's data (the address's mailbox key, games.people.core.mailboxes): its
seats and their settings, its own table-talk lines, disputes and reports of lines (what
it said and did while it held each seat, by the seats' histories), the games it set up,
the emails written to it and received from it (those that came to a reply address of its
own seat: a From proves nothing), its standby sign-up and the seats it was offered, its
record, the games it left, its devices for alerts and the alerts pushed to them (never a
device's endpoint or keys), the challenges it sent and received, its blocks and whether
it takes challenges (games.challenges: of the other players nothing). Nothing of another
player: no other seat's name, address, hand or role (a seat's own hand is on its page
while the game runs; the replay shows every hand once it is over), and of an email only
what it was (kind, subject, when, what became of it), not the parameters it was built
from.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.challenges.services.challenge_lists import export_challenges
from games.game.core.game import Game
from games.game.core.talk_and_notices import Message
from games.handover.core.handover_rows import SeatOffer, Volunteer
from games.inbound.core.inbound_mail import InboundMail
from games.mail.core.notifications import Notification
from games.moderation.core.moderation_rows import Dispute, TalkReport
from games.notes.services.sheet import notes_of
from games.people.core.home_links import HomeLink
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.public_names import PublicName
from games.push.services.devices import export_alerts
from games.ratings.core.model import Skill
from games.ratings.core.rating_rows import PlayerRating, RatingChange
from games.ratings.services.player_record import player_record, shows_record
from games.seats.core.history import PastHolder
from games.seats.core.reliability import MissedDeadline, SeatTakeover
from games.seats.core.seat import Seat
from games.tables.core.table_rows import TableMember
from games.tournaments.core.event_rows import Entry, Tournament

EXPORT_FORMAT = 1


def _when(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def export_player_data(address: str) -> dict[str, Any]:
    """Every game, seat, table-talk line and email record of `address` (a bounded number
    of queries), ready for json.dumps."""
    address = address.strip()
    digest = mailbox_key_hash(address)  # the person's key: how the seats' histories know them
    seats = list(Seat.objects.filter(of_mailbox(address)).select_related("game")
                 .order_by("game_id", "number"))
    times = _times_held(seats, digest)
    return {
        "format": EXPORT_FORMAT,
        "address": address,
        "exported_at": timezone.now().isoformat(),
        "games": [_game(seat) for seat in seats],
        "games_left": _games_left(seats, digest),
        "table_talk": _talk(times),
        "disputes_filed": [
            {"game": dispute.game.public_id, "about_move": dispute.move_number,
             "text": dispute.text, "shown_to_table": dispute.share_with_table,
             "status": dispute.status, "outcome": dispute.outcome,
             "filed_at": _when(dispute.created_at), "resolved_at": _when(dispute.resolved_at)}
            for dispute in Dispute.objects.filter(_acted(times)).select_related("game")
            .order_by("created_at")],
        "talk_lines_reported": [
            {"game": report.dispute.game.public_id, "reason": report.reason,
             "reported_at": _when(report.created_at)}
            for report in TalkReport.objects.filter(_acted(times))
            .select_related("dispute__game").order_by("created_at", "pk")],
        "hosted_games": [
            {"game": game.public_id, "name": game.name, "status": game.status,
             "created_at": _when(game.created_at), "confirmed_at": _when(game.host_confirmed_at)}
            for game in Game.objects.filter(of_mailbox(address, "host_key")).order_by("pk")],
        "emails_sent_to_you": [
            {"kind": note.kind, "subject": note.subject, "status": note.status,
             "delivery": note.delivery, "game": note.game.public_id if note.game else None,
             "created_at": _when(note.created_at), "sent_at": _when(note.sent_at)}
            for note in Notification.objects.filter(of_mailbox(address, "to_key"))
            .select_related("game").order_by("created_at", "pk")],
        "emails_received_from_you": [
            {"subject": mail.subject, "outcome": mail.outcome,
             "game": mail.game.public_id if mail.game else None,
             "received_at": _when(mail.received_at)}
            # Only what came to a reply address of this person's seat: a From proves
            # nothing (anyone can write any), the reply address does.
            for mail in InboundMail.objects.filter(of_mailbox(address, "seat_key"))
            .select_related("game").order_by("received_at", "pk")],
        "missed_deadlines": [
            {"game": row.game.public_id, "seat": row.seat.number, "at_version": row.version,
             "at": _when(row.created_at)}
            for row in MissedDeadline.objects.filter(of_mailbox(address, "mailbox"))
            .select_related("game", "seat").order_by("created_at")],
        "seats_taken_over": [
            {"game": row.game.public_id, "seat": row.seat.number, "at_version": row.version,
             "at": _when(row.created_at)}
            for row in SeatTakeover.objects.filter(of_mailbox(address, "taken_by_mailbox"))
            .select_related("game", "seat").order_by("created_at")],
        "standby": [_volunteer(v) for v in Volunteer.objects.filter(of_mailbox(address))],
        "seat_offers": [
            {"game": offer.open_seat.game.public_id, "seat": offer.open_seat.seat.number,
             "source": offer.source, "state": offer.state,
             "offered_at": _when(offer.created_at), "answered_at": _when(offer.answered_at)}
            for offer in SeatOffer.objects.filter(of_mailbox(address))
            .select_related("open_seat__game", "open_seat__seat").order_by("created_at")],
        "home": [{"language": row.language, "time_zone": row.time_zone,
                  "created_at": _when(row.created_at), "link_rotated_at": _when(row.rotated_at),
                  "next_game_offered": row.next_game_offered, "theme": row.theme}
                 for row in HomeLink.objects.filter(of_mailbox(address))],
        "notes": notes_of(address),  # the private notes it wrote (games.notes)
        "record": player_record(address).as_json(),
        "record_shown_to_tables": shows_record(address),
        **_strangers(address),
        **export_alerts(address),  # the alerts' devices and pushes (games.push)
        **export_challenges(address),  # challenges sent and received, blocks
    }


def _strangers(address: str) -> dict[str, Any]:
    """The public name, the ratings (as kept: OpenSkill's mu and sigma too) and what each
    rated round did to them, the open tables sat at and the tournaments joined."""
    key = mailbox_key_hash(address)
    name = PublicName.objects.filter(mailbox=key).first()
    return {
        "public_name": None if name is None else {
            "name": name.name, "changed_at": _when(name.changed_at),
            "ratings_listed": name.ratings_listed},
        "ratings": {row.ruleset: {"rating": Skill(row.mu, row.sigma).shown,
                                  "rounds": row.rounds, "mu": row.mu, "sigma": row.sigma,
                                  "last_rated_round_at": _when(row.last_round_at)}
                    for row in PlayerRating.objects.filter(mailbox=key).order_by("ruleset")},
        "rating_history": [
            {"ruleset": row.ruleset, "game": row.rated_round.game.public_id,
             "round": row.rated_round.round, "seat": row.seat,
             "rating_before": Skill(row.mu_before).shown,
             "rating": Skill(row.mu_after, row.sigma_after).shown,
             "mu_before": row.mu_before, "mu": row.mu_after, "sigma": row.sigma_after,
             "rated_at": _when(row.rated_at)}
            for row in RatingChange.objects.filter(mailbox=key)
            .select_related("rated_round__game").order_by("rated_at", "pk")],
        "open_tables": [
            {"table": member.table_id, "ruleset": member.table.ruleset,
             "seats": member.table.seats, "status": member.table.status,
             "joined_at": _when(member.joined_at),
             "game": member.table.game.public_id if member.table.game else None}
            for member in TableMember.objects.filter(of_mailbox(address))
            .select_related("table__game").order_by("joined_at")],
        "tournaments": [
            {"tournament": entry.tournament_id, "name": entry.tournament.name,
             "status": entry.tournament.status, "joined_at": _when(entry.joined_at),
             "no_shows": entry.no_shows, "dropped_at": _when(entry.dropped_at)}
            for entry in Entry.objects.filter(of_mailbox(address))
            .select_related("tournament").order_by("joined_at")],
        "tournaments_hosted": [
            {"tournament": event.pk, "name": event.name, "status": event.status,
             "created_at": _when(event.created_at)}
            for event in Tournament.objects.filter(of_mailbox(address, "host_mailbox"))
            .order_by("created_at", "pk")],
    }


def _game(seat: Seat) -> dict[str, Any]:
    game = seat.game
    over = game.status == Game.Status.FINISHED
    return {
        "game": game.public_id, "name": game.name, "ruleset": game.ruleset,
        "status": game.status, "created_at": _when(game.created_at),
        "seat": {
            # Their own name, as stored: their data (an anonymous table's alias beside it).
            "number": seat.number, "name": seat.player_name, "alias": seat.alias or None,
            "played_by": seat.kind,
            "language": seat.language, "time_zone": seat.time_zone,
            "email_mode": seat.email_mode, "confirm_moves": seat.confirm_moves,
            "accepted_at": _when(seat.accepted_at),
            "missed_turns_in_a_row": seat.missed_turns,
            "absent_since": _when(seat.absent_since),
            "on_vacation_until": _when(seat.vacation_until),
            "email_problem_at": _when(seat.email_problem_at),
            "link_rotated_at": _when(seat.link_rotated_at),
            "looking_for_a_new_player_since": _when(seat.open_since),
        },
        # The seat's gold once the game is over (everyone's is public then).
        "final_gold": game.state_without_log().scores[seat.number] if over else None,
    }


def _games_left(seats: list[Seat], digest: str) -> list[dict[str, Any]]:
    """The seats the address held and someone else holds now (taken over, or a
    moderator put another player in): the game, the seat, the name it played under and
    when it changed hands. Nothing of who holds it now."""
    held = (PastHolder.objects.filter(mailbox=digest, bot=False)
            .exclude(seat_id__in=[seat.pk for seat in seats])
            .select_related("game").order_by("id"))
    return [{"game": row.game.public_id, "name": row.game.name, "status": row.game.status,
             "seat": row.number, "played_as": row.name, "until_version": row.until_version,
             "left_at": _when(row.created_at)}
            for row in held]


@dataclass(frozen=True)
class TimeHeld:
    """One time the address held a seat: its table talk is the seat's lines with ids in
    (after_message, upto_message], its other acts (a dispute filed, a line reported) those
    in [after, upto) (games.seatview.services.holders.holder_then); None: still theirs."""

    seat_id: int
    after_message: int
    upto_message: int | None
    after: datetime | None
    upto: datetime | None


def _talk(times: list[TimeHeld]) -> list[dict[str, Any]]:
    """What the address said at its tables: in its seats since they last changed hands,
    and in seats it held before someone else took them (games.seats.core.history), never
    the words of whoever held one of its seats before it or after it."""
    if not times:
        return []
    said = Q()
    for held in times:
        said |= Q(seat_id=held.seat_id, pk__gt=held.after_message,
                  **({} if held.upto_message is None else {"pk__lte": held.upto_message}))
    return [{"game": public_id, "at": _when(at), "text": text}
            for public_id, at, text in Message.objects.filter(said)
            .order_by("created_at", "pk").values_list("game__public_id", "created_at", "text")]


def _acted(times: list[TimeHeld]) -> Q:
    """The rows of a seat's acts (a `seat` and a `created_at`) done while the address held
    it: a dispute its successor filed is not the address's, one it filed before leaving
    is."""
    acted = Q(pk__in=[])
    for held in times:
        within = Q(seat_id=held.seat_id)
        if held.after is not None:
            within &= Q(created_at__gte=held.after)
        if held.upto is not None:  # a holder's time ends as the row is written
            within &= Q(created_at__lt=held.upto)
        acted |= within
    return acted


def _times_held(seats: list[Seat], digest: str) -> list[TimeHeld]:
    """Every time the address held a seat, by the seats' histories (a PastHolder row ends
    its holder's time: at its message mark and when it was written)."""
    ends: dict[int, list[tuple[int, datetime, str]]] = {}
    held_before = set(PastHolder.objects.filter(mailbox=digest).values_list("seat_id",
                                                                            flat=True))
    rows = PastHolder.objects.filter(seat_id__in=held_before | {seat.pk for seat in seats})
    for seat_id, until, at, mailbox in rows.order_by("id").values_list(
            "seat_id", "until_message", "created_at", "mailbox"):
        ends.setdefault(seat_id, []).append((until, at, mailbox))
    times: list[TimeHeld] = []
    for seat_id, held in ends.items():
        after, since = 0, None
        for until, at, mailbox in held:
            if mailbox == digest:
                times.append(TimeHeld(seat_id, after, until, since, at))
            after, since = until, at
        if any(seat.pk == seat_id for seat in seats):
            times.append(TimeHeld(seat_id, after, None, since, None))
    times += [TimeHeld(seat.pk, 0, None, None, None) for seat in seats if seat.pk not in ends]
    return times


def _volunteer(volunteer: Volunteer) -> dict[str, Any]:
    return {"name": volunteer.name, "languages": volunteer.languages,
            "rulesets": volunteer.rulesets, "games_at_once": volunteer.games_at_once,
            "offers_per_day": volunteer.offers_per_day, "time_zone": volunteer.time_zone,
            "signed_up_at": _when(volunteer.created_at),
            "confirmed_at": _when(volunteer.confirmed_at), "left_at": _when(volunteer.left_at)}
