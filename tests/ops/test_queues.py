"""Queues by kind (saboteur_site/queues.py, docs/operations.md "Queues and workers"): every
task the worker runs has a queue of its kind, a turn email's path never shares one with
the bots' moves, the deadlines or the digests, and each queue has its worker unit."""

from __future__ import annotations

from pathlib import Path

from celery import Celery

import games.tasks  # noqa: F401  (registers every task)
from saboteur_site import queues
from saboteur_site.celery import app

ROOT = Path(__file__).resolve().parent.parent.parent


def production_app(broker: str) -> Celery:
    """An app configured as production is (the tests' settings keep one queue)."""
    routed = Celery("routes", broker=broker, set_as_current=False)
    routed.conf.update(task_routes=queues.task_routes(),
                       task_queues=queues.celery_queues(quorum=broker.startswith("amqp")),
                       task_default_queue=queues.SWEEPS)
    return routed


def queue_of(routed: Celery, task: str) -> str:
    return str(routed.amqp.router.route({}, task)["queue"].name)


def test_every_task_of_the_worker_has_a_queue_of_its_kind() -> None:
    registered = {name for name in app.tasks if name.startswith("games.")}
    assert registered <= set(queues.TASK_QUEUES), registered - set(queues.TASK_QUEUES)
    routed = production_app("redis://127.0.0.1:6379/0")
    assert {task: queue_of(routed, task) for task in registered} == {
        task: queues.TASK_QUEUES[task] for task in registered}


def test_a_turn_email_never_waits_behind_bot_moves_deadlines_or_digests() -> None:
    routed = production_app("redis://127.0.0.1:6379/0")
    turn_email = {queue_of(routed, "games.tasks.follow_up_moves"),
                  queue_of(routed, "games.tasks.send_notification")}
    assert turn_email == {queues.MAIL}
    assert queue_of(routed, "games.tasks.play_bot_turn") == queues.BOTS
    assert queue_of(routed, "games.tasks.process_inbound_mail") == queues.INBOUND
    assert queue_of(routed, "games.tasks.handle_deadlines") == queues.SWEEPS
    assert queue_of(routed, "games.tasks.sweep_digests") == queues.DIGESTS


def test_on_rabbitmq_the_queues_are_quorum_queues_on_topic_exchanges() -> None:
    """Celery's native delayed delivery (a retry's countdown kept by the broker) works
    only from topic exchanges into quorum queues."""
    for queue in queues.celery_queues(quorum=True):
        assert queue.queue_arguments == {"x-queue-type": "quorum"}
        assert queue.exchange.type == "topic"
    for queue in queues.celery_queues(quorum=False):
        assert not queue.queue_arguments
        assert queue.exchange.type == "direct"


def test_each_queue_has_a_worker_unit_that_takes_only_it() -> None:
    for name in queues.QUEUES:
        unit = (ROOT / "deploy" / f"saboteur-worker-{name}.service").read_text()
        assert f"--queues {name} " in unit
        assert f"${{CELERY_{name.upper()}_CONCURRENCY}}" in unit
    example = (ROOT / "deploy" / "saboteur.env.example").read_text()
    for name in queues.QUEUES:
        assert f"CELERY_{name.upper()}_CONCURRENCY=" in example
