"""The reports of one table-talk line are one dispute: `TalkReport` (one per reporting
seat), `Dispute.mailed_at` (when the moderators were told: at once, or in the game's
hourly digest of reports) and the digest's email kind.

The data step: every dispute so far was emailed when it was filed, and each report so
far is its dispute's one report, by its filer.
"""

from django.db.models import F

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def _as_before(apps, schema_editor):
    Dispute = apps.get_model("games", "Dispute")
    TalkReport = apps.get_model("games", "TalkReport")
    Dispute.objects.update(mailed_at=F("created_at"))
    reports = Dispute.objects.exclude(talk_context=[]).values_list("pk", "seat_id", "created_at")
    TalkReport.objects.bulk_create(
        [TalkReport(dispute_id=pk, seat_id=seat, created_at=at) for pk, seat, at in reports],
        batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0041_turn_keeps_its_clock'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='TalkReport',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('reason', models.TextField(blank=True, max_length=1000, verbose_name='what is wrong')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False, verbose_name='reported at')),
            ],
            options={
                'verbose_name': 'report of a talk line',
                'verbose_name_plural': 'reports of talk lines',
                'ordering': ['created_at', 'id'],
            },
        ),
        migrations.AddField(
            model_name='dispute',
            name='mailed_at',
            field=models.DateTimeField(blank=True, null=True, verbose_name='moderators emailed at'),
        ),
        migrations.AlterField(
            model_name='notification',
            name='kind',
            field=models.CharField(choices=[('invitation', 'invitation'), ('turn', 'your turn'), ('reminder', 'reminder'), ('missed', 'missed deadline'), ('round_end', 'round end'), ('game_end', 'game end'), ('digest', 'daily digest'), ('dispute_filed', 'dispute filed'), ('dispute_done', 'dispute resolved'), ('mod_alert', 'moderator alert'), ('links', 'private links'), ('confirm_setup', 'confirm a new game'), ('answer', 'answer to an email move'), ('standby', 'standby link'), ('seat_offer', 'offer of an open seat'), ('new_home', 'confirm a new home'), ('table_closed', 'open table expired'), ('nudge', 'nudge'), ('report_digest', 'digest of talk reports')], max_length=16, verbose_name='kind'),
        ),
        migrations.AddIndex(
            model_name='dispute',
            index=models.Index(condition=models.Q(('mailed_at__isnull', True)), fields=['game'], name='dispute_awaiting_mail'),
        ),
        migrations.AddField(
            model_name='talkreport',
            name='dispute',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='reports', to='games.dispute'),
        ),
        migrations.AddField(
            model_name='talkreport',
            name='seat',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='talk_reports', to='games.seat'),
        ),
        migrations.AddConstraint(
            model_name='talkreport',
            constraint=models.UniqueConstraint(fields=('dispute', 'seat'), name='talk_report_once_per_seat'),
        ),
        migrations.RunPython(_as_before, migrations.RunPython.noop),
    ]
