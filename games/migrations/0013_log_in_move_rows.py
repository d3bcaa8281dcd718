"""The game log leaves the snapshot: each Move row keeps the events it appended, the game
its opening events (the deal) and the log's length. A move then writes a few KB whatever
its number, instead of rewriting the whole log (O(moves²) bytes per game).

Existing games are split by replaying their moves from the seed (the engine is pure):
each move's events are the log's growth across it. A game whose moves do not replay to
its stored log keeps its whole log as opening events (nothing is lost; verify flags it)."""

from django.db import migrations, models


def split_logs(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game in Game.objects.all().iterator():
        log = list(game.snapshot.get("log", []))
        moves = list(Move.objects.filter(game=game).order_by("number"))
        pieces = _pieces(game, moves, log)
        if pieces is None:
            game.opening_log, rows = log, []
        else:
            game.opening_log, rows = pieces[0], list(zip(moves, pieces[1:]))
        for move, events in rows:
            move.events = events
            move.save(update_fields=["events"])
        game.snapshot = {**game.snapshot, "log": []}
        game.log_length = len(log)
        game.save(update_fields=["snapshot", "opening_log", "log_length"])


def _pieces(game, moves, log):
    """[opening events, events of move 1, ...] when replaying gives exactly `log`."""
    from games import engine

    try:
        state = engine.new_game(int(game.snapshot["seats"]), game.seed, game.ruleset,
                                game.options)
        lengths = [len(state.log)]
        for move in moves:
            state = engine.apply(state, move.move)
            lengths.append(len(state.log))
    except Exception:  # a game that does not replay: keep its log whole
        return None
    if state.log != log:
        return None
    starts = [0, *lengths]
    return [log[starts[i]:starts[i + 1]] for i in range(len(lengths))]


def join_logs(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    for game in Game.objects.all().iterator():
        log = list(game.opening_log)
        for events in (Move.objects.filter(game=game).order_by("number")
                       .values_list("events", flat=True)):
            log.extend(events)
        game.snapshot = {**game.snapshot, "log": log}
        game.save(update_fields=["snapshot"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0012_game_commitment"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="opening_log",
            field=models.JSONField(default=list, editable=False, verbose_name="opening events"),
        ),
        migrations.AddField(
            model_name="game",
            name="log_length",
            field=models.PositiveIntegerField(default=0, editable=False,
                                              verbose_name="log length"),
        ),
        migrations.AddField(
            model_name="move",
            name="events",
            field=models.JSONField(default=list, editable=False, verbose_name="events"),
        ),
        migrations.RunPython(split_logs, join_logs),
    ]
