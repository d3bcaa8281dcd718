import json

from django.db import migrations, models


def keep_waiting_messages(apps, schema_editor):
    """Messages stored but not yet acted on keep their parts, as the new FIELDS payload."""
    InboundMail = apps.get_model("games", "InboundMail")
    for mail in InboundMail.objects.filter(outcome__in=["received", "processing"]):
        mail.payload = json.dumps({
            "sender": mail.sender, "subject": mail.subject, "text": mail.body_text,
            "html": mail.body_html, "message_id": mail.message_id, "headers": [],
        }).encode()
        mail.payload_format = "fields"
        mail.message_id = ""  # read again by the worker, which keeps it
        mail.save(update_fields=["payload", "payload_format", "message_id"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0028_mailbox_keys'),
    ]

    operations = [
        migrations.AddField(
            model_name='inboundmail',
            name='payload',
            field=models.BinaryField(blank=True, default=b''),
        ),
        migrations.AddField(
            model_name='inboundmail',
            name='payload_format',
            field=models.CharField(blank=True, editable=False, max_length=8),
        ),
        migrations.AddField(
            model_name='inboundmail',
            name='size',
            field=models.PositiveIntegerField(default=0, verbose_name='size in bytes'),
        ),
        migrations.RunPython(keep_waiting_messages, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='inboundmail',
            name='body_html',
        ),
        migrations.RemoveField(
            model_name='inboundmail',
            name='body_text',
        ),
        migrations.AlterField(
            model_name='inboundmail',
            name='outcome',
            field=models.CharField(choices=[('received', 'received'), ('processing', 'being handled'), ('moved', 'move made'), ('talk', 'table talk'), ('refused', 'refused'), ('stale', 'game moved on'), ('unknown', 'unknown token'), ('empty', 'no command'), ('too_large', 'too large'), ('malformed', 'unreadable'), ('automatic', 'automatic reply'), ('duplicate', 'delivered twice')], default='received', max_length=10, verbose_name='outcome'),
        ),
    ]
