"""The production topology, started for real and played through (`.ci/run` runs this when
PostgreSQL and Redis answer; README "Production"):

gunicorn (gunicorn.conf.py) + a Celery worker + the one beat, on PostgreSQL (a throwaway
database) and Redis (a database number of its own, flushed), emails over SMTP to a local
aiosmtpd server. Several games are played to the end through the JSON API; midway the
worker is killed with SIGKILL and started again. Then: every game's replay equals its
snapshot, each seat's invitation, round-end and game-end emails arrived exactly once over
SMTP, and nothing is left unsent.

Waiting never sleeps blindly: the processes' own "ready" lines are read from their output,
and arriving emails wake a condition variable.

    .venv/bin/python .ci/topology.py
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the project, for the checks through Django
PYTHON = ROOT / ".venv" / "bin" / "python"
PG = "postgresql://postgres@127.0.0.1:5432"
REDIS_DB = 13
GAMES = 3
WAIT = 240  # seconds any one wait may take before the check fails


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mailbox:
    """The SMTP server's inbox: Message-IDs received, and a condition to wait on."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        found = re.search(rb"^Message-ID:\s*(<[^>]+>)", envelope.content, re.M | re.I)
        with self.changed:
            self.ids.append(found.group(1).decode() if found else "?")
            self.changed.notify_all()
        return "250 OK"


def admin_sql(sql: str) -> None:
    import psycopg
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def start(name: str, argv: list[str], env: dict[str, str], ready: str) -> subprocess.Popen[str]:
    """Start a process and read its output until the line that says it is ready."""
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    assert proc.stdout is not None
    deadline = threading.Timer(WAIT, lambda: os.killpg(proc.pid, signal.SIGKILL))
    deadline.start()
    try:
        for line in proc.stdout:
            if ready in line:
                break
        else:
            raise SystemExit(f"{name} stopped before it was ready")
    finally:
        deadline.cancel()
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    print(f"==> {name} is up")
    return proc


def api(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


def main() -> int:
    from aiosmtpd.controller import Controller

    database = f"saboteur_topology_{os.getpid()}"
    web_port, smtp_port = free_port(), free_port()
    mailbox = Mailbox()
    smtp = Controller(mailbox, hostname="127.0.0.1", port=smtp_port)
    smtp.start()
    env = {
        **os.environ, "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(40),
        "DATABASE_URL": f"{PG}/{database}",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "CACHE_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
        "EMAIL_PROVIDER": "smtp", "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp_port),
        "EMAIL_USE_TLS": "0", "EMAIL_TIMEOUT": "3", "EMAIL_STUCK_MARGIN_SECONDS": "2",
        "EMAIL_UNSENT_AFTER_SECONDS": "3", "SWEEP_SECONDS": "1",
        "SITE_URL": f"http://127.0.0.1:{web_port}", "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0", "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0", "GUNICORN_BIND": f"127.0.0.1:{web_port}",
        "WEB_CONCURRENCY": "2", "GUNICORN_ACCESS_LOG": "/dev/null", "PYTHONUNBUFFERED": "1",
        "CELERY_BEAT_SCHEDULE_FILENAME": f"/tmp/{database}-beat",
    }
    os.environ.update({k: v for k, v in env.items() if k not in os.environ or k != "PATH"})
    admin_sql(f"CREATE DATABASE {database}")
    procs: dict[str, subprocess.Popen[str]] = {}
    celery = [str(PYTHON), "-m", "celery", "-A", "saboteur_site"]
    worker = [*celery, "worker", "--loglevel", "INFO", "--concurrency", "2", "-n",
              f"topology-{os.getpid()}@%h", "--without-mingle", "--without-gossip"]
    try:
        subprocess.run([str(PYTHON), "manage.py", "migrate", "--verbosity", "0"], cwd=ROOT,
                       env=env, check=True)
        import redis
        redis.Redis(db=REDIS_DB).flushdb()
        procs["web"] = start("gunicorn", [str(PYTHON), "-m", "gunicorn", "-c", "gunicorn.conf.py",
                                          "saboteur_site.wsgi"], env, "Listening at")
        procs["worker"] = start("worker", worker, env, "ready.")
        procs["beat"] = start("beat", [*celery, "beat", "--loglevel", "INFO"], env,
                              "beat: Starting")
        links = []
        for number in range(GAMES):
            out = subprocess.run(
                [str(PYTHON), "manage.py", "creategame", "--name", f"Topology {number}",
                 "--seed", str(100 + number), "--start",
                 *[arg for n in range(3) for arg in ("--player", f"P{n} <p{number}{n}@x.org>")]],
                cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
            links.append([line.split("\t")[3].split("/play/")[1].strip("/")
                          for line in out.splitlines() if line.startswith("seat ")])
        base = env["SITE_URL"] + "/api/play/"
        moves = killed = 0
        playing = set(range(GAMES))
        while playing:
            for number in sorted(playing):
                seat_of = {i: token for i, token in enumerate(links[number])}
                state = api(base, f"{seat_of[0]}/")
                if state["view"]["finished"]:
                    playing.discard(number)
                    continue
                actor = state["view"]["actor"]
                mine = api(base, f"{seat_of[actor]}/")
                move = mine["legal_moves"][-1]  # passes mostly: games end in a few dozen moves
                api(base, f"{seat_of[actor]}/moves", {"version": mine["version"], "move": move})
                moves += 1
                if moves == 40 and not killed:
                    os.killpg(procs["worker"].pid, signal.SIGKILL)
                    procs["worker"].wait()
                    print("==> worker killed with SIGKILL; starting it again")
                    procs["worker"] = start("worker", worker, env, "ready.")
                    killed = 1
        print(f"==> {GAMES} games played to the end ({moves} moves)")
        return check(mailbox)
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs.values():
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        smtp.stop()
        from django.db import connections
        connections.close_all()
        admin_sql(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        try:
            import redis
            redis.Redis(db=REDIS_DB).flushdb()
        except Exception:
            pass


def check(mailbox: Mailbox) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
    import django
    django.setup()
    from games import engine
    from games.models import Game, Move, Notification

    wanted = (Notification.Kind.INVITATION, Notification.Kind.ROUND_END,
              Notification.Kind.GAME_END)

    def settled() -> bool:
        open_rows = Notification.objects.exclude(
            status__in=[Notification.Status.SENT, Notification.Status.SKIPPED,
                        Notification.Status.FAILED]).count()
        sent = Notification.objects.filter(status=Notification.Status.SENT).count()
        return open_rows == 0 and len(set(mailbox.ids)) >= sent

    with mailbox.changed:
        if not mailbox.changed.wait_for(settled, timeout=WAIT):
            print("FAILED: emails still unsent after the wait")
            return 1
    problems = []
    for game in Game.objects.all():
        moves = list(Move.objects.filter(game=game).order_by("number")
                     .values_list("move", flat=True))
        replayed = engine.replay(game.seats.count(), game.seed, moves, game.ruleset,
                                 game.options)
        if replayed.to_json() != game.full_snapshot():
            problems.append(f"{game.name}: the replay differs from the snapshot")
        if game.status != Game.Status.FINISHED:
            problems.append(f"{game.name}: not finished")
    received = Counter(mailbox.ids)
    for note in Notification.objects.filter(kind__in=wanted):
        ids = [mid for mid in received if mid.startswith(f"<saboteur.{note.pk}.")]
        times = sum(received[mid] for mid in ids)
        if times != 1:
            problems.append(f"notification {note.pk} ({note.kind}, {note.to_email}) arrived "
                            f"{times} times")
    for game in Game.objects.all():
        for seat in game.seats.all():
            for kind in wanted:
                count = Notification.objects.filter(seat=seat, kind=kind).count()
                expected = (game.snapshot.get("rounds", 3) - 1) if kind == "round_end" else 1
                if kind != "round_end" and count != expected:
                    problems.append(f"{game.name} seat {seat.number}: {count} {kind} emails")
                if kind == "round_end" and count < 1:
                    problems.append(f"{game.name} seat {seat.number}: no round-end email")
    unsent = Notification.objects.exclude(status=Notification.Status.SENT).exclude(
        status=Notification.Status.SKIPPED).count()
    if unsent:
        problems.append(f"{unsent} emails not sent")
    for problem in problems:
        print("FAILED:", problem)
    print(f"==> {len(received)} emails over SMTP; {'all checks passed' if not problems else ''}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
