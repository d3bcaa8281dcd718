import hashlib
import json

from django.db import migrations, models


def _extend(head, salt, move):
    """games.engine.chain.extend as of this migration (a migration keeps its own copy)."""
    data = json.dumps(move, sort_keys=True, separators=(",", ":")).encode("ascii")
    return hashlib.sha256(f"{head}:{salt}:".encode("ascii") + data).hexdigest()


def chain_existing_games(apps, schema_editor):
    """Every game's head from its Move rows, as the moves would have written it."""
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    # Lists, not iterators: SQLite reads and writes in one connection unisolated.
    games = list(Game.objects.order_by("pk").values_list("pk", "salt", "commitment"))
    for game_id, salt, commitment in games:
        head = commitment
        for move in (Move.objects.filter(game_id=game_id).order_by("number")
                     .values_list("move", flat=True)):
            head = _extend(head, salt, move)
        Game.objects.filter(pk=game_id).update(chain_head=head)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_inbound_mail_stored_and_reply_tokens_bound_to_links'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='chain_head',
            field=models.CharField(default='', editable=False, max_length=64, verbose_name='chain head'),
        ),
        migrations.RunPython(chain_existing_games, migrations.RunPython.noop),
    ]
