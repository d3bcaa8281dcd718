"""A game formed at an open table keeps the table's number (`Game.table_number`) and is
named in each reader's language ("Open table 7", "Tavolo aperto 7"): its stored name was
written once in the table's language. The games already formed, and their rematches
(which keep the first game's name), get the number and the English stored form."""

from django.db import migrations, models


def number_the_tables(apps, schema_editor):
    OpenTable = apps.get_model("games", "OpenTable")
    Game = apps.get_model("games", "Game")
    for table_id, game_id in (OpenTable.objects.filter(game__isnull=False)
                              .values_list("pk", "game_id")):
        games = [game_id]
        while games:
            Game.objects.filter(pk__in=games).update(table_number=table_id,
                                                     name=f"Open table {table_id}")
            games = list(Game.objects.filter(rematch_of__in=games)
                         .values_list("pk", flat=True))


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0044_pause_proposal_emails'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='table_number',
            field=models.PositiveIntegerField(default=0, verbose_name='open table number'),
        ),
        migrations.RunPython(number_the_tables, migrations.RunPython.noop),
    ]
