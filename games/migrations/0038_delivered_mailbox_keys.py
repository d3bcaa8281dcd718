"""One mailbox is one person, as the mail is delivered: the mailbox key of an address is
now the key of the address the mail backends deliver to (games.people.core.mailboxes:
`"alice"@a.test`, `"a\\lice"@a.test` and `alice(x)@a.test` are `alice@a.test`).

Only an address the parser rewrites (a quote, a backslash, a comment, white space, an
encoded word) can have a new key, so only those rows are written again: each key column
and each counted mailbox's hash kept beside such an address. Where a row that is unique per
person (a home link, a pending request to be forgotten, a place at a forming open table,
a volunteer) now meets the same person's row, the rewritten spelling's row goes: it was
the second identity the quoted spelling gave one mailbox. No other row is ever deleted.
"""

from functools import reduce
from operator import or_

from django.db import IntegrityError, migrations, transaction
from django.db.models import Q

from games.people.core.mailbox_keys import MailboxKeyField
from games.people.core.mailboxes import mailbox_hash, mailbox_key_hash

# What the RFC 5322 parser rewrites in an address (games.people.core.mailboxes._PARSER_CHANGES).
REWRITTEN = ['"', "\\", "(", ")", "=?", " ", "<", ","]
# Counted mailboxes' hashes kept beside an address, by model: (address, hash column).
COUNTED = {"Volunteer": ("email", "mailbox"), "Game": ("host_email", "host_mailbox")}
# The rows unique per person: a second one of the same person is dropped.
ONE_PER_PERSON = {"HomeLink", "PendingForget", "TableMember", "Volunteer"}


def _rewritten(source):
    return reduce(or_, (Q(**{f"{source}__contains": mark}) for mark in REWRITTEN))


def _write_again(model, pk, values):
    """The new values, or (a unique key now held by an older row) the row deleted."""
    try:
        with transaction.atomic():
            model.objects.filter(pk=pk).update(**values)
    except IntegrityError:
        if model.__name__ not in ONE_PER_PERSON:
            raise
        model.objects.filter(pk=pk).delete()


def forwards(apps, schema_editor):
    for model in apps.get_app_config("games").get_models():
        keys = [f for f in model._meta.concrete_fields if isinstance(f, MailboxKeyField)]
        for field in keys:
            source = field.source
            rows = model.objects.filter(_rewritten(source)).order_by("pk")
            for pk, address in rows.values_list("pk", source):
                values = {field.attname: mailbox_key_hash(address)}
                counted = COUNTED.get(model.__name__)
                if counted and counted[0] == source:
                    values[counted[1]] = mailbox_hash(address) if address else ""
                _write_again(model, pk, values)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0037_clock"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
