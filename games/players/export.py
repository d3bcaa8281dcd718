"""'Download my data' (the right of access): everything stored of one address, as JSON.

Exactly that person's data (the address's mailbox key, games.models.mailboxes): its
seats and their settings, its own table-talk lines, disputes and reports of lines, the
games it set up, the emails written to it and received from it (those that came to a
reply address of its own seat: a From proves nothing), its standby sign-up and the seats
it was offered, its record, the games it left. Nothing of another player: no other
seat's name, address, hand or role (a seat's own hand is on its page while the game runs;
the replay shows every hand once it is over), and of an email only what it was (kind,
subject, when, what became of it), not the parameters it was built from.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from games.models import (
    Dispute,
    Game,
    InboundMail,
    Message,
    MissedDeadline,
    Notification,
    PastHolder,
    PlayerRating,
    PublicName,
    Seat,
    SeatOffer,
    SeatTakeover,
    TableMember,
    TalkReport,
    Volunteer,
)
from games.models.home_links import HomeLink
from games.models.mailbox_keys import of_mailbox
from games.models.mailboxes import mailbox_key_hash
from games.players.record import player_record, shows_record
from games.ratings.model import Skill

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
    return {
        "format": EXPORT_FORMAT,
        "address": address,
        "exported_at": timezone.now().isoformat(),
        "games": [_game(seat) for seat in seats],
        "games_left": _games_left(seats, digest),
        "table_talk": _talk(seats, digest),
        "disputes_filed": [
            {"game": dispute.game.public_id, "about_move": dispute.move_number,
             "text": dispute.text, "shown_to_table": dispute.share_with_table,
             "status": dispute.status, "outcome": dispute.outcome,
             "filed_at": _when(dispute.created_at), "resolved_at": _when(dispute.resolved_at)}
            for dispute in Dispute.objects.filter(seat__in=seats).select_related("game")
            .order_by("created_at")],
        "talk_lines_reported": [
            {"game": report.dispute.game.public_id, "reason": report.reason,
             "reported_at": _when(report.created_at)}
            for report in TalkReport.objects.filter(seat__in=seats)
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
                  "created_at": _when(row.created_at), "link_rotated_at": _when(row.rotated_at)}
                 for row in HomeLink.objects.filter(of_mailbox(address))],
        "record": player_record(address).as_json(),
        "record_shown_to_tables": shows_record(address),
        **_strangers(address),
    }


def _strangers(address: str) -> dict[str, Any]:
    """The public name, the ratings (as kept: OpenSkill's mu and sigma too) and the open
    tables sat at."""
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
        "open_tables": [
            {"table": member.table_id, "ruleset": member.table.ruleset,
             "seats": member.table.seats, "status": member.table.status,
             "joined_at": _when(member.joined_at),
             "game": member.table.game.public_id if member.table.game else None}
            for member in TableMember.objects.filter(of_mailbox(address))
            .select_related("table__game").order_by("joined_at")],
    }


def _game(seat: Seat) -> dict[str, Any]:
    game = seat.game
    over = game.status == Game.Status.FINISHED
    return {
        "game": game.public_id, "name": game.name, "ruleset": game.ruleset,
        "status": game.status, "created_at": _when(game.created_at),
        "seat": {
            "number": seat.number, "name": seat.player_name, "played_by": seat.kind,
            "language": seat.language, "time_zone": seat.time_zone,
            "email_mode": seat.email_mode, "accepted_at": _when(seat.accepted_at),
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


def _talk(seats: list[Seat], digest: str) -> list[dict[str, Any]]:
    """What the address said at its tables: in its seats since they last changed hands,
    and in seats it held before someone else took them (games.models.seat_history), never
    the words of whoever held one of its seats before it or after it."""
    times = _times_held(seats, digest)
    if not times:
        return []
    said = Q()
    for seat_id, after, upto in times:
        said |= Q(seat_id=seat_id, pk__gt=after, **({} if upto is None else {"pk__lte": upto}))
    return [{"game": public_id, "at": _when(at), "text": text}
            for public_id, at, text in Message.objects.filter(said)
            .order_by("created_at", "pk").values_list("game__public_id", "created_at", "text")]


def _times_held(seats: list[Seat], digest: str) -> list[tuple[int, int, int | None]]:
    """(seat id, after message id, up to message id or None: still theirs) of every time
    the address held a seat, by the seats' histories."""
    ends: dict[int, list[tuple[int, str]]] = {}
    held_before = set(PastHolder.objects.filter(mailbox=digest).values_list("seat_id",
                                                                            flat=True))
    rows = PastHolder.objects.filter(seat_id__in=held_before | {seat.pk for seat in seats})
    for seat_id, until, mailbox in rows.order_by("id").values_list("seat_id", "until_message",
                                                                   "mailbox"):
        ends.setdefault(seat_id, []).append((until, mailbox))
    times: list[tuple[int, int, int | None]] = []
    for seat_id, held in ends.items():
        after = 0
        for until, mailbox in held:
            if mailbox == digest:
                times.append((seat_id, after, until))
            after = until
        if any(seat.pk == seat_id for seat in seats):
            times.append((seat_id, after, None))
    times += [(seat.pk, 0, None) for seat in seats if seat.pk not in ends]
    return times


def _volunteer(volunteer: Volunteer) -> dict[str, Any]:
    return {"name": volunteer.name, "languages": volunteer.languages,
            "rulesets": volunteer.rulesets, "games_at_once": volunteer.games_at_once,
            "offers_per_day": volunteer.offers_per_day, "time_zone": volunteer.time_zone,
            "signed_up_at": _when(volunteer.created_at),
            "confirmed_at": _when(volunteer.confirmed_at), "left_at": _when(volunteer.left_at)}
