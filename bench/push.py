"""Web push (games.push): pushes a second per worker process, and what alerts add to the
planning of a move.

    .venv/bin/python bench/push.py            # SQLite, a throwaway file in var/
    options: --games 60

Seeds GAMES started games; the player to move in the first half has a device on the
stand-in push service of the tests (tests/push/standin.py, in this process, on
loopback: it checks each VAPID signature and decrypts each body, so its work is counted
against the sender's: the rate is a lower bound), the second half has none.

1. The added cost per move: the planning of a move's emails (`plan.after_move` and
   `plan.queue`, as the beat's follow-up does) for a game whose player has a device
   against one whose player has none; median ms each, and the difference.
2. Pushes a second: `games.push.services.sending.deliver` of each planned alert
   (claim, words, VAPID signature, aes128gcm encryption, the POST, the row's update),
   one after the other as one worker process does, against a bare POST of a body of
   the same size to the same stand-in (the HTTP alone).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from throwaway_db import throwaway_database  # noqa: E402  (bench/ is the script's folder)


def run(args: argparse.Namespace) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "saboteur_site.settings")
    os.environ["CELERY_BROKER_URL"] = "memory://"
    os.environ["PUSH_ALLOW_LOOPBACK"] = "1"
    import django

    django.setup()
    import requests
    from django.core.management import call_command
    from django.db import transaction

    from games.game.core.game import Game
    from games.mail.services import plan
    from games.push.core.push_rows import PushAlert
    from games.push.services import sending
    from games.push.services.devices import add_device, subscription_of
    from games.setup.services import game_setup
    from saboteur_site.celery import app
    from tests.push.standin import start

    app.conf.update(task_always_eager=False, broker_url="memory://")
    call_command("migrate", verbosity=0)
    standin = start()
    with_device: list[int] = []
    without: list[int] = []
    for n in range(args.games):
        players = [game_setup.PlayerSpec(name=f"P{s}", email=f"p{s}.{n}@bench.example")
                   for s in range(4)]
        made = game_setup.create_game(name=f"Bench {n}", players=players, seed=n, start=True,
                                      invite=False)
        game = made.game
        if n % 2 == 0:
            assert game.actor is not None
            actor = game.seats.get(number=game.actor)
            add_device(actor.email, subscription_of(standin.subscribe().as_browser_gives_it()),
                       name="Phone", kinds=["turn"], user_agent="Chrome/131.0")
            with_device.append(game.pk)
        else:
            without.append(game.pk)

    def planning_ms(game_id: int) -> float:
        version = Game.objects.get(pk=game_id).version
        started = time.perf_counter()
        with transaction.atomic():
            plan.queue(plan.after_move(game_id, version))
        return (time.perf_counter() - started) * 1000

    planned_with = [planning_ms(g) for g in with_device]
    planned_without = [planning_ms(g) for g in without]
    alerts = list(PushAlert.objects.values_list("pk", flat=True))
    import cProfile
    import pstats
    profile = cProfile.Profile() if args.profile else None
    started = time.perf_counter()
    if profile:
        profile.enable()
    for alert_id in alerts:
        assert sending.deliver(alert_id).status == PushAlert.Status.SENT
    pushing = time.perf_counter() - started
    if profile:
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(25)
    assert len(standin.received) == len(alerts)
    assert all(not got.problem for got in standin.received)
    size = statistics.median(len(got.body) for got in standin.received)
    bare_url = standin.subscribe().endpoint
    session = requests.Session()
    started = time.perf_counter()
    for _ in alerts:
        session.post(bare_url, data=b"x" * int(size), timeout=10)
    bare = time.perf_counter() - started
    standin.server.shutdown()
    a, b = statistics.median(planned_with), statistics.median(planned_without)
    print(f"planning a move's emails, median of {len(planned_with)} and {len(planned_without)}"
          f" games: with a device {a:.2f} ms, without {b:.2f} ms: alerts add {a - b:.2f} ms")
    rate, bare_rate = len(alerts) / pushing, len(alerts) / bare
    print(f"pushes: {len(alerts)} in {pushing:.2f} s = {rate:.0f} a second in one process "
          f"(bodies of {size:.0f} bytes, encrypted and signed, decrypted by the stand-in); "
          f"bare POSTs {bare_rate:.0f} a second; ratio {rate / bare_rate:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--profile", action="store_true", help="profile the sending")
    args = parser.parse_args()
    cleanup = throwaway_database("push", postgres=False)
    try:
        run(args)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
