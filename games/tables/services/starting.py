"""An open table becomes a game: when its last seat is taken, or at the end of its wait
with bots in the empty seats when its starter allowed them; otherwise it expires at the
end of its wait and its members are told by email (the beat's `sweep_open_tables`).

The game is made like any other (games.setup.services.game_setup.create_game), with the
table's clock preset (games.clock.core.clock_presets) and number (its name in each
reader's language, Game.title): the members in a random order, each seat named by its
player's public name (or "Player N" without one) and in the language and time zone they
chose on their home (else the table's language); every member has accepted by joining,
so the game starts at once and each gets the seat email with their own link, and only
theirs, that says they found the game together. The game is rated when the table was, and
anonymous when the table was (games.game.core.aliases).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.clock.core.clock_presets import preset_named
from games.game.core.game import SeatKind
from games.mail.core.notifications import Notification
from games.mail.services import follow_ups, plan
from games.mail.services.notification_rows import Spec, address_hash
from games.seats.core.seat import Seat
from games.setup.core.player_defaults import seat_language_and_zone
from games.setup.services.game_setup import PlayerSpec, bot_players, create_game
from games.tables.core.table_rows import OpenTable, TableMember
from games.tables.services.naming import name_of


def _players(table: OpenTable, members: list[TableMember]) -> list[PlayerSpec]:
    specs, taken = [], set()
    with translation.override(table.language):
        for number, member in enumerate(members, start=1):
            name = name_of(member.address) or _("Player %(n)s") % {"n": number}
            while name.casefold() in taken:  # a fallback equal to someone's public name
                name = f"{name} {number}"
            taken.add(name.casefold())
            language, zone = seat_language_and_zone(member.address,
                                                    game_language=table.language)
            specs.append(PlayerSpec(name=name, email=member.address, language=language,
                                    time_zone=zone))
    return specs


def start_table(table: OpenTable, *, with_bots: bool = False) -> None:
    """Make the locked table's game and start it (in the caller's transaction); bots take
    the empty seats when `with_bots`."""
    members = list(table.members.order_by("joined_at", "pk"))
    players = _players(table, members)
    if with_bots:
        players += bot_players(table.seats - len(players), [p.name for p in players])
    preset = preset_named(table.clock_preset)
    # Stored in English (the admin's form); each reader sees it in their own language
    # (Game.title, from the table's number).
    made = create_game(name=f"Open table {table.pk}", players=players,
                       ruleset=table.ruleset, hours_per_move=table.hours_per_move,
                       shuffle_seats=True, start=True, invite=False, accepted=True,
                       rated=table.rated, clock=preset.clock if preset else None,
                       anonymous=table.anonymous)
    game, now = made.game, timezone.now()
    game.table_number = table.pk
    game.save(update_fields=["table_number"])
    people = list(Seat.objects.filter(game=game, kind=SeatKind.PERSON))
    for seat in people:  # the normal seat email, each with their own link only
        follow_ups.send_invitation(seat.pk)
    table.status, table.game, table.ended_at = OpenTable.Status.STARTED, game, now
    table.save(update_fields=["status", "game", "ended_at"])


def sweep_tables() -> dict[str, int]:
    """Every forming table whose wait has ended: started with bots, or expired (its
    members are emailed). Each table in its own transaction, locked and checked again."""
    done = {"started": 0, "expired": 0}
    due = list(OpenTable.objects.filter(status=OpenTable.Status.FORMING,
                                        starts_at__lte=timezone.now())
               .order_by("starts_at").values_list("pk", flat=True)[:500])
    for table_id in due:
        with transaction.atomic():
            table = OpenTable.objects.select_for_update().filter(
                pk=table_id, status=OpenTable.Status.FORMING,
                starts_at__lte=timezone.now()).first()
            if table is None:
                continue
            if table.bots_fill and table.members.exists():
                start_table(table, with_bots=True)
                done["started"] += 1
            else:
                expire(table)
                done["expired"] += 1
    return done


def expire(table: OpenTable) -> None:
    """The wait ended without enough players (and no bots allowed): the table closes and
    each member hears of it (in their home's language, else the table's)."""
    table.status, table.ended_at = OpenTable.Status.EXPIRED, timezone.now()
    table.save(update_fields=["status", "ended_at"])
    for member in table.members.all():
        language, _zone = seat_language_and_zone(member.address,
                                                 game_language=table.language)
        plan.queue(table_closed_spec(member.address, table.pk, language))


def table_closed_spec(address: str, table_id: int, language: str) -> list[Spec]:
    return [Spec(key=f"table_closed:{address_hash(address)}:t={table_id}",
                 kind=Notification.Kind.TABLE_CLOSED, to_email=address,
                 params={"table": table_id, "language": language})]
