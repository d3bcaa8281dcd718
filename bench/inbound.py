"""CPU per inbound email, up to the size limit, and how it grows with the size.

    python bench/inbound.py [--messages 200] [--seed 1]

In one process, on a throwaway SQLite database (tasks run inline, emails to memory): a
3-seat game; then
- the fuzz: MESSAGES random MIME trees (tests/inbound_support.py's generator: nested up
  to 25 deep, random charsets, transfer encodings, garbage, sizes up to the limit) posted
  through the inbound webhook as SendGrid posts them, to a live reply address; each one's
  CPU time from the request to its processed answer (screening, anymail's parse, storing,
  the task's reading, acting and planning). It prints the median, p95 and max, and the
  status codes (never a 500);
- growth: an HTML-only body of "<script " repeated to 32 KB, 320 KB and 2.5 MB (a shape
  that is quadratic for a regular expression over HTML; bench/README.md), to a live address and to
  a stranger's; the CPU time of each and the ratio per tenfold size (about 10 is linear;
  the stranger's is refused before any parsing, so it stays flat).
"""

from __future__ import annotations

import argparse
import base64
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECRET = "bench:inbound"


def setup(folder: str) -> None:
    os.environ.update({
        "DJANGO_SETTINGS_MODULE": "saboteur_site.test_settings",
        "DATABASE_URL": f"sqlite:///{folder}/bench.sqlite3",
    })
    import django
    from django.conf import settings

    django.setup()
    settings.ANYMAIL = {**getattr(settings, "ANYMAIL", {}), "WEBHOOK_SECRET": SECRET}
    settings.ALLOWED_HOSTS = ["*"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def post(raw: bytes, recipient: str) -> tuple[int, float]:
    from django.test import Client

    boundary = "benchboundary"
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
        + value + b"\r\n" for name, value in (("to", recipient.encode()), ("email", raw))
    ) + f"--{boundary}--\r\n".encode()
    auth = "Basic " + base64.b64encode(SECRET.encode()).decode()
    started = time.process_time()
    answer = Client(raise_request_exception=False).post(
        "/anymail/sendgrid/inbound/", data=body,
        content_type=f"multipart/form-data; boundary={boundary}", HTTP_AUTHORIZATION=auth)
    return answer.status_code, time.process_time() - started


def address() -> str:
    from games.models import Game, Seat
    from games.models.reply_tokens import issue

    seat = Seat.objects.filter(number=0).latest("pk")
    return issue(seat, Game.objects.get(pk=seat.game_id).version)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        setup(folder)
        from django.conf import settings

        from games.play import services
        from tests.inbound_support import random_mime, raw_reply

        services.create_game(name="Bench", start=True, seed=3, players=[
            services.PlayerSpec(name=f"P{i}", email=f"p{i}@example.com") for i in range(3)])
        rng = random.Random(args.seed)
        limit = settings.INBOUND_MAX_BYTES
        times, statuses = [], dict[int, int]()
        for _ in range(args.messages):
            size = int(limit * rng.random() ** 2 * 0.95)
            to = address()
            status, seconds = post(random_mime(rng, to, size, rng.randint(0, 25)), to)
            times.append(seconds)
            statuses[status] = statuses.get(status, 0) + 1
        times.sort()
        print(f"fuzz: {args.messages} messages up to {limit // 1024} KB: CPU median "
              f"{statistics.median(times) * 1000:.1f} ms, p95 "
              f"{times[int(0.95 * len(times))] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms;"
              f" statuses {dict(sorted(statuses.items()))}")
        for label, live in (("live address", True), ("stranger", False)):
            row = []
            for size in (32_000, 320_000, int(limit * 0.95)):
                to = address() if live else "play+" + "q" * 32 + "@127.0.0.1"
                raw = raw_reply(to, html="<script " * (size // 8))
                status, seconds = post(raw, to)
                row.append((size, status, seconds))
            cells = ", ".join(f"{size // 1000} KB {seconds * 1000:.1f} ms ({status})"
                              for size, status, seconds in row)
            ratio = row[1][2] / max(row[0][2], 1e-6)
            print(f"'<script ' bomb, {label}: {cells}; x{ratio:.1f} per tenfold size")


if __name__ == "__main__":
    main()
