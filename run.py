#!/usr/bin/env python3
"""The README's two commands, needing only Python 3.11+ and git:

    python3 run.py serve    set up .venv, migrate, create a demo game, start the server
    python3 run.py test     set up .venv, run ruff, mypy, lint-imports and the whole pytest suite
    python3 run.py test --quick   the quick loop: ruff and the tests of the engine, the bots
                            and the move services, without the slow ones (QUICK below)
    python3 run.py manage   a manage.py command with the settings `serve` uses (DEBUG=1, and
                            links on the port the last `serve` used; --port N for another)
    python3 run.py lock     rewrite the lock files requirements/*.txt from pyproject.toml

Extra arguments after `test` go to pytest (e.g. `python3 run.py test -k api`).
`lock` keeps every pinned version that still fits pyproject.toml; `lock --upgrade` moves
every package to its newest fitting version.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import venv
from collections.abc import Callable
from pathlib import Path

if sys.version_info < (3, 11):  # noqa: UP036  (run.py must say so clearly on old Pythons)
    sys.exit("Python 3.11 or newer is needed (found {}.{}).".format(*sys.version_info[:2]))

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


# The lock files: exact versions with the hash of every file pip may install.
# dev.txt (tests and tools) is resolved first and constrains the production sets, so
# every package has the same version in all three. ses.txt = base.txt + boto3.
LOCKS = ROOT / "requirements"
DEV_LOCK = LOCKS / "dev.txt"


def ensure_env() -> None:
    """Create .venv and install the locked dev set (hashes checked) when the lock changed."""
    if not PYTHON.exists():
        say(f"creating the virtual environment in {VENV}")
        venv.create(VENV, with_pip=True)
    stamp = VENV / ".installed"
    digest = hashlib.sha256(DEV_LOCK.read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    say(f"installing the locked dependencies of {DEV_LOCK.relative_to(ROOT)} (once)")
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--require-hashes",
                    "-r", str(DEV_LOCK)], check=True)
    stamp.write_text(digest)


def lock(*, upgrade: bool) -> int:
    """Resolve pyproject.toml into requirements/{dev,base,ses}.txt with uv (in the dev set).

    --universal: one lock for every platform and Python >= 3.11 (markers, not this
    machine's choices); the hashes cover every wheel and sdist of each pinned version."""
    ensure_env()
    uv = BIN / ("uv.exe" if os.name == "nt" else "uv")
    common = ["pip", "compile", "pyproject.toml", "--quiet", "--universal",
              "--python-version", "3.11", "--generate-hashes",
              "--custom-compile-command", "python3 run.py lock"]
    if upgrade:
        common.append("--upgrade")
    constrained = ["-c", str(DEV_LOCK.relative_to(ROOT))]
    for name, extra in [("dev.txt", ["--extra", "dev"]), ("base.txt", constrained),
                        ("ses.txt", ["--extra", "ses", *constrained])]:
        say(f"locking requirements/{name}")
        target = f"requirements/{name}"
        if subprocess.run([str(uv), *common, *extra, "-o", target], cwd=ROOT).returncode:
            return 1
    say("done: commit requirements/*.txt; `run.py test` installs the new set")
    return 0


def django_env(*, debug: bool) -> dict[str, str]:
    env = dict(os.environ)
    if debug:
        env.setdefault("DEBUG", "1")
    env.setdefault("PYTHONUNBUFFERED", "1")
    return env


def serve_env(host: str, port: int, *, verbose: bool) -> dict[str, str]:
    """The environment of `serve` (and of `manage`): DEBUG=1, links on this host and port,
    Django's friendly error pages (a dead link shows the page a player would see, not the
    debug page), and, unless `verbose`, only warnings and errors on the console: each
    request the open seat pages make and the Celery processes' routine lines would scroll
    the printed link away."""
    env = django_env(debug=True)
    env.setdefault("SITE_URL", f"http://{host}:{port}")
    env.setdefault("FRIENDLY_ERRORS", "1")
    if not verbose:
        env.setdefault("LOG_LEVEL", "WARNING")
        env.setdefault("ACCESS_LOG_LEVEL", "WARNING")
    return env


# Where `serve` writes the address it serves on, so that `manage` (creategame, demo...)
# prints links to that server, whatever --port it was given.
SERVED_AT = ROOT / "var" / "served-at"


def remember_site_url(site_url: str) -> None:
    SERVED_AT.parent.mkdir(parents=True, exist_ok=True)
    SERVED_AT.write_text(site_url + "\n", encoding="utf-8")


def served_site_url() -> str:
    """The address the last `serve` used (it is still running, or will be again), or ""."""
    try:
        url = SERVED_AT.read_text(encoding="utf-8").strip()
    except OSError:
        return ""
    return url if url.startswith(("http://", "https://")) and " " not in url else ""


def manage_site_url(port: int | None, environ: dict[str, str]) -> tuple[str, str]:
    """The SITE_URL `manage` prints links with, and why: the SITE_URL set in the
    environment, else `--port N`, else PORT, else the one `serve` uses (var/served-at),
    else port 8000."""
    if environ.get("SITE_URL"):
        return environ["SITE_URL"], "SITE_URL"
    if port is not None:
        return f"http://127.0.0.1:{port}", "--port"
    if environ.get("PORT"):
        return f"http://127.0.0.1:{environ['PORT']}", "PORT"
    served = served_site_url()
    if served:
        return served, "the address `run.py serve` uses"
    return "http://127.0.0.1:8000", "the default"


def manage(*args: str, env: dict[str, str], capture: bool = False) -> str:
    """Run a manage.py command; its output, when `capture` (it is printed too)."""
    done = subprocess.run([str(PYTHON), "manage.py", *args], cwd=ROOT, env=env, check=True,
                          capture_output=capture, text=True)
    if capture:
        print(done.stdout, end="", flush=True)
        print(done.stderr, end="", file=sys.stderr, flush=True)
    return done.stdout if capture else ""


def seat_link(demo_output: str) -> str:
    """The first playable seat link `manage.py demo` printed (a person's seat), or ""."""
    for line in demo_output.splitlines():
        fields = line.split("\t")
        if len(fields) == 4 and fields[0].startswith("seat ") and "://" in fields[3]:
            return fields[3].strip()
    return ""


def processes(host: str, port: int, *, verbose: bool = False) -> list[tuple[str, list[str]]]:
    """What `serve` runs side by side: the web server, a Celery worker (emails, deadline
    handling) and the beat (the sweeps every minute). The embedded default broker is a
    folder (kombu's filesystem transport, var/celery), so no server is needed. Quiet
    unless `verbose`: no banners, warnings and errors only."""
    level = "INFO" if verbose else "WARNING"
    celery = [str(PYTHON), "-m", "celery", "-A", "saboteur_site"]
    if not verbose:
        celery.append("--quiet")
    return [
        ("web", [str(PYTHON), "manage.py", "runserver", f"{host}:{port}"]),
        ("worker", [*celery, "worker", "--loglevel", level, "--concurrency", "2",
                    "--without-mingle", "--without-gossip"]),
        ("beat", [*celery, "beat", "--loglevel", level]),
    ]


def wait_until_listening(host: str, port: int, timeout: float = 90.0) -> bool:
    """Whether the web server accepts connections within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            time.sleep(0.3)
    return False


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


# A process that dies is started again, unless it died this many times within a minute.
MAX_RESTARTS_PER_MINUTE = 5


def should_restart(deaths: list[float], now: float) -> bool:
    """Whether a process that just died (its deaths' times so far, this one included)
    may be started again: not when it keeps dying."""
    recent = [t for t in deaths if now - t < 60]
    return len(recent) <= MAX_RESTARTS_PER_MINUTE


def _start(name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    say(f"starting {name}: {' '.join(argv[1:])}")
    return subprocess.Popen(argv, cwd=ROOT, env=env, start_new_session=True)


def _stop(running: dict[str, subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each main process only (Celery then stops its own pool quietly), and
    SIGKILL to the whole group of one that does not stop within 10 s."""
    for proc in running.values():
        if proc.poll() is None:
            proc.terminate()
    for proc in running.values():
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)


def run_all(procs: list[tuple[str, list[str]]], env: dict[str, str],
            when_ready: Callable[[], None] | None = None) -> int:
    """Start every process and keep them running: one that dies is started again (up to
    MAX_RESTARTS_PER_MINUTE); Ctrl-C or SIGTERM stops them all. `when_ready` runs once,
    after they started (it may wait)."""
    signal.signal(signal.SIGTERM, _interrupt)
    argv = dict(procs)
    running = {name: _start(name, command, env) for name, command in procs}
    deaths: dict[str, list[float]] = {name: [] for name in argv}
    code = 0
    try:
        if when_ready is not None:
            when_ready()
        while True:
            time.sleep(0.5)
            for name, proc in list(running.items()):
                if proc.poll() is None:
                    continue
                now = time.monotonic()
                deaths[name].append(now)
                if not should_restart(deaths[name], now):
                    say(f"{name} keeps dying (exit code {proc.returncode}): stopping")
                    code = proc.returncode or 1
                    raise KeyboardInterrupt
                say(f"{name} stopped (exit code {proc.returncode}): starting it again")
                running[name] = _start(name, argv[name], env)
    except KeyboardInterrupt:
        pass
    finally:
        _stop(running)
    return code


def port_in_use(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


def ready_lines(link: str, site_url: str, *, verbose: bool = False) -> list[str]:
    """What `serve` says once the server answers: the demo's seat link (or the site), the
    lesson for newcomers (/learn/: a first round with a guide), where the emails are."""
    return [
        f"ready: open your seat link {link}" if link else f"ready: {site_url}/",
        f"new to Saboteur? a first round with a guide: {site_url}/learn/",
        f"the emails: {site_url}/outbox/ · Ctrl-C stops it all"
        + ("" if verbose else " · --verbose shows every request and task"),
    ]


def serve(args: argparse.Namespace) -> int:
    if port_in_use(args.host, args.port):
        say(f"port {args.port} on {args.host} is in use (another server?): stop it, or "
            f"choose another port with --port")
        return 1
    ensure_env()
    env = serve_env(args.host, args.port, verbose=args.verbose)
    remember_site_url(env["SITE_URL"])
    say("migrating the database")
    manage("migrate", "--verbosity", "0", env=env)
    if args.new_demo:
        say("creating a demo game: open your seat link below in your browser")
        shown = manage("demo", "--players", str(args.players), env=env, capture=True)
    else:
        say("the demo game (the last one still open, or a new one): open your seat link")
        shown = manage("demo", "--players", str(args.players), "--reuse", env=env,
                       capture=True)
    link = seat_link(shown)
    outbox = f"{env['SITE_URL']}/outbox/"
    say(f"emails go to {ROOT / 'var' / 'mail'}: read them at {outbox}")

    def ready() -> None:
        # Said again once the server answers: the start's lines have scrolled it away.
        if wait_until_listening(args.host, args.port):
            for line in ready_lines(link, env["SITE_URL"], verbose=args.verbose):
                say(line)

    return run_all(processes(args.host, args.port, verbose=args.verbose), env, ready)


def manage_command(rest: list[str], port: int | None = None) -> int:
    """`python3 run.py manage [--port N] COMMAND ...`: manage.py with the virtual
    environment and the settings `serve` uses (DEBUG=1, its database, its link key), and
    links on the port `serve` runs on (manage_site_url), so the links `creategame` prints
    open on that server."""
    ensure_env()
    site_url, why = manage_site_url(port, dict(os.environ))
    env = serve_env("127.0.0.1", 8000, verbose=True)
    env["SITE_URL"] = site_url
    print(f"==> links on {site_url} ({why}; `run.py manage --port N` for another)",
          file=sys.stderr, flush=True)
    return subprocess.run([str(PYTHON), "manage.py", *rest], cwd=ROOT, env=env).returncode


def workers() -> list[str]:
    # One worker more than there are cores: the browser tests, the real Celery worker and
    # the subprocesses leave a core waiting now and then, and a third worker fills it
    # (7:15 against 8:34 on two cores). worksteal: an idle worker takes tests queued for
    # a busy one; tests/conftest.py deals the long tests out so each worker starts on its
    # share of them.
    count = os.environ.get("PYTEST_WORKERS", str(min(8, (os.cpu_count() or 1) + 1)))
    return ["-p", "no:xdist"] if count == "0" else ["-n", count, "--dist", "worksteal"]


# The quick loop (`test --quick`, under a minute on two cores): the rules engine, the bots
# and the move services, on SQLite; not the tests marked slow (whole games played to the
# end, the engine's self-play, the bots' full-budget searches), nor the browser, the
# emails, the pages or PostgreSQL. The whole suite runs them all.
QUICK = ["tests/engine", "tests/bots", "tests/play"]


# A test database made from the models (pytest-django's --no-migrations) costs each worker
# half a second of CPU; replaying the 60 migrations costs it ten. The tests that replay a
# data migration through the history (marked `migrations`) then skip, so the SQLite run
# makes its databases from the models only where the PostgreSQL leg, which migrates,
# runs them (and in the quick loop, which has none of them).
FROM_MODELS = ["--no-migrations"]


def checks(quick: bool, pytest_args: list[str], *,
           from_models: bool = False) -> list[tuple[str, list[str]]]:
    """What `test` runs, in order: the linters, then pytest (the quick loop: ruff only).
    `from_models`: the SQLite run's databases are made from the models (FROM_MODELS)."""
    ruff = ("ruff", [str(PYTHON), "-m", "ruff", "check", "."])
    if quick:
        # --durations: the slowest tests of the loop, printed each time, keep the marks
        # honest (a test of more than a second or so gets `slow`: pyproject.toml).
        return [ruff, ("pytest (quick)", [str(PYTHON), "-m", "pytest", *workers(), "-m",
                                          "not slow", "--durations=5", *FROM_MODELS,
                                          *QUICK, *pytest_args])]
    return [
        ruff,
        ("mypy", [str(PYTHON), "-m", "mypy", "."]),
        # The layers contract in pyproject.toml: dependencies point one way.
        ("import layers", [str(BIN / "lint-imports")]),
        # Dead code: [tool.vulture] in pyproject.toml, names used by name in
        # vulture_whitelist.py.
        ("dead code", [str(PYTHON), "-m", "vulture"]),
        # pytest's exit code 5 ("no tests ran") is a failure like any other non-zero code.
        # pytest-xdist workers (workers() above). PYTEST_WORKERS=0 runs in one process.
        ("pytest", [str(PYTHON), "-m", "pytest", *workers(),
                    *(FROM_MODELS if from_models else []), *pytest_args]),
    ]


# The production move path (games.moves.services.fast_move_store) and PostgreSQL's own
# behaviour (row locks, SKIP LOCKED) run only on PostgreSQL. Where one answers here and no
# DATABASE_URL is set, `test` runs the tests marked `postgres` again on a throwaway
# database that pytest-django creates and drops (test_saboteur_run_<pid>, one per worker),
# so the path production takes is never skipped where it can run. RUN_TEST_POSTGRES=0
# leaves it out (.ci/run, which then runs the whole suite on PostgreSQL).
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432")


def postgres_answers(url: str = POSTGRES_URL) -> bool:
    from urllib.parse import urlsplit

    where = urlsplit(url)
    try:
        socket.create_connection((where.hostname or "127.0.0.1", where.port or 5432),
                                 timeout=1).close()
    except OSError:
        return False
    return True


def postgres_leg(quick: bool, pytest_args: list[str]) -> tuple[str, list[str], str] | None:
    """(name, argv, DATABASE_URL) of the run on PostgreSQL, or None where none is to run."""
    if os.environ.get("DATABASE_URL") or os.environ.get("RUN_TEST_POSTGRES") == "0":
        return None
    if not postgres_answers():
        return None
    # The data migrations' replays too (`migrations`): the SQLite run leaves them out.
    marks = "postgres and not slow" if quick else "postgres or migrations"
    # In one process: it runs beside the other checks (`test`), in the core time they
    # leave idle, and each xdist worker would first build its own database (some 5 s of
    # CPU in migrations), more than its share of the 40 tests takes.
    argv = [str(PYTHON), "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:xdist",
            "-m", marks, *(QUICK if quick else []), *pytest_args]
    return ("pytest on PostgreSQL (the fast move store, locks)", argv,
            f"{POSTGRES_URL.rstrip('/')}/saboteur_run_{os.getpid()}")


def run_step(name: str, argv: list[str], env: dict[str, str]) -> int:
    """One check of `test`, its wall time said after it (where the suite's minutes go)."""
    say(f"running {name}")
    started = time.monotonic()
    code = subprocess.run(argv, cwd=ROOT, env=env).returncode
    say(f"{name}: {time.monotonic() - started:.0f} s")
    return code


class Beside:
    """A check run beside the others (the PostgreSQL leg: mostly waiting on its database
    and on migrations, while the suite leaves a third of two cores idle); its output is
    kept in a file and shown when it has ended, not interleaved with the suite's."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str]) -> None:
        import tempfile

        self.name = name
        # Open for the process's life, closed when the object goes (a file, not a pipe:
        # a pipe nobody reads would stall the leg once its buffer fills).
        self.output = tempfile.TemporaryFile()  # noqa: SIM115
        self.started = time.monotonic()
        say(f"running {name} (beside the other checks; its output follows theirs)")
        self.process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=self.output,
                                        stderr=subprocess.STDOUT)
        # Its own time is until it ended, not until the suite did.
        self.took = 0.0
        self.watcher = threading.Thread(target=self._watch, daemon=True)
        self.watcher.start()

    def _watch(self) -> None:
        self.process.wait()
        self.took = time.monotonic() - self.started

    def finish(self) -> int:
        self.watcher.join()
        self.output.seek(0)
        sys.stdout.flush()
        sys.stdout.buffer.write(self.output.read())
        sys.stdout.flush()
        say(f"{self.name}: {self.took:.0f} s")
        return self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait()


def test(args: argparse.Namespace, pytest_args: list[str]) -> int:
    ensure_env()
    env = django_env(debug=False)
    # Bytecode is written (some machines set PYTHONDONTWRITEBYTECODE): each pytest worker
    # otherwise compiles every module and rewrites every test module's asserts again,
    # 11.5 CPU seconds of collection a worker against 3.3 once they are kept (the
    # PostgreSQL leg and every later run read what the first wrote).
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    failed = []
    started = time.monotonic()
    leg = postgres_leg(args.quick, pytest_args)
    beside = None if leg is None else Beside(leg[0], leg[1], {**env, "DATABASE_URL": leg[2]})
    try:
        for name, argv in checks(args.quick, pytest_args, from_models=leg is not None):
            if run_step(name, argv, env) != 0:
                failed.append(name)
        if beside is None:
            say("PostgreSQL does not answer (or DATABASE_URL is set): the fast move store's "
                "tests ran on SQLite only, where they skip")
        else:
            code = beside.finish()
            # "No tests ran" fails unless the caller's own filter (-k, a path) chose none
            # there.
            if code != 0 and not (code == 5 and pytest_args):
                failed.append(beside.name)
    finally:
        if beside is not None:
            beside.stop()
    took = f"in {time.monotonic() - started:.0f} s"
    if failed:
        say(f"FAILED: {', '.join(failed)} ({took})")
        return 1
    say(f"all checks passed ({took})"
        + ("; the quick loop only: `run.py test` runs everything" if args.quick else ""))
    return 0


def catalogs() -> int:
    """Recompile locale/*/LC_MESSAGES/django.mo from the .po files with polib (pure
    Python: no GNU gettext needed). The suite checks the committed .mo files match."""
    ensure_env()
    script = ("import pathlib, polib\n"
              "for po in sorted(pathlib.Path('locale').glob('*/LC_MESSAGES/django.po')):\n"
              "    polib.pofile(str(po)).save_as_mofile(str(po.with_suffix('.mo')))\n"
              "    print('compiled', po.with_suffix('.mo'))\n")
    return subprocess.run([str(PYTHON), "-c", script], cwd=ROOT).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    serve_parser = sub.add_parser("serve", help="set up and start the server with a demo game")
    serve_parser.add_argument("--host", default="127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
    serve_parser.add_argument("--players", type=int, default=4, help="seats in the demo game")
    serve_parser.add_argument("--new-demo", action="store_true",
                              help="create a new demo game instead of reusing the last one")
    serve_parser.add_argument("--verbose", action="store_true",
                              help="print every request and Celery's routine lines")
    manage_parser = sub.add_parser(
        "manage", help="run a manage.py command with the settings serve uses")
    manage_parser.add_argument("--port", type=int, default=None,
                               help="links on this port (default: the one serve uses)")
    # Everything after the command goes to manage.py untouched, its --help and --port
    # too: `manage creategame --help` prints creategame's help, not this parser's.
    manage_parser.add_argument("manage_argv", nargs=argparse.REMAINDER, metavar="COMMAND ...",
                               help="a manage.py command and its arguments")
    test_parser = sub.add_parser("test", help="run ruff, mypy and the whole test suite")
    test_parser.add_argument("--quick", action="store_true",
                             help="ruff and the engine, bot and move-service tests but the "
                                  "slow ones (under a minute)")
    lock_parser = sub.add_parser("lock", help="update the lock files requirements/*.txt")
    lock_parser.add_argument("--upgrade", action="store_true",
                             help="move every package to its newest allowed version")
    sub.add_parser("catalogs", help="recompile the translation catalogs (.mo) from the .po")
    args, rest = parser.parse_known_args()
    if args.command == "manage":
        if rest:
            parser.error(f"unknown arguments: {' '.join(rest)}")
        return manage_command(args.manage_argv, args.port)
    if args.command == "catalogs":
        return catalogs()
    if args.command == "lock":
        if rest:
            parser.error(f"unknown arguments: {' '.join(rest)}")
        return lock(upgrade=args.upgrade)
    if args.command == "serve":
        if rest:
            parser.error(f"unknown arguments: {' '.join(rest)}")
        return serve(args)
    return test(args, rest)


if __name__ == "__main__":
    sys.exit(main())
