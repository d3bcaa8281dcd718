"""How fast the moderators' game list is with many games (the lists stay fast).

    DEBUG=1 DATABASE_URL=sqlite:////tmp/bench-admin.sqlite3 \\
        .venv/bin/python bench/admin_lists.py [--games 100000]

Migrates the database named by DATABASE_URL (use a throwaway one), seeds GAMES games
with 4 seats each (some absent, some overdue, 1% with an open dispute; the snapshot
is a stub: the list never loads it), then times the admin's game list, unfiltered
and with each filter, as a moderator, printing the time and the number of queries.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.game.core.game import Game  # noqa: E402
from games.moderation.core.moderation_rows import Dispute  # noqa: E402
from games.seats.core.seat import Seat  # noqa: E402

URLS = ["/admin/games/game/", "/admin/games/game/?overdue=yes",
        "/admin/games/game/?absent=yes", "/admin/games/game/?disputed=yes",
        "/admin/games/game/?waiting=3", "/admin/games/game/?status__exact=active",
        "/admin/games/game/?q=player17%40example.com", "/admin/games/seat/?is_absent=yes",
        "/admin/games/dispute/?status__exact=open"]


def seed(count: int) -> None:
    now = timezone.now()
    batch = 5000
    for start in range(0, count, batch):
        games = [Game(name=f"Bench {n}", seed=n, snapshot={"bench": True}, actor=n % 4,
                      status=Game.Status.ACTIVE, turn_started_at=now - timedelta(days=n % 9),
                      deadline_at=now + timedelta(hours=(n % 10) * 24 - 24),
                      public_id=f"bench-{n}")
                 for n in range(start, min(start + batch, count))]
        Game.objects.bulk_create(games)
        seats = [Seat(game=g, number=i, player_name=f"Player{g.seed * 4 + i}",
                      email=f"player{g.seed * 4 + i}@example.com",
                      secret_hash=f"{g.seed:032d}{i:032d}",
                      absent_since=now if (g.seed % 50 == 0 and i == 1) else None)
                 for g in games for i in range(4)]
        Seat.objects.bulk_create(seats)
        disputes = [Dispute(game=g, seat=s, text="bench") for g in games
                    for s in seats[(g.seed - start) * 4:(g.seed - start) * 4 + 1]
                    if g.seed % 100 == 0]
        Dispute.objects.bulk_create(disputes)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    if not Game.objects.filter(name__startswith="Bench").exists():
        started = time.perf_counter()
        seed(args.games)
        print(f"seeded {args.games} games in {time.perf_counter() - started:.1f}s")
    from django.contrib.auth.models import Group, User

    user, _created = User.objects.get_or_create(username="bench-moderator",
                                                defaults={"is_staff": True})
    user.groups.add(Group.objects.get(name="moderators"))
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    print(f"{'list':60} {'ms':>8} {'queries':>8}")
    for url in URLS:
        client.get(url)  # warm
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code == 200, (url, response.status_code)
        print(f"{url:60} {elapsed:8.1f} {len(queries):8d}")


if __name__ == "__main__":
    main()
