"""A rating is provisional while the model knows little of it (games.ratings.core.model): while
its variance, decayed to today, is above three quarters of a newcomer's. Each rating keeps
until when it stays settled, so that /ratings/ can list the settled ones first in one
query; the ratings kept so far get theirs from their sigma and their last rated round.

The numbers are the model's as this migration was written (a migration runs as it was
written, whatever the model becomes).
"""

from datetime import timedelta

from django.db import migrations, models

DEFAULT_SIGMA = 25.0 / 3.0
PROVISIONAL_VARIANCE = 0.75 * DEFAULT_SIGMA ** 2
VARIANCE_PER_MONTH = 2.0
MONTH_SECONDS = 30.44 * 86400


def settled_until(apps, schema_editor):
    PlayerRating = apps.get_model("games", "PlayerRating")
    for row in PlayerRating.objects.all().iterator():
        room = PROVISIONAL_VARIANCE - row.sigma ** 2
        if room >= 0:
            row.settled_until = row.last_round_at + timedelta(
                seconds=room / VARIANCE_PER_MONTH * MONTH_SECONDS)
            row.save(update_fields=["settled_until"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0038_delivered_mailbox_keys'),
    ]

    operations = [
        migrations.AddField(
            model_name='playerrating',
            name='settled_until',
            field=models.DateTimeField(blank=True, null=True, verbose_name='settled until'),
        ),
        migrations.RunPython(settled_until, migrations.RunPython.noop),
    ]
