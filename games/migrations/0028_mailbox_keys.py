"""One address, one person (issue 34): the mailbox key (games.people.core.mailboxes) kept in
an indexed column beside every address the server matches, filled here; the reliability
rows and "show my record" keyed by it; unconfirmed setups counted apart.

The data step: every key column from its address; one home link and one pending
request to be forgotten per person (the oldest kept); the seat's key on each inbound
email whose From was the seat's address (the only ones known to be "received from" that
person); the counted mailbox of every setup waiting for its host; their invitations
marked waiting; reliability and record-shown rows moved from the counted mailbox's hash
to the person's key hash wherever one person is known for it.
"""

from collections import defaultdict

from django.db import migrations, models

import games.people.core.mailbox_keys
from games.people.core.mailboxes import mailbox_hash, mailbox_key_hash

KEYED = [("Seat", "email", "mailbox_key"), ("Game", "host_email", "host_key"),
         ("Notification", "to_email", "to_key"), ("InboundMail", "sender", "sender_key"),
         ("Volunteer", "email", "mailbox_key"), ("SeatOffer", "to_email", "mailbox_key"),
         ("HomeLink", "address", "mailbox_key"), ("PendingForget", "email", "mailbox_key")]
# The tables whose addresses say which person a counted mailbox's hash stood for.
ADDRESSES = [("Seat", "email"), ("HomeLink", "address"), ("Volunteer", "email"),
             ("SeatOffer", "to_email"), ("Game", "host_email")]


def _fill_keys(apps):
    for name, source, key in KEYED:
        model = apps.get_model("games", name)
        by_address = defaultdict(list)
        for pk, address in model.objects.exclude(**{source: ""}).values_list("pk", source):
            by_address[address].append(pk)
        for address, pks in by_address.items():
            for start in range(0, len(pks), 500):
                model.objects.filter(pk__in=pks[start:start + 500]).update(
                    **{key: mailbox_key_hash(address)})


def _one_row_per_person(apps):
    """Two spellings of one person had a home link (or a pending request) each: the
    oldest stays."""
    for name in ("HomeLink", "PendingForget"):
        model = apps.get_model("games", name)
        seen = set()
        for pk, key in model.objects.order_by("pk").values_list("pk", "mailbox_key"):
            if key in seen:
                model.objects.filter(pk=pk).delete()
            seen.add(key)


def _inbound_seat_keys(apps):
    inbound = apps.get_model("games", "InboundMail")
    rows = inbound.objects.filter(seat__isnull=False).values_list("pk", "sender_key",
                                                                  "seat__mailbox_key")
    for pk, sender_key, seat_key in rows:
        if sender_key and sender_key == seat_key:
            inbound.objects.filter(pk=pk).update(seat_key=seat_key)


def _unconfirmed_setups(apps):
    game = apps.get_model("games", "Game")
    invitation = apps.get_model("games", "Invitation")
    waiting = game.objects.filter(status="setup", host_confirmed_at__isnull=True).exclude(
        host_email="")
    for pk, host in waiting.values_list("pk", "host_email"):
        game.objects.filter(pk=pk).update(host_mailbox=mailbox_hash(host))
        invitation.objects.filter(game_id=pk).update(waiting=True)


def _people_by_counted_mailbox(apps):
    people = defaultdict(set)
    for name, source in ADDRESSES:
        model = apps.get_model("games", name)
        for address in model.objects.exclude(**{source: ""}).values_list(
                source, flat=True).distinct():
            people[mailbox_hash(address)].add(mailbox_key_hash(address))
    return people


def _rekey(model, field, people, seat_keys=None):
    """Each row's counted mailbox's hash made the key hash of the one person known for it
    (the seat's own player when the row names a seat and they are among them)."""
    columns = ["pk", field] + (["seat_id"] if seat_keys is not None else [])
    for pk, digest, *seat in model.objects.values_list(*columns):
        candidates = people.get(digest, set())
        own = seat_keys.get(seat[0]) if seat_keys is not None else None
        if own and own in candidates:
            person = own
        elif len(candidates) == 1:
            person = next(iter(candidates))
        else:
            continue  # nobody (or several people) known for it: left as it was
        model.objects.filter(pk=pk).update(**{field: person})


def _reliability_by_person(apps):
    people = _people_by_counted_mailbox(apps)
    seat = apps.get_model("games", "Seat")
    seat_keys = dict(seat.objects.exclude(mailbox_key="").values_list("pk", "mailbox_key"))
    _rekey(apps.get_model("games", "MissedDeadline"), "mailbox", people, seat_keys)
    _rekey(apps.get_model("games", "SeatTakeover"), "taken_by_mailbox", people, seat_keys)
    _rekey(apps.get_model("games", "RecordShown"), "mailbox", people)


def forwards(apps, schema_editor):
    _fill_keys(apps)
    _one_row_per_person(apps)
    _inbound_seat_keys(apps)
    _unconfirmed_setups(apps)
    _reliability_by_person(apps)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0027_bot_level'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='game',
            name='game_host_email_upper',
        ),
        migrations.RemoveIndex(
            model_name='seat',
            name='seat_email',
        ),
        migrations.AddField(
            model_name='game',
            name='host_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='host_email', verbose_name="host's mailbox key (hash)"),
        ),
        migrations.AddField(
            model_name='game',
            name='host_mailbox',
            field=models.CharField(blank=True, default='', editable=False, max_length=64, verbose_name="host's mailbox (hash)"),
        ),
        migrations.AddField(
            model_name='homelink',
            name='mailbox_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='address', verbose_name='mailbox key (hash)'),
        ),
        migrations.AddField(
            model_name='inboundmail',
            name='seat_key',
            field=models.CharField(blank=True, default='', editable=False, max_length=64, verbose_name="seat's mailbox key (hash)"),
        ),
        migrations.AddField(
            model_name='inboundmail',
            name='sender_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='sender', verbose_name="sender's mailbox key (hash)"),
        ),
        migrations.AddField(
            model_name='invitation',
            name='waiting',
            field=models.BooleanField(default=False, verbose_name="waits for its host's confirmation"),
        ),
        migrations.AddField(
            model_name='notification',
            name='to_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='to_email', verbose_name="recipient's mailbox key (hash)"),
        ),
        migrations.AddField(
            model_name='pendingforget',
            name='mailbox_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='email', verbose_name='mailbox key (hash)'),
        ),
        migrations.AddField(
            model_name='seat',
            name='mailbox_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='email', verbose_name='mailbox key (hash)'),
        ),
        migrations.AddField(
            model_name='seatoffer',
            name='mailbox_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='to_email', verbose_name='mailbox key (hash)'),
        ),
        migrations.AddField(
            model_name='volunteer',
            name='mailbox_key',
            field=games.people.core.mailbox_keys.MailboxKeyField(source='email', verbose_name='mailbox key (hash)'),
        ),
        migrations.AlterField(
            model_name='homelink',
            name='address',
            field=models.CharField(max_length=254, verbose_name='email'),
        ),
        migrations.AlterField(
            model_name='pendingforget',
            name='email',
            field=models.EmailField(max_length=254, verbose_name='email'),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('host_key', ''), _negated=True), fields=['host_key'], name='game_host_key'),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('host_confirmed_at__isnull', True), models.Q(('host_mailbox', ''), _negated=True)), fields=['host_mailbox', 'created_at'], name='game_unconfirmed_host'),
        ),
        migrations.AddIndex(
            model_name='inboundmail',
            index=models.Index(fields=['sender_key'], name='inbound_sender_key'),
        ),
        migrations.AddIndex(
            model_name='inboundmail',
            index=models.Index(fields=['seat_key'], name='inbound_seat_key'),
        ),
        migrations.AddIndex(
            model_name='notification',
            index=models.Index(fields=['to_key'], name='notification_to_key'),
        ),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(fields=['mailbox_key'], name='seat_mailbox_key'),
        ),
        migrations.AddIndex(
            model_name='seatoffer',
            index=models.Index(fields=['mailbox_key'], name='offer_mailbox_key'),
        ),
        migrations.AddIndex(
            model_name='volunteer',
            index=models.Index(fields=['mailbox_key'], name='volunteer_mailbox_key'),
        ),
        migrations.AddConstraint(
            model_name='homelink',
            constraint=models.UniqueConstraint(fields=('mailbox_key',), name='home_link_one_per_person'),
        ),
        migrations.AddConstraint(
            model_name='pendingforget',
            constraint=models.UniqueConstraint(fields=('mailbox_key',), name='pending_forget_one_per_person'),
        ),
    ]
