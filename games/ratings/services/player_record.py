"""A player's record across their games (the home page; the table and their public page,
when they allow it):
games played and finished, rounds won by role, gold won, deadlines missed and seats taken
over for others (the reliability webDiplomacy and Diplicity show).

Worked out from what the games stored, in three queries whatever the number of games
(four where a game changed hands): the address's seats with their games; the rows kept by
the person's mailbox key (games.seats.core.reliability, whether the record is shown, the
seats they held and left), in one; the past holders of the games that changed hands; the
moves whose events end a round or the game (a round's winners and every seat's role are
public once the round is over: the round_end event). A round is won by whoever held the
seat when it ended (docs/RULES.md, part 4): the one who left a game keeps the rounds won
before, and it counts among their games played; the game's result (finished, the gold) is
the seat's, so its holder's at the end. An anonymous game counts once it is over
(games.game.core.aliases.names_hidden_q): until then a round won or a deadline missed
there would tell who sits where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, IntegerField, Q, QuerySet, TextField, Value
from django.db.models.functions import Cast
from django.utils.translation import ngettext

from games.game.core.aliases import anonymity, names_hidden_q
from games.game.core.game import Game, Move
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import mailbox_key_hash
from games.people.core.player_data import RecordShown
from games.ratings.services.turn_shares import holder_at, past_holders
from games.seats.core.history import PastHolder
from games.seats.core.reliability import MissedDeadline, SeatTakeover
from games.seats.core.seat import Seat
from games.seatview.core import describe
from games.seatview.services.facts import round_winners

# The games a seat counts as played in: dealt (a game still setting up, or cancelled, was
# never played).
PLAYED = (Game.Status.ACTIVE, Game.Status.PAUSED, Game.Status.FINISHED)


@dataclass(frozen=True)
class PlayerRecord:
    games_played: int = 0
    games_finished: int = 0
    # role (the engine's dwarf card: "gold-digger", "saboteur", "blue-digger", ...) ->
    # rounds this player won holding it
    rounds_won: dict[str, int] = field(default_factory=dict)
    gold: int = 0
    deadlines_missed: int = 0
    seats_taken_over: int = 0

    @property
    def rounds_won_total(self) -> int:
        return sum(self.rounds_won.values())

    def as_json(self) -> dict[str, Any]:
        return {"games_played": self.games_played, "games_finished": self.games_finished,
                "rounds_won": dict(self.rounds_won), "gold": self.gold,
                "deadlines_missed": self.deadlines_missed,
                "seats_taken_over": self.seats_taken_over}


def player_record(address: str) -> PlayerRecord:
    """The record of every game the address has played (three or four queries)."""
    return _record_and_shown(address)[0]


def _record_and_shown(address: str) -> tuple[PlayerRecord, bool]:
    """The record, and whether the address shows it to its tables."""
    return record_and_shown_by_key(mailbox_key_hash(address))


def record_and_shown_by_key(mailbox: str) -> tuple[PlayerRecord, bool]:
    """The record of a person by the hash of their mailbox key (their public page knows
    no address), and whether they show it (three queries, four where a game changed
    hands; none for no key)."""
    if not mailbox:
        return PlayerRecord(), False
    seats = list(Seat.objects.filter(mailbox_key=mailbox, game__status__in=PLAYED)
                 .exclude(names_hidden_q("game__"))
                 .values_list("game_id", "number", "game__status", "game__holder_changes"))
    numbers: dict[int, set[int]] = {}
    for game_id, number, _status, _changes in seats:
        numbers.setdefault(game_id, set()).add(number)
    finished = {game_id for game_id, _n, status, _c in seats if status == Game.Status.FINISHED}
    kept, left = _kept_by_mailbox(mailbox)
    changed = {game_id for game_id, _n, _s, changes in seats if changes} | left
    past = past_holders(sorted(changed)) if changed else {}  # most people: no query
    held = sorted(left | set(numbers))  # the games played: left or held
    rounds: Counter[str] = Counter()
    gold = 0
    for game_id, number, event in _ending_events(held):
        if event["type"] == "round_end":
            mine = numbers.get(game_id, set())
            for seat in set(round_winners(event)):
                # Whoever held the seat for the round's last move: a past holder then, or
                # the holder now (the person, when the seat is one of theirs).
                now = mailbox if seat in mine else ""
                history = past.get(game_id, {}).get(seat, [])
                if holder_at(history, now, number, bot_is_nobody=True) == mailbox:
                    rounds[event["roles"][seat]] += 1
        elif event["type"] == "game_end" and game_id in finished:
            gold += sum(event["scores"][seat] for seat in numbers[game_id])
    record = PlayerRecord(
        games_played=len(held), games_finished=len(finished), rounds_won=dict(rounds),
        gold=gold, deadlines_missed=kept[MISSED], seats_taken_over=kept[TAKEN])
    return record, bool(kept[SHOWN])


MISSED, TAKEN, SHOWN, LEFT = 1, 2, 3, 4


def _kept_by_mailbox(mailbox: str) -> tuple[Counter[int], set[int]]:
    """How many missed deadlines, takeovers and record-shown rows the person (the hash
    of their mailbox key) has, and the games they held a seat in and left (its holder
    since is another): one query (a row per fact, few: a player misses a handful of
    deadlines)."""
    def fact(rows: QuerySet[Any], what: int, game: str = "game_id") -> QuerySet[Any]:
        # No ORDER BY in a part of a UNION (a model's own ordering would add one).
        facts: QuerySet[Any] = rows.order_by().annotate(
            what=Value(what, IntegerField()),
            of=F(game) if game else Value(0, IntegerField())).values_list("what", "of")
        return facts

    missed = MissedDeadline.objects.filter(mailbox=mailbox).exclude(names_hidden_q("game__"))
    taken = SeatTakeover.objects.filter(taken_by_mailbox=mailbox).exclude(
        names_hidden_q("game__"))
    shown = RecordShown.objects.filter(mailbox=mailbox)
    left = PastHolder.objects.filter(mailbox=mailbox, bot=False,
                                     game__status__in=PLAYED).exclude(names_hidden_q("game__"))
    facts = list(fact(missed, MISSED).union(fact(taken, TAKEN), fact(shown, SHOWN, ""),
                                            fact(left, LEFT), all=True))
    return (Counter(what for what, _game in facts),
            {game for what, game in facts if what == LEFT})


def _ending_events(games: list[int]) -> Iterable[tuple[int, int, dict[str, Any]]]:
    """(game id, move number, event) of every round_end and game_end of these games: one
    query, which reads only the moves that ended a round (the events are JSON text:
    matched as such)."""
    if not games:
        return
    rows = (Move.objects.filter(game_id__in=games)
            .annotate(text=Cast("events", TextField()))
            .filter(Q(text__contains='"round_end"') | Q(text__contains='"game_end"'))
            .values_list("game_id", "number", "events"))
    for game_id, number, events in rows.iterator():
        for event in events:
            if event.get("type") in ("round_end", "game_end"):
                yield game_id, number, event


# ---- shown to the table ---------------------------------------------------------------


def shows_record(address: str) -> bool:
    return RecordShown.objects.filter(of_mailbox(address, "mailbox")).exists()


def set_record_shown(address: str, *, shown: bool) -> None:
    """Whether the tables this address sits at see a line of its record (off by default)."""
    digest = mailbox_key_hash(address)
    if not digest:
        return
    if shown:
        RecordShown.objects.get_or_create(mailbox=digest)
    else:
        RecordShown.objects.filter(mailbox=digest).delete()


def table_lines(game: Game, viewer: Seat | None,
                seats: Sequence[Seat] | None = None) -> dict[int, str]:
    """Seat number -> a short line of its player's record, for the seats of `game` (other
    than `viewer`'s) whose players chose to show it: who chose to (one query) of the
    seats (one more unless the caller read them: `seats`). None at an anonymous table
    while it hides its names (a record would tell who sits there)."""
    if anonymity(game).hides:
        return {}
    rows = ([(s.number, s.email, s.mailbox_key) for s in seats if s.email]
            if seats is not None else
            game.seats.exclude(email="").values_list("number", "email", "mailbox_key"))
    people = [(number, email, key) for number, email, key in rows
              if viewer is None or number != viewer.number]
    hashes = {key: (number, email) for number, email, key in people}
    shown = RecordShown.objects.filter(mailbox__in=list(hashes)).values_list("mailbox",
                                                                                flat=True)
    return {hashes[digest][0]: record_line(player_record(hashes[digest][1]))
            for digest in shown}


def record_line(record: PlayerRecord) -> str:
    """One short line: games, rounds won, deadlines missed."""
    parts = [
        ngettext("%(count)s game", "%(count)s games", record.games_played)
        % {"count": record.games_played},
        ngettext("%(count)s round won", "%(count)s rounds won", record.rounds_won_total)
        % {"count": record.rounds_won_total},
        ngettext("%(count)s deadline missed", "%(count)s deadlines missed",
                 record.deadlines_missed) % {"count": record.deadlines_missed},
    ]
    return " · ".join(parts)


def roles_won(record: PlayerRecord) -> list[tuple[str, int]]:
    """(the role's name in the reader's language, rounds won), most first."""
    return [(describe.role_name(role), count)
            for role, count in sorted(record.rounds_won.items(), key=lambda kv: -kv[1])]


def home_section(address: str) -> dict[str, Any]:
    """What the home page shows under "My record" and "Your data" (three or four queries)."""
    record, shown = _record_and_shown(address)
    return {"record": record, "roles_won": roles_won(record), "record_shown": shown}
