"""The seat owns its lifecycle (games.seats.core.seat.Seat): its acceptance, its holder,
whether it looks for a new player and its links change through the seat's own methods,
each writing the seat's history itself; and no module outside games.seats writes those
fields (an AST scan of games/, shown to catch each kind of write on a bad example)."""

from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games.game.core.game import Game, SeatKind
from games.people.core.player_data import FORMER_PLAYER
from games.seats.core.history import PastHolder, holder_at_move
from games.seats.core.links import find_seat, link_for
from games.seats.core.seat import Seat
from games.setup.services import game_setup
from tests.support import make_game, token_of

pytestmark = pytest.mark.django_db


def invited_game(*, start: bool = True) -> tuple[Game, list[Seat], list[str]]:
    """Two people invited (nobody accepted yet) and a bot; each seat's invitation token."""
    players = [game_setup.PlayerSpec(name="Ann", email="ann@x.org"),
               game_setup.PlayerSpec(name="Bo", email="bo@x.org"),
               game_setup.bot_player("Hal")]
    made = game_setup.create_game(name="Lifecycle", players=players, seed=3, start=start)
    return made.game, [seat for seat, _link in made.seats], [
        token_of(link) if link else "" for _seat, link in made.seats]


def fresh(seat: Seat) -> Seat:
    return Seat.objects.get(pk=seat.pk)


def history(game: Game) -> list[tuple[int, str, bool]]:
    return list(PastHolder.objects.filter(game=game).order_by("id")
                .values_list("number", "name", "bot"))


# ---- made, accepted, invited -------------------------------------------------------------


def test_a_new_persons_seat_waits_with_an_invitation_and_a_bots_is_taken() -> None:
    _game, seats, invitations = invited_game()
    ann, _bo, hal = seats
    assert not ann.accepted and find_seat(invitations[0]) == ann
    assert find_seat(invitations[0]).via_invitation  # type: ignore[union-attr]
    assert hal.accepted and hal.invite_hash is None and invitations[2] == ""


def test_create_game_can_start_with_the_people_accepted() -> None:
    players = [game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("ann", "bo", "cy")]
    made = game_setup.create_game(name="Table", players=players, seed=2, start=True,
                                  invite=False, accepted=True)
    assert made.game.status == Game.Status.ACTIVE
    for seat, invitation in made.seats:
        assert fresh(seat).accepted and fresh(seat).invite_hash is None
        assert invitation == ""  # no invitation link: nothing to accept
        assert find_seat(token_of(link_for(seat))) == seat  # its own link works at once


def test_accepting_kills_the_invitation_and_keeps_the_first_acceptance_time() -> None:
    _game, seats, invitations = invited_game()
    ann = seats[0]
    first = timezone.now()
    ann.accept(first)
    assert ann.accepted and fresh(ann).accepted_at == first
    assert find_seat(invitations[0]) is None  # the invitation link died
    fresh_ann = fresh(ann)
    fresh_ann.accept(first + timedelta(hours=1))
    assert fresh(ann).accepted_at == first and fresh_ann.accepted_at == first


def test_accept_all_takes_only_the_seats_still_waiting() -> None:
    game, seats, _invitations = invited_game(start=False)
    waiting = Seat.objects.filter(Seat.accepted_q(accepted=False), game=game)
    assert waiting.count() == 2  # the bot's seat is taken from the start
    assert Seat.accept_all(waiting, timezone.now()) == 2
    assert Seat.objects.filter(Seat.accepted_q(), game=game).count() == len(seats)
    assert not Seat.objects.filter(game=game, invite_hash__isnull=False).exists()


def test_a_new_invitation_replaces_the_old_one() -> None:
    _game, seats, invitations = invited_game(start=False)
    bo = seats[1]
    token = bo.invite()
    assert find_seat(token) == bo and find_seat(invitations[1]) is None
    assert not fresh(bo).accepted


# ---- links -------------------------------------------------------------------------------


def test_rotating_a_link_kills_the_old_one_and_a_stale_rotation_changes_nothing() -> None:
    g = make_game()
    seat = fresh(g.seats[0])
    old_hash = seat.secret_hash
    made = seat.rotate_link()
    assert made is not None and find_seat(made.token) == seat
    assert find_seat(g.tokens[0]) is None and fresh(seat).link_rotated_at is not None
    # A second rotation from the old link's hash (a double click) rotates nothing.
    assert Seat.rotate_link_of(seat.pk, from_hash=old_hash) is None
    assert find_seat(made.token) == seat
    assert history(g.game) == []  # a new link is no new holder


# ---- holders: each change writes the seat's history ---------------------------------------


def test_handing_a_seat_to_another_person_writes_its_history_and_keeps_its_acceptance(
        ) -> None:
    g = make_game()
    seat = fresh(g.seats[1])
    seat.accept(timezone.now())
    accepted_at = fresh(seat).accepted_at
    game = Game.objects.get(pk=g.game.pk)
    seat.hand_to(game, name="Newcomer", email="new@x.org", time_zone="UTC", language="nl")
    assert history(game) == [(1, "Player1", False)]
    now = fresh(seat)
    assert (now.player_name, now.email, now.language) == ("Newcomer", "new@x.org", "nl")
    assert now.accepted_at == accepted_at and now.kind == SeatKind.PERSON
    assert find_seat(g.tokens[1]) is None  # the old player's link died
    assert find_seat(token_of(link_for(now))) == now
    assert Game.objects.get(pk=g.game.pk).holder_changes == 1


def test_handing_a_seat_over_in_setup_writes_no_history_and_waits_for_the_new_player(
        ) -> None:
    game, seats, invitations = invited_game(start=False)
    ann = seats[0]
    ann.accept(timezone.now())
    ann.hand_to(game, name="Cleo", email="cleo@x.org", time_zone="UTC", language="en")
    assert history(game) == []  # nothing was played yet
    assert not fresh(ann).accepted and fresh(ann).invite_hash is None
    assert find_seat(invitations[0]) is None


def test_a_newcomer_taking_an_open_seat_over_has_accepted_it_and_it_looks_no_more(
        ) -> None:
    g = make_game()
    game = Game.objects.get(pk=g.game.pk)
    seat = fresh(g.seats[2])
    seat.open(game, timezone.now(), bot_plays=False)
    assert history(game) == []  # the game waits: the same person holds it meanwhile
    seat.take_over(game, name="Dee", email="dee@x.org", time_zone="UTC", language="en")
    now = fresh(seat)
    assert history(game) == [(2, "Player2", False)]
    assert now.accepted and now.open_since is None and now.player_name == "Dee"
    assert now.link_rotated_at == now.accepted_at
    assert find_seat(g.tokens[2]) is None


def test_an_open_seat_a_bot_plays_is_the_bots_until_its_player_stays() -> None:
    g = make_game()
    game = Game.objects.get(pk=g.game.pk)
    seat = fresh(g.seats[0])
    seat.open(game, timezone.now(), bot_plays=True)
    assert fresh(seat).is_bot and fresh(seat).open_since is not None
    assert history(game) == [(0, "Player0", False)]
    seat.stay(game, SeatKind.PERSON)
    assert not fresh(seat).is_bot and fresh(seat).open_since is None
    assert history(game) == [(0, "Player0", False), (0, "Player0", True)]  # the bot's time
    assert find_seat(g.tokens[0]) == seat  # the player kept their link throughout


def test_an_open_seat_of_an_ended_game_stops_looking_with_its_holder_as_it_is() -> None:
    g = make_game()
    game = Game.objects.get(pk=g.game.pk)
    seat = fresh(g.seats[1])
    seat.open(game, timezone.now(), bot_plays=True)
    Seat.stop_looking(seat.pk)
    assert fresh(seat).open_since is None and fresh(seat).is_bot
    assert len(history(game)) == 1


def test_a_bot_plays_a_seat_and_gives_it_back_each_change_in_the_history() -> None:
    g = make_game()
    game = Game.objects.get(pk=g.game.pk)
    seat = fresh(g.seats[1])
    Seat.objects.filter(pk=seat.pk).update(missed_turns=2)
    seat = fresh(seat)
    seat.give_to_bot(game)
    assert fresh(seat).is_bot and fresh(seat).missed_turns == 0
    seat.take_back(game)
    assert not fresh(seat).is_bot
    assert history(game) == [(1, "Player1", False), (1, "Player1", True)]
    assert find_seat(g.tokens[1]) == seat


def test_forgetting_the_holder_leaves_no_address_and_no_working_link() -> None:
    g = make_game()
    seat = g.seats[0]
    Seat.erase_holder(seat.pk)
    now = fresh(seat)
    assert (now.player_name, now.email, now.mailbox_key) == (FORMER_PLAYER, "", "")
    assert find_seat(g.tokens[0]) is None and now.invite_hash is None


def test_the_holder_at_a_move_is_the_first_whose_time_reached_it() -> None:
    g = make_game()
    game = Game.objects.get(pk=g.game.pk)
    seat = fresh(g.seats[0])
    game.version = 4
    seat.give_to_bot(game)
    game.version = 9
    seat.take_back(game)
    rows = list(PastHolder.objects.filter(seat=seat).order_by("id"))
    assert holder_at_move(rows, 4) == rows[0]  # move 4 took the game to version 4
    assert holder_at_move(rows, 5) == rows[1] and holder_at_move(rows, 9) == rows[1]
    assert holder_at_move(rows, 10) is None  # today's holder


# ---- nobody else writes them -------------------------------------------------------------

# Fields only the seat has: a write of one anywhere is a write of the seat's.
SEAT_ONLY = frozenset({"accepted_at", "invite_hash", "secret_hash", "link_rotated_at",
                       "open_since"})
# Fields other rows have too (a volunteer's email, a notice's kind): a write of one is the
# seat's when it goes through something named as a seat (`seat.kind = ...`,
# `Seat.objects.filter(...).update(email=...)`, `game.seats.update(...)`).
SHARED = frozenset({"player_name", "email", "mailbox_key", "kind", "link_salt",
                    "link_key_id"})
GUARDED = SEAT_ONLY | SHARED
WRITING_CALLS = frozenset({"update", "create", "get_or_create", "update_or_create"})


def seat_like(name: str) -> bool:
    low = name.lower()
    return low in {"seat", "seats", "seat_set"} or low.endswith(("_seat", "_seats"))


def chain_names(node: ast.AST) -> list[str]:
    """The names a receiver is reached through: `game.seats.filter(x=1)` -> filter, seats,
    game (not the arguments)."""
    names = []
    while True:
        if isinstance(node, ast.Attribute):
            names.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Subscript):
            node = node.value
        elif isinstance(node, ast.Name):
            names.append(node.id)
            return names
        else:
            return names


def of_a_seat(receiver: ast.AST) -> bool:
    return any(seat_like(name) or name == "Seat" for name in chain_names(receiver))


def guarded_writes(source: str) -> list[str]:
    """Each place in `source` that writes a guarded field of a seat, or writes its history
    (`remember_holder`), as "line: what"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        targets: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            parts = target.elts if isinstance(target, (ast.Tuple, ast.List)) else [target]
            for part in parts:
                if isinstance(part, ast.Attribute) and part.attr in GUARDED and (
                        part.attr in SEAT_ONLY or (chain_names(part.value)
                                                   and seat_like(chain_names(part.value)[0]))):
                    found.append(f"{line}: assigns {part.attr}")
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "remember_holder":
            found.append(f"{line}: writes a seat's history")
        written = {kw.arg for kw in node.keywords if kw.arg in GUARDED}
        if name == "Seat" or (isinstance(func, ast.Attribute) and name in WRITING_CALLS):
            seat = name == "Seat" or of_a_seat(func)
            found += [f"{line}: {name}() writes {field}" for field in sorted(written)
                      if seat or field in SEAT_ONLY]
        if name == "save" and isinstance(func, ast.Attribute) and of_a_seat(func.value):
            for kw in node.keywords:
                if kw.arg == "update_fields" and isinstance(kw.value, (ast.List, ast.Tuple)):
                    found += [f"{line}: saves {el.value}" for el in kw.value.elts
                              if isinstance(el, ast.Constant) and el.value in GUARDED]
        if name == "setattr" and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value in SEAT_ONLY:
            found.append(f"{line}: setattr {node.args[1].value}")
    return found


BAD = '''
seat.accepted_at = now
seat.player_name, seat.email = name, email
self.seat.kind = SeatKind.BOT
next_seat.link_salt = made.salt
row.open_since = None
Seat.objects.filter(pk=pk).update(accepted_at=now)
game.seats.filter(kind="person").update(email="")
seats.update(link_key_id="k")
anything.update(invite_hash=None)
Seat.objects.create(game=game, number=0, secret_hash=digest)
Seat(game=game, kind=SeatKind.BOT)
seat.save(update_fields=["kind", "missed_turns"])
setattr(seat, "open_since", None)
remember_holder(game, seat)
history.remember_holder(game, seat)
'''

GOOD = '''
volunteer.email = email
note.kind = Notification.Kind.DIGEST
row.link_salt, row.token_hash = made.salt, made.digest
Volunteer.objects.filter(pk=pk).update(email=email, link_salt=salt)
OpenSeat.objects.create(game=game, seat=seat, kind_before=seat.kind, left_name=name)
Seat.objects.filter(pk=pk).update(time_zone=zone, language=language)
seat.missed_turns, seat.absent_since = 0, None
seat.save(update_fields=["missed_turns"])
Notification.objects.create(seat=seat, kind="turn")
seat.accept(now)
if seat.accepted_at is None and seat.kind == SeatKind.BOT:
    pass
'''


def test_the_scan_catches_every_kind_of_write_and_only_those() -> None:
    assert len(guarded_writes(BAD)) == 16, guarded_writes(BAD)  # each bad line, each field
    assert {int(hit.split(":")[0]) for hit in guarded_writes(BAD)} == set(range(2, 17))
    assert guarded_writes(GOOD) == []


def test_no_module_outside_the_seats_package_writes_a_seats_lifecycle() -> None:
    games = Path(__file__).resolve().parents[2] / "games"
    outside = [path for path in sorted(games.rglob("*.py"))
               if not path.is_relative_to(games / "seats")
               and not path.is_relative_to(games / "migrations")]
    assert len(outside) > 100  # the scan reads the project, not an empty folder
    writes = [f"{path.relative_to(games.parent)}:{hit}" for path in outside
              for hit in guarded_writes(path.read_text(encoding="utf-8"))]
    assert writes == [], "only the seat's methods write these (games.seats.core.seat):\n" \
        + "\n".join(writes)
