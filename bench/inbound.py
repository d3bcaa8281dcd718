"""CPU per inbound email in the web request and in the worker, up to the size limit.

    python bench/inbound.py [--messages 200] [--seed 1]

In one process, on a throwaway SQLite database (emails to memory): a 3-seat game; every
message is posted through the inbound webhook as SendGrid posts it ("the raw, full MIME
message", with its envelope) to a live reply address, and the stored row is then
processed as the worker does (`games.inbound.services.process.process`). Each part's CPU time is
measured on its own:
- web: the request (credentials, the envelope, storing the bytes): it never parses the
  message, so its time grows only with copying the bytes;
- worker: reading the message under the parser's limits, acting, planning the answer.

It prints
- the baseline: a two-line reply, web and worker;
- the fuzz: MESSAGES random MIME trees (tests/inbound_support.py's generator: nested up
  to 25 deep, random charsets, transfer encodings, garbage, sizes up to the limit):
  median, p95 and max of each part, and the status codes (all 200);
- the bombs of issue 34: 400 multipart levels spelled as folded parameters
  (`multipart/mixed;\\r\\n boundary\\r\\n =b1`) and as RFC 2231's `boundary*=''b1`, about
  760,000 short lines, 2.5 MB (Python's parser needs ~30 s for one): the web answer
  (target: under 50 ms) and the worker's refusal (target: under 1 s of CPU), each also as
  a ratio to the baseline;
- growth: an HTML-only body of "<script " repeated to 32 KB, 320 KB and 2.5 MB (a shape
  that is quadratic for a regular expression over HTML; bench/README.md) to a live
  address (web and worker) and to a stranger's (web only: nothing is stored), and the
  worker's ratio per tenfold size (about 10 is linear).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BOMB_BYTES = 2_500_000
WEB_TARGET_MS = 50
WORKER_TARGET_MS = 1000


def setup(folder: str) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "saboteur_site.test_settings",
        "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
    })
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    from tests.provider_posts import MAILGUN_KEY, SECRET

    settings.ANYMAIL = {**getattr(settings, "ANYMAIL", {}), "WEBHOOK_SECRET": SECRET,
                        "MAILGUN_WEBHOOK_SIGNING_KEY": MAILGUN_KEY}
    settings.ALLOWED_HOSTS = ["*"]
    call_command("migrate", verbosity=0)


def timed(work: Callable[[], object]) -> tuple[object, float]:
    started = time.process_time()
    result = work()
    return result, time.process_time() - started


def deliver(raw: bytes, recipient: str) -> tuple[int, float, str, float]:
    """(status, web CPU s, worker outcome, worker CPU s): posted, then processed."""
    from django.test import Client

    from games.inbound.core.inbound_mail import InboundMail
    from games.inbound.services import process
    from tests.provider_posts import sendgrid_raw

    before = InboundMail.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    answer, web = timed(lambda: sendgrid_raw(Client(raise_request_exception=False), raw,
                                             recipient))
    stored = InboundMail.objects.filter(pk__gt=before, outcome="received").first()
    if stored is None:
        return answer.status_code, web, "-", 0.0  # type: ignore[attr-defined]
    result, worker = timed(lambda: process.process(stored.pk))
    return answer.status_code, web, result.outcome, worker  # type: ignore[attr-defined]


def address() -> str:
    from games.game.core.game import Game
    from games.seats.core.reply_tokens import issue
    from games.seats.core.seat import Seat

    seat = Seat.objects.filter(number=0).latest("pk")
    return issue(seat, Game.objects.get(pk=seat.game_id).version)


def bomb(to: str, spelling: Callable[[int], str], size: int) -> bytes:
    """400 multipart levels in `spelling`, then short lines up to `size` bytes."""
    head = f"From: p0@example.com\r\nTo: {to}\r\nSubject: Re: x\r\nMIME-Version: 1.0\r\n"
    opening = "".join(spelling(i) + f"\r\n\r\n--b{i}\r\n" for i in range(400))
    closing = "".join(f"--b{i}--\r\n" for i in reversed(range(400)))
    body = "Content-Type: text/plain\r\n\r\npass 1\r\n"
    lines = (size - len(head) - len(opening) - len(closing) - len(body)) // 3
    return (head + opening + body + "x\r\n" * lines + closing).encode()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def spread(values: list[float]) -> str:
    values = sorted(values)
    return (f"median {ms(statistics.median(values))}, p95 "
            f"{ms(values[int(0.95 * (len(values) - 1))])}, max {ms(values[-1])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        from django.conf import settings

        from games.setup.services import game_setup
        from tests.inbound_support import random_mime, raw_reply

        game_setup.create_game(name="Bench", start=True, seed=3, players=[
            game_setup.PlayerSpec(name=f"P{i}", email=f"p{i}@example.com") for i in range(3)])
        # The baseline: a two-line reply (the best of 5: the first request warms up).
        runs = []
        for _ in range(5):
            to = address()
            runs.append(deliver(raw_reply(to, "say hi\nsay there"), to))
        base_web = min(run[1] for run in runs)
        base_worker = min(run[3] for run in runs)
        print(f"baseline, a two-line reply: web {ms(base_web)}, worker {ms(base_worker)}")

        rng = random.Random(args.seed)
        limit = int(settings.INBOUND_MAX_BYTES)
        web, worker, statuses = [], [], dict[int, int]()
        for _ in range(args.messages):
            size = int(limit * rng.random() ** 2 * 0.95)
            to = address()
            status, web_s, _outcome, worker_s = deliver(
                random_mime(rng, to, size, rng.randint(0, 25)), to)
            web.append(web_s)
            worker.append(worker_s)
            statuses[status] = statuses.get(status, 0) + 1
        print(f"fuzz: {args.messages} messages up to {limit // 1024} KB: web {spread(web)};"
              f" worker {spread(worker)}; statuses {dict(sorted(statuses.items()))}")

        spellings: dict[str, Callable[[int], str]] = {
            "folded": lambda i: f"Content-Type: multipart/mixed;\r\n boundary\r\n =b{i}",
            "RFC 2231": lambda i: f"Content-Type: multipart/mixed; boundary*=''b{i}",
        }
        for name, spelling in spellings.items():
            to = address()
            raw = bomb(to, spelling, BOMB_BYTES)
            status, web_s, outcome, worker_s = deliver(raw, to)
            lines = raw.count(b"\n")
            verdict = ("ok" if web_s * 1000 < WEB_TARGET_MS and worker_s * 1000 < WORKER_TARGET_MS
                       else "OVER TARGET")
            print(f"{name} bomb, 400 levels, {lines} lines, {len(raw) / 1e6:.2f} MB: "
                  f"web {ms(web_s)} ({status}; target < {WEB_TARGET_MS} ms; "
                  f"x{web_s / base_web:.1f} the baseline), worker {ms(worker_s)} ({outcome}; "
                  f"target < {WORKER_TARGET_MS} ms; x{worker_s / base_worker:.1f}): {verdict}")

        for label, live in (("live address", True), ("stranger", False)):
            row = []
            for size in (32_000, 320_000, int(limit * 0.95)):
                to = address() if live else "play+" + "q" * 32 + "@127.0.0.1"
                row.append((size, *deliver(raw_reply(to, html="<script " * (size // 8)), to)))
            cells = ", ".join(f"{size // 1000} KB web {ms(web_s)}" +
                              (f" worker {ms(worker_s)}" if live else "") + f" ({status})"
                              for size, status, web_s, _outcome, worker_s in row)
            grown = row[1][4] / max(row[0][4], 1e-6) if live else row[1][2] / max(row[0][2],
                                                                                   1e-6)
            print(f"'<script ' bomb, {label}: {cells}; x{grown:.1f} per tenfold size")


if __name__ == "__main__":
    main()
