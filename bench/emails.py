"""What a move's emails cost the worker: CPU per turn email planned, written and sent,
against rendering and sending a fixed email in the same run; SQL statements per move's
emails.

    .venv/bin/python bench/emails.py [--games 2] [--sql] [--profile] [--postgres]

In one process, on a throwaway SQLite database (`--postgres`: one created and dropped on
PostgreSQL at 127.0.0.1:5432, user `postgres`; the test settings; emails to Django's
memory backend, tasks to an in-memory broker), GAMES 3-seat games (seeds 5, 6, ...) are
played to the end by a policy that digs towards the goals, each move made through the
move service (`games.moves.services.moves.game_move_submit`, not measured), every sixth
move followed by a line of table talk from its mover (what the next turn emails quote).
After each move the worker's part is measured as one worker process does it:
- planning: `games.mail.services.move_emails.follow_up_due` (the beat's follow-up: the
  Notification rows the move calls for, their send tasks queued);
- sending: `games.mail.services.send.deliver` of each row planned (claim, the letter
  written by `letter_for`, the message built, sent, the row recorded).
Around it, three times before and three times after, the baseline: a fixed email (a
subject, text and HTML with two variables and a list of 40 lines, templates in this
file) rendered by Django's template engine and sent as a multipart message through the
same backend. Each email is divided by the baseline measured around it, so the drift of
a shared machine within a run cancels out. (A baseline of a few lines, 0.4 ms, measured
only after the emails, drifted apart from them: ratios 92 to 110 for the same code.)

It prints, over the moves whose only email is a turn email, the median CPU time (of this
process, `time.process_time`), the median ratio to the baseline and the median SQL
statements of planning it, of sending it (written by `letter_for` and sent: `deliver`)
and of both (the figures bench/README.md tracks); and the SQL statements of every move's
emails (planning and sending, every move with emails): median and maximum.
`--sql` lists the statements of one turn email (a move half-way through the first game);
`--profile` prints where the worker's time goes (cProfile, a pass of its own).
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from throwaway_db import throwaway_database  # noqa: E402  (bench/ is the script's folder)

BASELINE_SUBJECT = "{{ game }}: a fixed email"
BASELINE_TEXT = """Hello {{ name }},

this is a fixed email, rendered and sent as the baseline. Your game: {{ game }}
{% for line in lines %}- {{ line }}
{% endfor %}
Saboteur
"""
BASELINE_HTML = """<!doctype html><html><body style="font-family: sans-serif">
<p>Hello {{ name }},</p>
<p>this is a fixed email, rendered and sent as the <b>baseline</b>.</p>
<p>Your game: <a href="https://example.org/">{{ game }}</a></p>
<ul>{% for line in lines %}<li>{{ line }}</li>{% endfor %}</ul>
<p>Saboteur</p></body></html>
"""
BASELINE_LINES = [f"({x}, {y}): a line of the baseline email" for x in range(8) for y in range(5)]
BASELINE_REPEATS = 3  # before and after each move's emails


@dataclass
class Statements:
    """Counts the SQL statements run (Django's execute wrapper: no debug cursor)."""

    count: int = 0
    listed: list[str] | None = None

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool,
                 context: Any) -> Any:
        self.count += 1
        if self.listed is not None:
            self.listed.append(sql)
        return execute(sql, params, many, context)


@dataclass
class Figures:
    # the moves whose only email is the turn email: CPU ms and SQL statements
    planning_ms: list[float] = field(default_factory=list)
    sending_ms: list[float] = field(default_factory=list)
    planning_sql: list[int] = field(default_factory=list)
    sending_sql: list[int] = field(default_factory=list)
    move_sql: list[int] = field(default_factory=list)  # every move with emails
    baseline_ms: list[float] = field(default_factory=list)
    turn_baseline_ms: list[float] = field(default_factory=list)  # around each turn email


def setup(database_url: str) -> None:
    os.environ.update({"DJANGO_SETTINGS_MODULE": "saboteur_site.test_settings",
                       "DATABASE_URL": database_url, "CELERY_BROKER_URL": "memory://"})
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    logging.disable(logging.INFO)  # a line per email sent: noise here
    call_command("migrate", verbosity=0)


def baseline() -> Callable[[], None]:
    """Render the fixed email (40 lines; templates compiled once, as the cached loader
    keeps the real ones) and send it through the same backend."""
    from django.core import mail
    from django.template import engines

    engine = engines["django"]
    subject, text, html = (engine.from_string(t) for t in
                           (BASELINE_SUBJECT, BASELINE_TEXT, BASELINE_HTML))

    def send() -> None:
        context = {"name": "Player1", "game": "Bench game", "lines": BASELINE_LINES}
        message = mail.EmailMultiAlternatives(
            subject=subject.render(context), body=text.render(context),
            from_email="saboteur@example.org", to=["p1@example.com"])
        message.attach_alternative(html.render(context), "text/html")
        message.send()

    return send


@contextmanager
def counted(statements: Statements) -> Iterator[Statements]:
    from django.db import connection

    with connection.execute_wrapper(statements):
        yield statements


def cpu_ms(work: Callable[[], Any]) -> tuple[float, Any]:
    started = time.process_time()
    result = work()
    return (time.process_time() - started) * 1000, result


def new_rows(after: int) -> list[tuple[int, str]]:
    from games.mail.core.notifications import Notification

    return list(Notification.objects.filter(pk__gt=after).order_by("pk")
                .values_list("pk", "kind"))


def last_row() -> int:
    from games.mail.core.notifications import Notification

    return Notification.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


TALK_EVERY = 6  # moves: a line of table talk from the mover (turn emails quote it)


def play(seed: int, each_move: Callable[[int], None]) -> int:
    """A whole 3-seat game, `each_move(move number)` after each move (every TALK_EVERY
    moves the mover says a line first); how many moves."""
    from games import engine
    from games.game.core.game import Game
    from games.moves.services import moves
    from games.moves.services.seat_services import post_message
    from games.setup.services import game_setup
    from tests.email_support import dig

    players = [game_setup.PlayerSpec(name=f"Player{i}", email=f"p{i}.{seed}@example.com")
               for i in range(3)]
    made = game_setup.create_game(name=f"Bench {seed}", players=players, seed=seed,
                                  start=True, invite=False)
    seats = {seat.number: seat for seat, _link in made.seats}
    rng = random.Random(seed)
    game = made.game
    number = 0
    while game.status == Game.Status.ACTIVE:
        state = game.state()
        assert state.actor is not None
        move = dig(engine.legal_moves(state), rng)
        game = moves.game_move_submit(actor=moves.BySeat(seats[state.actor]),
                                      version=game.version, move=move, with_state=True).game
        number += 1
        if number % TALK_EVERY == 0:
            post_message(seats[state.actor], f"Move {number} made: shall we dig east?")
        each_move(number)
    return number


@dataclass(frozen=True)
class WorkerPart:
    planning_ms: float
    sending_ms: float
    planning_sql: int
    sending_sql: int
    kinds: list[str]  # of the emails sent


def worker_part(listed: list[str] | None = None) -> WorkerPart:
    """The worker's part after a move: the planning, then the sending of each email."""
    from games.mail.services import move_emails, send

    before = last_row()
    planned = Statements(listed=listed)
    with counted(planned):
        planning, _ = cpu_ms(move_emails.follow_up_due)
    rows = new_rows(before)
    sent = Statements(listed=listed)
    with counted(sent):
        sending, _ = cpu_ms(lambda: [send.deliver(pk) for pk, _kind in rows])
    return WorkerPart(planning, sending, planned.count, sent.count,
                      [kind for _pk, kind in rows])


def measure(games: int, show_sql: bool) -> Figures:
    from django.core import mail

    figures = Figures()
    fixed = baseline()
    for seed in range(5, 5 + games):
        def after(number: int, seed: int = seed) -> None:
            listed: list[str] | None = [] if show_sql and seed == 5 and number == 60 else None
            before = [cpu_ms(fixed)[0] for _ in range(BASELINE_REPEATS)]
            part = worker_part(listed)
            around = before + [cpu_ms(fixed)[0] for _ in range(BASELINE_REPEATS)]
            figures.baseline_ms += around
            if part.kinds:
                figures.move_sql.append(part.planning_sql + part.sending_sql)
            if part.kinds == ["turn"]:
                figures.planning_ms.append(part.planning_ms)
                figures.sending_ms.append(part.sending_ms)
                figures.planning_sql.append(part.planning_sql)
                figures.sending_sql.append(part.sending_sql)
                figures.turn_baseline_ms.append(statistics.median(around))
                if listed is not None:
                    print(f"one turn email's SQL statements ({part.planning_sql} planning it, "
                          f"{part.sending_sql} sending it):")
                    print("\n".join(f"  {n:2}. {s}" for n, s in enumerate(listed, 1)))
            mail.outbox.clear()

        play(seed, after)
    return figures


def profile(games: int) -> None:
    """Where the worker's part goes, over every move of the games (cProfile)."""
    from django.core import mail

    profiler = cProfile.Profile()

    def after(_number: int) -> None:
        profiler.enable()
        worker_part()
        profiler.disable()
        mail.outbox.clear()

    for seed in range(5, 5 + games):
        play(seed, after)
    stats = pstats.Stats(profiler)
    stats.dump_stats(str(ROOT / "var" / "bench-emails.prof"))  # for a closer look
    stats.sort_stats("cumulative").print_stats("games/", 40)


def report(figures: Figures) -> None:
    base = statistics.median(figures.baseline_ms)
    both_ms = [p + s for p, s in zip(figures.planning_ms, figures.sending_ms, strict=True)]
    both_sql = [p + s for p, s in zip(figures.planning_sql, figures.sending_sql, strict=True)]
    print(f"{len(both_ms)} turn emails (the moves whose only email is the turn email), "
          "medians:")
    print("             CPU ms   / baseline   SQL statements")
    for label, cpu, sql in (("planning", figures.planning_ms, figures.planning_sql),
                            ("sending", figures.sending_ms, figures.sending_sql),
                            ("both", both_ms, both_sql)):
        # Each email against the baseline measured around it: the drift of a shared
        # machine within the run cancels out.
        ratios = [ms / around for ms, around in zip(cpu, figures.turn_baseline_ms,
                                                    strict=True)]
        print(f"  {label:9} {statistics.median(cpu):8.2f} {statistics.median(ratios):12.1f} "
              f"{statistics.median(sql):10.0f} (max {max(sql)})")
    print(f"  baseline (a fixed email rendered and sent): {base:.3f} ms")
    print(f"SQL statements per move's emails ({len(figures.move_sql)} moves with emails): "
          f"median {statistics.median(figures.move_sql):.0f}, max {max(figures.move_sql)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--sql", action="store_true",
                        help="list one turn email's SQL statements")
    parser.add_argument("--profile", action="store_true",
                        help="profile the worker's part (a pass of its own)")
    parser.add_argument("--postgres", action="store_true",
                        help="on a throwaway PostgreSQL database (127.0.0.1:5432)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        cleanup = (throwaway_database("emails", postgres=True) if args.postgres
                   else lambda: None)
        try:
            setup(os.environ["DATABASE_URL"] if args.postgres
                  else f"sqlite:///{folder}/bench.sqlite3")
            if args.profile:
                profile(args.games)
            else:
                report(measure(args.games, args.sql))
        finally:
            cleanup()


if __name__ == "__main__":
    main()
