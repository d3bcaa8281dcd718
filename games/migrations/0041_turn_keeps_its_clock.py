"""A turn keeps its seat's clock settings: `Game.turn_clock` holds the time zone and quiet
hours the seat to act had when its turn began (games.clock.core.rules.in_force), and
`Seat.quiet_changed_at` when its quiet hours last changed (at most once a day).

The data step: every turn running now keeps the settings its seat has now, so a change
made after the upgrade counts from the seat's next turn, as for any later turn.
"""

from django.db import migrations, models

RUNNING = ("active", "paused")


def _keep_running_turns(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    games = Game.objects.filter(status__in=RUNNING, actor__isnull=False)
    for game in games.only("pk", "actor").iterator():
        seat = (Seat.objects.filter(game_id=game.pk, number=game.actor)
                .values("time_zone", "quiet_from", "quiet_to").first())
        if seat is None:
            continue
        quiet = [seat["quiet_from"], seat["quiet_to"]]
        kept = {"seat": game.actor, "zone": seat["time_zone"],
                "quiet": quiet if None not in quiet and quiet[0] != quiet[1] else None}
        Game.objects.filter(pk=game.pk).update(turn_clock=kept)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0040_name_reset'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='turn_clock',
            field=models.JSONField(blank=True, default=dict, editable=False, verbose_name="the running turn's own settings"),
        ),
        migrations.AddField(
            model_name='seat',
            name='quiet_changed_at',
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name='quiet hours changed at'),
        ),
        migrations.RunPython(_keep_running_turns, migrations.RunPython.noop),
    ]
