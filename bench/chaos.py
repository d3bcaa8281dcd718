"""Chaos at scale (issue 49): 10,000 active games whose deadlines all fall due within the
run's first minutes, on the production topology, while workers are killed, the broker is
stopped for five minutes and PgBouncer is restarted; then every deadline is counted as
acted on once, every turn email as arrived once, and the outbox as drained within five
minutes of the broker's return.

    nice -n 10 .venv/bin/python bench/chaos.py                    # 10,000 games, Redis
    .venv/bin/python bench/chaos.py --broker rabbitmq --games 2000 --spread-minutes 6

The topology is `.ci/topology.py`'s, reused (its process starter, its SMTP sink that
counts Message-IDs, its brokers and PgBouncer: tests/brokers.py, tests/pgbouncer.py): a
throwaway database on the PostgreSQL at 127.0.0.1:5432 behind PgBouncer in transaction
pooling, a broker of the run's own (`--broker redis|rabbitmq`) and a Redis for the
cache, two `mail` workers, one `sweeps` worker (with the digests and inbound mail), the
one beat, emails over SMTP to an aiosmtpd sink in this process. No web node and no bots
worker: no request is made and no bot plays (a timeout is the system's move).

The fast clock: time is not faked across processes. GAMES active 3-seat games (real
engine snapshots, their seats, the clock mix of bench/sweep.py: banks, days off, a pause
behind them) are loaded with COPY (bench/sweep.py's loader), then, once every process is
up, their deadlines are set to fall due evenly over the next SPREAD minutes, and a
quarter of them get a reminder a minute before. Each deadline is acted on by the beat's
sweep (every SWEEP seconds here, 60 in production) and the `sweeps` worker: the timeout
policy's move, the missed-deadline email, and through the after-move outbox the next
seat's turn email. So days of deadlines arrive in minutes; the next deadline a timeout
sets is a day or more away, after the run.

The chaos, on a timeline from the first deadline: a worker (at random among the three)
killed with SIGKILL at KILLS random moments and started again (once the broker is back
when it is away); PgBouncer restarted once, a quarter into the spread; the broker
stopped for BROKER_AWAY minutes so that it returns as the last deadlines fall due.
Email claims and lost tasks are recovered on the scaled times below (EMAIL_TIMEOUT 10 s,
the stuck margin 10 s, unsent rows sent again after 30 s); a deadline task lost with a
worker comes back after the sweeps' LOST_AFTER (10 minutes), as in production.

Afterwards it counts and prints: deadlines due vs acted on (a timeout notice per
deadline: none twice, none missed), every email planned vs arrived at the SMTP sink
(each sent row exactly once; turn emails: one per timeout), the seconds from the
broker's return until the outbox was drained (no move's emails left to plan, no email
unsent, no deadline due before the return left unhandled; bar: 300 s), and the CPU of
the workers and beat, of PostgreSQL's backends for the database, and of this process,
with the wall clock. Exits 1 when a count is wrong or the bar is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import random
import re
import resource
import secrets
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
from sweep import ZONES, clock_mix, copy_rows, db_row  # noqa: E402  (bench/sweep.py)

from tests.brokers import RabbitMQ, Redis  # noqa: E402
from tests.pgbouncer import PgBouncer  # noqa: E402


def _topology() -> ModuleType:
    """.ci/topology.py, imported from its path (.ci is no package)."""
    spec = importlib.util.spec_from_file_location("topology", ROOT / ".ci" / "topology.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


topology = _topology()
PYTHON = ROOT / ".venv" / "bin" / "python"
POOL = 6  # PgBouncer's server connections: fewer than its clients
SWEEP = 10  # the beat's sweeps, every SWEEP seconds (production: 60)
DRAIN_BAR = 300.0  # seconds from the broker's return until the outbox is empty
TICK = 2.0  # seconds between looks at the outbox and the processes' CPU
WORKERS = [("mail1", "mail", 2), ("mail2", "mail", 2), ("sweeps", "sweeps,digests,inbound", 2)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="active games loaded")
    parser.add_argument("--due", type=int, default=None,
                        help="how many of them fall due during the run (default: all)")
    parser.add_argument("--spread-minutes", type=float, default=12.0,
                        help="the deadlines fall due evenly over these minutes")
    parser.add_argument("--broker-away-minutes", type=float, default=5.0)
    parser.add_argument("--broker", choices=["redis", "rabbitmq"], default="redis")
    parser.add_argument("--kills", type=int, default=6, help="workers killed with SIGKILL")
    parser.add_argument("--drain-minutes", type=float, default=12.0,
                        help="how long to wait, after the chaos, for everything to be done")
    parser.add_argument("--seed", type=int, default=49)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        bouncer = stack.enter_context(PgBouncer.started(pool_size=POOL))
        cache = stack.enter_context(Redis.started())
        broker: Redis | RabbitMQ = (
            stack.enter_context(RabbitMQ.started()) if args.broker == "rabbitmq"
            else stack.enter_context(Redis.started()))
        return Chaos(args, bouncer, cache, broker).run()


class Chaos:
    def __init__(self, args: argparse.Namespace, bouncer: PgBouncer, cache: Redis,
                 broker: Redis | RabbitMQ) -> None:
        self.args, self.bouncer, self.cache, self.broker = args, bouncer, cache, broker
        self.database = f"saboteur_chaos_{os.getpid()}"
        self.rng = random.Random(args.seed)
        self.procs: dict[str, subprocess.Popen[str]] = {}
        self.argv: dict[str, list[str]] = {}
        self.ready: dict[str, str] = {}  # the line that says a process is up, if not "ready."
        self.env: dict[str, str] = {}
        self.mailbox = topology.Mailbox()
        self.broker_down = False
        self.stopped_at = 0.0  # time.monotonic() of the broker's stop
        self.broker_back_at = 0.0  # time.monotonic() of the broker's return
        self.drained_at = 0.0  # the first look after the return with nothing left to do
        self.dead: list[str] = []  # killed workers waiting for the broker to start again
        self.log: list[str] = []  # the chaos, as it happened
        self.cpu = Cpu()
        self.logs = Path(f"/tmp/{self.database}-logs")
        self.exits: list[str] = []  # processes that exited on their own
        self.began = self.t0 = time.monotonic()

    def say(self, line: str) -> None:
        stamp = f"[{time.monotonic() - self.began:6.0f} s] {line}"
        self.log.append(stamp)
        print(stamp, flush=True)

    # ---- setting up ---------------------------------------------------------------------

    def run(self) -> int:
        from aiosmtpd.controller import Controller

        smtp_port = topology.free_port()
        smtp = Controller(self.mailbox, hostname="127.0.0.1", port=smtp_port)
        smtp.start()
        self.env = {
            **os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(40),
            "LINK_KEY": secrets.token_urlsafe(40),
            "DATABASE_URL": self.bouncer.url(self.database), "DATABASE_POOLER": "pgbouncer",
            "CELERY_BROKER_URL": self.broker.url(), "CACHE_URL": self.cache.url(1),
            "EMAIL_PROVIDER": "smtp", "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_port),
            "EMAIL_USE_TLS": "0", "EMAIL_TIMEOUT": "10", "EMAIL_STUCK_MARGIN_SECONDS": "10",
            "EMAIL_UNSENT_AFTER_SECONDS": "30", "SWEEP_SECONDS": str(SWEEP),
            "SITE_URL": "http://127.0.0.1:8000", "ALLOWED_HOSTS": "127.0.0.1",
            "PYTHONUNBUFFERED": "1",
            "CELERY_BEAT_SCHEDULE_FILENAME": f"/tmp/{self.database}-beat",
        }
        os.environ.update(self.env)
        try:
            topology.admin_sql(f"CREATE DATABASE {self.database}")
            subprocess.run([str(PYTHON), "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT,
                           env=self.env, check=True)
            topology.setup_django()
            import logging

            logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's lines
            due = self.load()
            self.start_processes()
            return self.chaos(due)
        finally:
            self.mailbox.release.set()
            self.cpu.stop()
            for proc in self.procs.values():
                if proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM)
            for proc in self.procs.values():
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
            smtp.stop()
            from django.db import connections

            connections.close_all()
            topology.admin_sql(f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)")
            for state_file in Path("/tmp").glob(f"{self.database}-beat*"):
                state_file.unlink(missing_ok=True)

    def load(self) -> int:
        """GAMES active games with COPY, deadlines a year away for now; the number of
        games that will fall due."""
        from django.db import connection
        from django.utils import timezone

        from games import engine
        from games.game.core.game import Game
        from games.seats.core.seat import Seat

        count = self.args.games
        due = count if self.args.due is None else min(self.args.due, count)
        now = timezone.now()
        later = now + timedelta(days=365)
        started = time.perf_counter()
        fields = [f for f in Game._meta.concrete_fields if not f.primary_key]
        at = {f.name: i for i, f in enumerate(fields)}
        snapshot = next(f for f in fields if f.name == "snapshot")
        templates = {kind: db_row(Game(
            name="", seed=0, snapshot={"bench": True}, actor=0, version=0,
            status=Game.Status.ACTIVE, turn_started_at=now - timedelta(hours=1), public_id="",
            hours_per_move=24, **clock_mix(kind, now)), fields) for kind in range(4)}

        def games() -> Any:
            for n in range(count):
                row = list(templates[n % 4])
                state = engine.new_game(3, n)
                row[at["snapshot"]] = snapshot.get_db_prep_save(state.to_json(), connection)
                row[at["actor"]] = state.actor
                row[at["name"]], row[at["seed"]] = f"Chaos {n}", n
                row[at["public_id"]] = f"chaos-{n}"
                row[at["deadline_at"]], row[at["reminder_at"]] = later, None
                yield row

        copy_rows(Game, games())
        seat_fields = [f for f in Seat._meta.concrete_fields if not f.primary_key]

        ids = list(Game.objects.values_list("pk", "seed"))  # not inside the COPY

        def seats() -> Any:
            for pk, n in ids:
                for i in range(3):
                    yield db_row(Seat(game_id=pk, number=i, player_name=f"P{n}-{i}",
                                      email=f"p{n}-{i}@example.com",
                                      secret_hash=f"{n:032d}{i:032d}", link_salt=f"{n:x}{i}",
                                      time_zone=ZONES[(n + i) % len(ZONES)]), seat_fields)

        copy_rows(Seat, seats())
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        self.say(f"loaded {count:,} active games and their {3 * count:,} seats with COPY in "
                 f"{time.perf_counter() - started:.0f} s; {due:,} of them will fall due")
        return due

    def worker_argv(self, name: str, queues: str, concurrency: int) -> list[str]:
        return [str(PYTHON), "-m", "celery", "-A", "saboteur_site", "worker", "--loglevel",
                "INFO", "--concurrency", str(concurrency), "--queues", queues,
                "-n", f"chaos-{os.getpid()}-{name}@%h", "--without-mingle", "--without-gossip"]

    def start_processes(self) -> None:
        self.logs.mkdir(exist_ok=True)
        for name, queues, concurrency in WORKERS:
            self.argv[name] = self.logged(name, self.worker_argv(name, queues, concurrency))
            self.procs[name] = topology.start(name, self.argv[name], self.env, "ready.")
        celery = [str(PYTHON), "-m", "celery", "-A", "saboteur_site"]
        self.argv["beat"] = self.logged("beat", [*celery, "beat", "--loglevel", "INFO"])
        self.ready["beat"] = "beat: Starting"
        self.procs["beat"] = topology.start("beat", self.argv["beat"], self.env,
                                            self.ready["beat"])
        self.cpu.start(self.procs, self.database)
        print(f"==> the processes' logs: {self.logs}/")

    def logged(self, name: str, argv: list[str]) -> list[str]:
        """`argv` with its output also appended to a log of its own (kept after the run)."""
        return ["sh", "-c", f'"$@" 2>&1 | tee -a {self.logs / name}.log', "sh", *argv]

    # ---- the chaos ----------------------------------------------------------------------

    def timeline(self, spread: float) -> list[tuple[float, str]]:
        """(seconds after the first deadline, what happens), in order."""
        away = self.args.broker_away_minutes * 60
        stop_at = max(30.0, spread - away)
        events = [(spread / 4, "pgbouncer"), (stop_at, "broker-stop"),
                  (stop_at + away, "broker-start")]
        events += [(self.rng.uniform(20, spread + 120), "kill") for _ in range(self.args.kills)]
        return sorted(events)

    def chaos(self, due: int) -> int:
        from django.db import connection
        from django.utils import timezone

        spread = self.args.spread_minutes * 60
        first = timezone.now() + timedelta(seconds=15)
        with connection.cursor() as cursor:
            # Game `seed` n (0..due-1) falls due at first + spread * ((n * 7919) % due) / due:
            # evenly over the spread, in an order unrelated to the rows' order; a quarter
            # get a reminder a minute before (never before the first deadline).
            cursor.execute(
                "UPDATE games_game SET deadline_at = %s + make_interval(secs => %s::float8 "
                "* ((seed::bigint * 7919) %% %s) / %s) WHERE seed < %s",
                [first, spread, due, due, due])
            cursor.execute(
                "UPDATE games_game SET reminder_at = GREATEST(%s, deadline_at - interval "
                "'1 minute') WHERE seed < %s AND seed %% 4 = 0", [first, due])
        t0 = time.monotonic() + 15
        self.began = self.t0 = t0
        self.say(f"deadlines set: {due:,} fall due over {spread / 60:.0f} minutes from now "
                 f"(load {os.getloadavg()[0]:.1f})")
        loads = [os.getloadavg()[0]]
        for at, what in self.timeline(spread):
            self.wait_until(t0 + at)
            loads.append(os.getloadavg()[0])
            getattr(self, "do_" + what.replace("-", "_"))()
        self.wait_until(t0 + spread)
        self.say("the last deadline is due")
        limit = time.monotonic() + self.args.drain_minutes * 60
        while not self.all_done(due) and time.monotonic() < limit:
            self.look()
            time.sleep(TICK)
        done = time.monotonic()
        loads.append(os.getloadavg()[0])
        self.cpu.stop()
        self.say(f"the chaos took {done - t0:.0f} s from the first deadline")
        return self.check(due, first, done - t0, loads)

    def wait_until(self, moment: float) -> None:
        while (left := moment - time.monotonic()) > 0:
            self.look()
            time.sleep(min(TICK, left))

    def look(self) -> None:
        """Every TICK: restart killed workers once the broker is up, and after the
        broker's return, note the first moment nothing is left to do."""
        for name, proc in self.procs.items():
            if name not in self.dead and proc.poll() is not None:
                # As systemd's Restart=always would (deploy/saboteur-worker-*.service).
                self.exits.append(name)
                self.dead.append(name)
                self.say(f"{name} exited on its own (status {proc.returncode}); started "
                         "again" + (" once the broker is back" if self.broker_down else ""))
        if self.dead and not self.broker_down:
            for name in self.dead:
                self.procs[name] = topology.start(name, self.argv[name], self.env,
                                                  self.ready.get(name, "ready."))
                self.cpu.track(self.procs[name])
            self.dead = []
        if self.broker_back_at and not self.drained_at and self.drained():
            self.drained_at = time.monotonic()
            self.say(f"the outbox is drained: {self.drained_at - self.broker_back_at:.0f} s "
                     "after the broker's return")

    def drained(self) -> bool:
        """No move's emails left to plan, no email unsent, no deadline due before the
        broker's return left unhandled."""
        from django.db import connections
        from django.utils import timezone

        from games.game.core.follow_up_rows import FollowUp
        from games.game.core.game import Game
        from games.mail.core.notifications import Notification

        Status = Notification.Status
        back = timezone.now() - timedelta(seconds=time.monotonic() - self.broker_back_at)
        try:
            return (not FollowUp.objects.exists() and not Notification.objects.filter(
                status__in=[Status.PENDING, Status.SENDING, Status.RETRYING]).exists()
                and not Game.objects.filter(status=Game.Status.ACTIVE,
                                            deadline_at__lte=back).exists())
        except Exception:  # PgBouncer restarting: the next look
            connections.close_all()
            return False

    def all_done(self, due: int) -> bool:
        from django.db import connections
        from django.utils import timezone

        from games.game.core.game import Game
        from games.mail.core.notifications import Notification

        if not self.drained_at or self.dead:
            return False
        try:
            sent = Notification.objects.filter(status=Notification.Status.SENT).count()
            return (self.drained() and not Game.objects.filter(
                status=Game.Status.ACTIVE, deadline_at__lte=timezone.now()).exists()
                and len(set(self.mailbox.ids)) >= sent)
        except Exception:
            connections.close_all()
            return False

    def do_kill(self) -> None:
        alive = [name for name, _q, _c in WORKERS if name not in self.dead]
        if not alive:
            return
        name = self.rng.choice(alive)
        os.killpg(self.procs[name].pid, signal.SIGKILL)
        self.procs[name].wait()
        self.dead.append(name)
        self.say(f"worker {name} killed with SIGKILL"
                 + (" (started again once the broker is back)" if self.broker_down else ""))

    def do_pgbouncer(self) -> None:
        took = self.bouncer.restart()
        self.say(f"PgBouncer restarted (away {took:.1f} s)")

    def do_broker_stop(self) -> None:
        self.broker.stop()
        self.broker_down = True
        self.stopped_at = time.monotonic()
        self.say(f"the broker ({self.args.broker}) stopped")

    def do_broker_start(self) -> None:
        self.broker.start()
        self.broker_down = False
        self.broker_back_at = time.monotonic()
        self.say(f"the broker is back after {self.broker_back_at - self.stopped_at:.0f} s; "
                 f"left for it: {self.backlog()}")

    def backlog(self) -> str:
        from django.db import connections
        from django.utils import timezone

        from games.game.core.follow_up_rows import FollowUp
        from games.game.core.game import Game
        from games.mail.core.notifications import Notification

        for _ in range(3):  # this process's connection may be one PgBouncer dropped
            try:
                due = Game.objects.filter(status=Game.Status.ACTIVE,
                                          deadline_at__lte=timezone.now()).count()
                unsent = Notification.objects.filter(status__in=[
                    Notification.Status.PENDING, Notification.Status.SENDING,
                    Notification.Status.RETRYING]).count()
                return (f"{due:,} deadlines due, {FollowUp.objects.count():,} moves' emails "
                        f"to plan, {unsent:,} emails unsent")
            except Exception:
                connections.close_all()
        return "(not read)"

    # ---- the counts ---------------------------------------------------------------------

    def check(self, due: int, first: datetime, chaos_seconds: float, loads: list[float]) -> int:
        from django.db.models import Count

        from games.game.core.follow_up_rows import FollowUp
        from games.game.core.game import Game, Move
        from games.game.core.talk_and_notices import GameNotice
        from games.mail.core.notifications import Notification

        problems: list[str] = []
        timeouts = GameNotice.objects.filter(kind=GameNotice.Kind.TIMEOUT)
        acted = timeouts.count()
        twice = (timeouts.values("game_id", "version").annotate(n=Count("id"))
                 .filter(n__gt=1).count())
        # A timeout's notice carries the game's version after its move: 1 for the loaded
        # deadline (no other move is made), more for a deadline that fell due again.
        first_ones = timeouts.filter(version=1).values("game_id").distinct().count()
        again = acted - timeouts.filter(version=1).count()
        missed = Game.objects.filter(status=Game.Status.ACTIVE,
                                     deadline_at__lte=first + timedelta(
                                         seconds=chaos_seconds - 30)).count()
        moves = Move.objects.count()
        print(f"\ndeadlines: {due:,} loaded due, {again} more fell due again in the run; "
              f"acted on: {acted:,} timeouts ({first_ones:,} of the loaded ones), "
              f"{twice} twice, {missed} missed; {moves:,} moves in all")
        if first_ones != due or missed or twice or moves != acted:
            problems.append(f"deadlines: {first_ones} of {due} acted on, {twice} twice, "
                            f"{missed} missed, {moves} moves for {acted} timeouts")
        arrived = Counter(int(m.group(1)) for mid in self.mailbox.ids
                          if (m := re.match(r"<saboteur\.(\d+)\.", mid)))
        by_kind = Counter(Notification.objects.values_list("kind", flat=True))
        status = Counter(Notification.objects.values_list("status", flat=True))
        sent = set(Notification.objects.filter(status=Notification.Status.SENT)
                   .values_list("pk", flat=True))
        not_once = {pk: arrived[pk] for pk in sent if arrived[pk] != 1}
        strays = sum(1 for pk in arrived if pk not in sent)
        print(f"emails planned: {dict(by_kind)}; by status: {dict(status)}")
        for kind, reason in Notification.objects.filter(
                status=Notification.Status.SKIPPED).values_list("kind", "last_error"):
            print(f"  skipped: a {kind} email ({reason})")
        print(f"emails arrived at the SMTP sink: {sum(arrived.values()):,} "
              f"({len(arrived):,} rows); sent rows not arrived exactly once: {len(not_once)}; "
              f"arrivals of rows not sent: {strays}")
        turns = by_kind.get(Notification.Kind.TURN, 0)
        turn_once = Notification.objects.filter(kind=Notification.Kind.TURN, pk__in=[
            pk for pk in sent if arrived[pk] == 1]).count()
        print(f"turn emails: {turns:,} planned for {acted:,} timeouts, {turn_once:,} arrived "
              "exactly once")
        reminders = len(range(0, due, 4))
        print(f"reminders: {reminders:,} set, {by_kind.get(Notification.Kind.REMINDER, 0):,} "
              "planned (one whose deadline was acted on first is not sent: the turn is over)")
        for pk in not_once:
            times = [at for mid, (at, _to) in zip(self.mailbox.ids, self.mailbox.deliveries,
                                                  strict=False)
                     if mid.startswith(f"<saboteur.{pk}.")]
            kind = Notification.objects.get(pk=pk).kind
            print(f"  notification {pk} ({kind}) arrived at "
                  + ", ".join(f"{at - self.t0:.1f} s" for at in times)
                  + " (the chaos' times are below)")
        if not_once:
            problems.append(f"{len(not_once)} emails did not arrive exactly once: "
                            f"{dict(list(not_once.items())[:10])}")
        if strays:
            problems.append(f"{strays} emails arrived whose rows are not sent")
        unsent = sum(n for s, n in status.items() if s not in ("sent", "skipped"))
        if unsent or FollowUp.objects.exists():
            problems.append(f"{unsent} emails unsent, {FollowUp.objects.count()} moves' "
                            "emails unplanned")
        if turns != acted or turn_once != turns:
            problems.append(f"{turns} turn emails planned for {acted} timeouts, "
                            f"{turn_once} arrived once")
        drain = self.drained_at - self.broker_back_at if self.drained_at else None
        print(f"outbox drained {f'{drain:.0f} s' if drain is not None else 'never'} after the "
              f"broker's return (bar {DRAIN_BAR:.0f} s)")
        if drain is None or drain > DRAIN_BAR:
            problems.append("the outbox was not drained within 5 minutes of the broker's return")
        self.cpu.report(acted, sum(arrived.values()), chaos_seconds)
        print(f"wall: {time.monotonic() - self.cpu.born:.0f} s in all, {chaos_seconds:.0f} s "
              f"from the first deadline until everything was done; load average "
              f"{min(loads):.1f}-{max(loads):.1f} (2 cores)")
        print(f"processes that exited on their own (and were started again): "
              f"{dict(Counter(self.exits)) or 'none'}")
        print("\nthe chaos:\n  " + "\n  ".join(self.log))
        for problem in problems:
            print("FAILED:", problem)
        if not problems:
            print("all counts right")
        return 1 if problems else 0


class Cpu:
    """CPU seconds by kind of process, read from /proc every TICK (a process killed
    with SIGKILL keeps what was last read): the workers and the beat (their process
    groups), PostgreSQL's backends for the database, and this process."""

    def __init__(self) -> None:
        self.born = time.monotonic()
        self.groups: set[int] = set()
        self.database = ""
        self.seen: dict[tuple[str, int, int], float] = {}  # (kind, pid, start) -> seconds
        self.stopped = threading.Event()
        self.own_at_start = 0.0
        self.lock = threading.Lock()

    def start(self, procs: dict[str, subprocess.Popen[str]], database: str) -> None:
        self.database = database
        self.groups = {proc.pid for proc in procs.values()}
        self.own_at_start = own_cpu()
        threading.Thread(target=self._watch, daemon=True).start()

    def track(self, proc: subprocess.Popen[str]) -> None:
        with self.lock:
            self.groups.add(proc.pid)

    def stop(self) -> None:
        if not self.stopped.is_set():
            self._look()
            self.own = own_cpu() - self.own_at_start
        self.stopped.set()

    def _watch(self) -> None:
        import psycopg

        conn = psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{self.database}",
                               autocommit=True)
        while not self.stopped.wait(TICK):
            with contextlib.suppress(Exception):
                self.backends = {row[0] for row in conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s", [self.database])}
                self._look()
        conn.close()

    backends: set[int] = set()
    own = 0.0

    def _look(self) -> None:
        tick = os.sysconf("SC_CLK_TCK")
        with self.lock:
            groups = set(self.groups)
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            pid, group = int(entry.name), int(fields[2])
            kind = ("workers" if group in groups else
                    "postgres" if pid in self.backends else "")
            if kind:
                seconds = (int(fields[11]) + int(fields[12])) / tick
                self.seen[(kind, pid, int(fields[19]))] = seconds

    def report(self, deadlines: int, emails: int, chaos_seconds: float) -> None:
        workers = sum(s for (kind, _p, _s), s in self.seen.items() if kind == "workers")
        postgres = sum(s for (kind, _p, _s), s in self.seen.items() if kind == "postgres")
        print(f"CPU: workers and beat {workers:.0f} s, PostgreSQL's backends {postgres:.0f} s "
              f"(those alive at a look), this process (SMTP sink, looks) {self.own:.0f} s; "
              f"{(workers + postgres) / max(deadlines, 1) * 1000:.0f} ms of workers and "
              f"PostgreSQL per deadline acted on with its {emails / max(deadlines, 1):.1f} "
              f"emails; {(workers + postgres) / max(chaos_seconds, 1):.2f} cores on average")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    sys.exit(main())
