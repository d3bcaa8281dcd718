"""What the home lists: every game of one address, in five groups (README "Your games"):
your turn, waiting for you (a game set up that waits for this address to accept its
seat), waiting for others, finished, and the games it left (`left_rows`: a seat someone
else took over, with the game's result once it ends and no link, the seat's link being
theirs now; or a seat still looking for a new player while a bot stands in, whose link
is still this address's: it may stay).

Four queries whatever the number of games (the seat, its game, and for a game waiting on
someone else the name of the seat to act, by a subquery; the games waiting for your
acceptance come with the others going on and are told apart here; the games left, by the
seats' histories, games.seats.core.history): a player with 40 games loads their home in
four queries (and two more for each game left that has ended, naming its winners). Links
to each seat are rebuilt from the seats (games.seats.core.links), as emails do; they are
shown only on the address's own home.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import F, OuterRef, Q, Subquery
from django.urls import reverse

from games.game.core.aliases import holder_name
from games.game.core.game import GOING_ON, Game, SeatKind
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_key_hash, same_mailbox
from games.seats.core.history import PastHolder
from games.seats.core.links import seat_link, seat_path, token_of_seat
from games.seats.core.seat import Seat, seats_of
from games.seatview.services.holders import table_names
from games.talk.services.reading import unread_counts

FINISHED_SHOWN = 100  # the latest finished games listed


@dataclass(frozen=True)
class Row:
    """One game of the address, as its home shows it and its JSON twin gives it."""

    game: str  # the game's public id
    name: str
    ruleset: str
    status: str
    seat: int
    seat_name: str  # the seat's name as the table reads it (an alias at an anonymous one)
    email_mode: str
    your_turn: bool
    deadline: datetime | None
    since: datetime | None  # when the turn being waited on started
    whose_turn: str  # the name of the seat to act, when it is not yours
    finished_at: datetime | None
    gold: int | None  # your nuggets at the end
    rank: int | None  # 1 for the most gold (ties share a rank)
    players: int
    link: str  # the seat's absolute page link
    path: str  # the same, from the site's root (the home page links with it)
    api: str  # the seat's JSON API path
    replay: str  # the seat's replay path ("" before the end)
    record: str  # the game's record (JSON) path ("" before the end)
    waiting_for_you: bool = False  # set up, and waiting for you to accept your seat
    accept: str = ""  # where the seat is accepted (POST), while it waits for you
    vacation_left: timedelta | None = None  # this game's budget, once it has started
    away_until: datetime | None = None  # on vacation in this game until then
    left: bool = False  # a game the address left (its seat handed over, or looking for one)
    winners: tuple[str, ...] = ()  # a game left that has ended: who won, as the table names them
    unread_talk: int = 0  # talk lines of a game going on the seat has not read

    @property
    def home_status(self) -> str:
        """The game's status as the home (and its JSON twin) says it: "waiting_for_you"
        for a game that waits for you to accept your seat, else the game's own status."""
        return "waiting_for_you" if self.waiting_for_you else self.status


@dataclass(frozen=True)
class Home:
    your_turn: list[Row]
    waiting_for_you: list[Row]
    waiting: list[Row]
    finished: list[Row]
    left: list[Row]

    @property
    def rows(self) -> list[Row]:
        return [*self.your_turn, *self.waiting_for_you, *self.waiting, *self.finished,
                *self.left]

    @property
    def started(self) -> list[Row]:
        """The games going on that have started: those a vacation applies to."""
        return [row for row in [*self.your_turn, *self.waiting]
                if row.status != Game.Status.SETUP]


def waits_for_acceptance(seat: Seat) -> bool:
    """A game set up whose start waits, among others, for this seat to accept."""
    return seat.game.status == Game.Status.SETUP and not seat.accepted


def _row(seat: Seat, *, your_turn: bool = False, whose_turn: str = "",
         unread: dict[int, int] | None = None) -> Row:
    game = seat.game
    token = token_of_seat(seat)
    finished = game.status == Game.Status.FINISHED
    started = game.status in (Game.Status.ACTIVE, Game.Status.PAUSED)
    waiting_for_you = waits_for_acceptance(seat)
    gold = rank = None
    players = 0
    if finished:
        scores = game.state_without_log().scores
        players = len(scores)
        if seat.number < len(scores):
            gold = scores[seat.number]
            rank = 1 + sum(1 for other in scores if other > gold)
    return Row(
        game=game.public_id, name=game.title, ruleset=game.ruleset, status=game.status,
        seat=seat.number, seat_name=seat.name_shown, email_mode=seat.email_mode,
        your_turn=your_turn,
        deadline=game.deadline_at if your_turn else None,
        since=game.turn_started_at if not finished else None,
        whose_turn=whose_turn, finished_at=game.updated_at if finished else None,
        gold=gold, rank=rank, players=players, link=seat_link(token), path=seat_path(token),
        api=reverse("games:api-seat", args=[token]),
        replay=reverse("games:seat-replay", args=[token]) if finished else "",
        record=reverse("games:api-record", args=[token]) if finished else "",
        waiting_for_you=waiting_for_you,
        accept=reverse("games:seat-accept", args=[token]) if waiting_for_you else "",
        vacation_left=seat.vacation_left if started else None,
        away_until=seat.vacation_until if started else None,
        unread_talk=(unread or {}).get(seat.pk, 0))


def left_rows(address: str) -> list[Row]:
    """The games the address left, newest first: a seat it held that someone else holds
    now (taken over, or a moderator put another player in: the seat's link is theirs, so
    the row has none; the game's winners once it ends), and a seat of its own looking for
    a new player while a bot plays it (its link still works: the player may stay). Never a
    game where it plays another seat now."""
    key = mailbox_key_hash(address)
    if not key:
        return []
    mine = of_mailbox(address)
    held = PastHolder.objects.filter(mailbox=key)
    name_then = held.filter(seat=OuterRef("pk")).order_by("-id").values("name")[:1]
    seats = (Seat.objects.filter((Q(pk__in=held.values("seat_id")) & ~mine)
                                 | (mine & Q(kind=SeatKind.BOT, open_since__isnull=False)))
             .exclude(game_id__in=seats_of(address).values("game_id"))
             .annotate(name_then=Subquery(name_then)).select_related("game")
             .order_by("-game__updated_at", "-game_id")[:FINISHED_SHOWN])
    return [_left_row(seat, handed_over=not same_mailbox(seat.email, address))
            for seat in seats]


def _left_row(seat: Seat, *, handed_over: bool) -> Row:
    game = seat.game
    finished = game.status == Game.Status.FINISHED
    winners: tuple[str, ...] = ()
    if finished:
        scores = game.state_without_log().scores
        names = table_names(game)  # the seats' holders at the end: the results are theirs
        winners = tuple(names[n] for n, gold in enumerate(scores)
                        if gold == max(scores) and n in names)
    token = "" if handed_over else token_of_seat(seat)
    return Row(
        game=game.public_id, name=game.title, ruleset=game.ruleset, status=game.status,
        seat=seat.number,
        seat_name=holder_name(game, seat.number,
                              getattr(seat, "name_then", None) or seat.player_name),
        email_mode=seat.email_mode, your_turn=False, deadline=None, since=None,
        whose_turn="", finished_at=game.updated_at if finished else None, gold=None,
        rank=None, players=0, link=seat_link(token) if token else "",
        path=seat_path(token) if token else "",
        api=reverse("games:api-seat", args=[token]) if token else "",
        replay="", record="", left=True, winners=winners)


def _whose_turn(seat: Seat) -> str:
    """The name of the seat the game waits on, as the table reads it (its alias at an
    anonymous table), "" for none."""
    name = getattr(seat, "actor_name", None)
    actor = seat.game.actor
    if not name or actor is None:
        return ""
    return holder_name(seat.game, actor, name)


def home_of(address: str) -> Home:
    """The address's games: its turn (soonest deadline first), waiting for its acceptance
    (the oldest invitation first), waiting for others (the longest wait first), finished
    (newest first), left (newest first); each game going on with the number of talk lines
the seat has not read."""
    mine = seats_of(address)
    turn = (mine.filter(game__status=Game.Status.ACTIVE, game__actor=F("number"))
            .order_by(F("game__deadline_at").asc(nulls_last=True), "game_id"))
    actor_name = Seat.objects.filter(game=OuterRef("game"), number=OuterRef("game__actor"))
    waiting = (mine.filter(game__status__in=GOING_ON)
               .exclude(game__status=Game.Status.ACTIVE, game__actor=F("number"))
               .annotate(actor_name=Subquery(actor_name.values("player_name")[:1]))
               .order_by(F("game__turn_started_at").asc(nulls_last=True), "game_id"))
    over = (mine.filter(game__status=Game.Status.FINISHED)
            .order_by("-game__updated_at", "-game_id")[:FINISHED_SHOWN])
    turn_seats, waiting_seats = list(turn), list(waiting)
    # The talk each game going on has that the seat has not read (one query).
    unread = unread_counts([*turn_seats, *waiting_seats])
    others = [_row(seat, whose_turn=_whose_turn(seat), unread=unread) for seat in waiting_seats]
    return Home(
        your_turn=[_row(seat, your_turn=True, unread=unread) for seat in turn_seats],
        # A game set up has no turn yet: these come in the games' order, oldest first.
        waiting_for_you=[row for row in others if row.waiting_for_you],
        waiting=[row for row in others if not row.waiting_for_you],
        finished=[_row(seat) for seat in over],
        left=left_rows(address))
