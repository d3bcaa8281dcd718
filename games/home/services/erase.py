"""Erasing one address, table by table (games.home.services.forget decides when).

What stays: every game whole, its moves, seed, commitment and hash chain untouched (the
replay and `verifygame` still check), each seat with the neutral name FORMER_PLAYER and
no address (and so does the seat's history where the address held a seat before someone
took it over: erasure wins over history), the seat's table talk (its text without the
address), the table's notices with the neutral name. What goes: the address and the
player's name wherever they were kept, the seat's link and reply addresses (dead), the
email records to and from the address, its home link and what it chose there, its
standby sign-up, and the rows kept by its hashes (reliability, invitation counts, refused
hosts, the record shown to tables), its public name, ratings and open tables, its private
notes (games.notes), its challenges and blocks (games.challenges), so that nothing links
the games to the person any more. An address
is matched by its mailbox key (games.people.core.mailboxes: the person, whatever the
spelling); the rows the caps keep
by the counted mailbox (invitations, refused hosts, who left an open seat) by that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.contrib.admin.models import LogEntry
from django.db import transaction
from django.db.models import Model, Q
from django.utils import timezone

from games.challenges.services.challenge_lists import forget_challenges
from games.game.core.game import Game
from games.game.core.talk_and_notices import GameNotice, Message
from games.handover.core.handover_rows import OpenSeat, SeatOffer, Volunteer
from games.inbound.core.inbound_mail import InboundMail
from games.mail.core.notifications import Notification
from games.moderation.core.moderation_rows import Dispute, ModeratorAction, TalkReport
from games.notes.services.sheet import erase_notes_of
from games.people.core.home_links import HomeLink
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_hash, mailbox_key_hash
from games.people.core.new_homes import NewHome
from games.people.core.player_data import FORMER_PLAYER, RecordShown
from games.people.core.public_names import PublicName
from games.push.services.devices import forget_alerts
from games.ratings.core.rating_rows import PlayerRating, RatingChange
from games.seats.core.history import PastHolder
from games.seats.core.invitations import Invitation
from games.seats.core.reliability import MissedDeadline, SeatTakeover
from games.seats.core.reply_tokens import revoke_seat
from games.seats.core.seat import Seat
from games.setup.core.host_limits import HostBlock
from games.tables.core.table_rows import OpenTable, TableMember
from games.talk.core.mutes import TalkMute
from games.tournaments.core.event_rows import Entry, EventRequest, Tournament

# What an address typed into a free text becomes.
ADDRESS_GONE = "[…]"


def _without(text: str, address: str) -> str:
    return re.sub(re.escape(address), ADDRESS_GONE, text, flags=re.IGNORECASE)


def _json_without(value: Any, address: str, names: set[str]) -> Any:
    """A JSON value with the address taken out of its strings and every string that is
    one of `names` made the neutral name."""
    if isinstance(value, dict):
        return {k: _json_without(v, address, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_without(v, address, names) for v in value]
    if isinstance(value, str):
        return FORMER_PLAYER if value in names else _without(value, address)
    return value


def erase_seats(address: str, seats: Iterable[Seat]) -> None:
    """Make the seats a former player's: no address, the neutral name, a new link nobody
    is given (the old one dies), no reply address; what the tables kept of the name too."""
    seats = list(seats)
    if not seats:
        return
    names = {seat.player_name for seat in seats} - {FORMER_PLAYER}
    with transaction.atomic():
        for seat in seats:
            Seat.erase_holder(seat.pk)
            revoke_seat(seat.pk)
        games = {seat.game_id for seat in seats}
        seat_ids = [seat.pk for seat in seats]
        OpenSeat.objects.filter(seat_id__in=seat_ids).update(left_name=FORMER_PLAYER,
                                                             left_mailbox="")
        _rewrite_json(GameNotice.objects.filter(game_id__in=games), "params", address, names)
        # The moderators' alerts about these seats name the player.
        _rewrite_json(Notification.objects.filter(seat_id__in=seat_ids), "params", address,
                      names)
        _rewrite_json(ModeratorAction.objects.filter(game_id__in=games), "details", address,
                      names)
        _rewrite_reported_talk(games, address, names)


def _rewrite_reported_talk(games: set[int], address: str, names: set[str]) -> None:
    """Reports of talk filed before their context stopped keeping the writers' names
    (the pages name writers from the seats' history now) still hold them."""
    _rewrite_json(Dispute.objects.filter(game_id__in=games).exclude(talk_context=[]),
                  "talk_context", address, names)


def _rewrite_json(rows: Any, field: str, address: str, names: set[str]) -> None:
    for pk, value in rows.values_list("pk", field):
        clean = _json_without(value, address, names)
        if clean != value:
            rows.model.objects.filter(pk=pk).update(**{field: clean})


def erase_address(address: str) -> None:
    """Every trace of the address outside the seats still waiting for their games to end
    (those keep it until erase_seats): emails, texts, sign-ups, rows by its mailbox."""
    digest = mailbox_hash(address)  # the counted mailbox (the caps' rows)
    with transaction.atomic():
        Notification.objects.filter(of_mailbox(address, "to_key")).delete()
        InboundMail.objects.filter(of_mailbox(address, "sender_key")
                                   | of_mailbox(address, "seat_key")).delete()
        Game.objects.filter(of_mailbox(address, "host_key")).update(host_email="",
                                                                     host_mailbox="")
        # Its sign-up, and a refusal of offers kept by its counted mailbox alone.
        Volunteer.objects.filter(of_mailbox(address) | Q(mailbox=digest, email="")).delete()
        for offer in SeatOffer.objects.filter(of_mailbox(address)):
            # Unique per open seat and mailbox: each keeps a name of its own.
            SeatOffer.objects.filter(pk=offer.pk).update(to_email="",
                                                         mailbox=f"forgotten:{offer.pk}")
        OpenSeat.objects.filter(left_mailbox=digest).update(left_name=FORMER_PLAYER,
                                                            left_mailbox="")
        _erase_past_holders(address)
        MissedDeadline.objects.filter(of_mailbox(address, "mailbox")).delete()
        SeatTakeover.objects.filter(of_mailbox(address, "taken_by_mailbox")).update(
            taken_by_mailbox="")
        SeatTakeover.objects.filter(left_mailbox=digest).update(left_mailbox="")
        Invitation.objects.filter(recipient_hash=digest).delete()
        Invitation.objects.filter(host_hash=digest).update(host_hash="")
        HostBlock.objects.filter(Q(recipient_hash=digest) | Q(host_hash=digest)).delete()
        RecordShown.objects.filter(of_mailbox(address, "mailbox")).delete()
        HomeLink.objects.filter(of_mailbox(address)).delete()  # the link dies
        forget_alerts(address)  # its devices and their choice (games.push)
        _erase_strangers(address)
        _scrub_texts(address)


def _erase_past_holders(address: str) -> None:
    """The seats the address held before they changed hands (games.seats.core.history):
    their lines name "a former player" too, and so do the table's notices of those games
    (a takeover's "X took over seat 2 from Hal")."""
    held = PastHolder.objects.filter(of_mailbox(address, "mailbox"))
    names = set(held.values_list("name", flat=True)) - {FORMER_PLAYER}
    games = set(held.values_list("game_id", flat=True))
    held.update(name=FORMER_PLAYER, mailbox="")
    if names:
        _rewrite_json(GameNotice.objects.filter(game_id__in=games), "params", address, names)
        _rewrite_json(ModeratorAction.objects.filter(game_id__in=games), "details", address,
                      names)
        _rewrite_reported_talk(games, address, names)


def _erase_strangers(address: str) -> None:
    """Playing with strangers: the public name (and its keys), the ratings and their
    history, the open tables sat at (a forming table left empty closes), a home asked for
    and the mutes made by or against the person."""
    key = mailbox_key_hash(address)
    PublicName.objects.filter(mailbox=key).delete()
    PlayerRating.objects.filter(mailbox=key).delete()
    RatingChange.objects.filter(mailbox=key).delete()
    tables = set(TableMember.objects.filter(of_mailbox(address)).values_list("table_id",
                                                                             flat=True))
    TableMember.objects.filter(of_mailbox(address)).delete()
    OpenTable.objects.filter(pk__in=tables, status=OpenTable.Status.FORMING,
                             members__isnull=True).update(status=OpenTable.Status.CLOSED,
                                                          ended_at=timezone.now())
    NewHome.objects.filter(of_mailbox(address)).delete()
    TalkMute.objects.filter(Q(by_mailbox=key) | Q(muted_mailbox=key)).delete()
    erase_notes_of(address)  # the private notes and suspicion sheets it wrote
    forget_challenges(address)  # its challenges, its place in others', blocks
    _erase_entries(address)


def _erase_entries(address: str) -> None:
    """Tournaments: an entry of an event still open for sign-up goes; in one under way
    or ended the entry stays for the others' standings, without its address (the page
    says "Player N"), and is paired no more. The events it hosts stay, without their
    host's address; the events it asked for and has not confirmed go."""
    Tournament.objects.filter(of_mailbox(address, "host_mailbox")).update(host_email="")
    EventRequest.objects.filter(of_mailbox(address)).delete()
    mine = Entry.objects.filter(of_mailbox(address))
    mine.filter(tournament__status=Tournament.Status.OPEN).delete()
    for entry in mine:
        Entry.objects.filter(pk=entry.pk).update(
            address="", mailbox_key=f"forgotten:{entry.pk}",
            dropped_at=entry.dropped_at or timezone.now())


def _scrub_texts(address: str) -> None:
    """The address wherever someone typed it: table talk, disputes, moderators' notes,
    email records of others (an error naming it), the admin's history."""
    texts: tuple[tuple[type[Model], list[str]], ...] = (
        (Message, ["text"]), (Dispute, ["text", "note", "outcome"]), (TalkReport, ["reason"]),
        (ModeratorAction, ["reason"]), (Notification, ["last_error", "subject"]),
        (InboundMail, ["detail", "subject"]),
        (LogEntry, ["object_repr", "change_message"]))
    for model, fields in texts:
        found = Q()
        for name in fields:
            found |= Q(**{f"{name}__icontains": address})
        for row in model._default_manager.filter(found):
            for name in fields:
                setattr(row, name, _without(getattr(row, name), address))
            row.save(update_fields=fields)
    kept: tuple[tuple[type[Model], str], ...] = (
        (Notification, "params"), (GameNotice, "params"), (ModeratorAction, "details"))
    for model, field in kept:
        rows = model._default_manager.filter(**{f"{field}__icontains": address})
        _rewrite_json(rows, field, address, set())
