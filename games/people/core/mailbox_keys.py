"""The mailbox key kept beside an address (games.people.core.mailboxes, "identity"): a column
that the database compares exactly, kept true by every way the ORM writes the address.

    email = models.EmailField(...)
    mailbox_key = MailboxKeyField(source="email")      # sha256 of mailbox_key(email)

    Seat.objects.filter(of_mailbox(address))           # the seats of that person

A `MailboxKeyField` computes itself from its source field whenever the row is written:
`save()` and `create()` and `bulk_create()` (the field's pre_save), `save(update_fields=
[source])` (KeepsMailboxKeys adds the key), `QuerySet.update(source=...)` and
`bulk_update(..., [source])` (MailboxKeyQuerySet adds it). Only raw SQL can leave it
behind (tests/players/test_mailbox_identity.py holds every model to that).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from django.db import models
from django.db.models import Q

from games.people.core.mailboxes import mailbox_key_hash


class MailboxKeyField(models.CharField):  # type: ignore[type-arg]
    """sha256 of the mailbox key of the row's `source` field ("" without an address)."""

    def __init__(self, *args: Any, source: str = "", **kwargs: Any) -> None:
        self.source = source
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("blank", True)
        kwargs.setdefault("default", "")
        kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        kwargs["source"] = self.source
        for key, value in (("max_length", 64), ("blank", True), ("default", ""),
                           ("editable", False)):
            if kwargs.get(key) == value:
                del kwargs[key]
        return name, path, args, kwargs

    def pre_save(self, model_instance: models.Model, add: bool) -> str:  # noqa: FBT001
        value = mailbox_key_hash(str(getattr(model_instance, self.source) or ""))
        setattr(model_instance, self.attname, value)
        return value


def key_fields(model: type[models.Model]) -> list[MailboxKeyField]:
    return [f for f in model._meta.concrete_fields if isinstance(f, MailboxKeyField)]


def _with_keys(model: type[models.Model], names: Iterable[str]) -> list[str]:
    """`names` and the key field of every source among them."""
    names = list(names)
    return names + [f.name for f in key_fields(model)
                    if f.source in names and f.name not in names]


_M = TypeVar("_M", bound=models.Model)


class MailboxKeyQuerySet(models.QuerySet[_M]):
    """update() and bulk_update() of an address also write its key."""

    def update(self, **kwargs: Any) -> int:
        for field in key_fields(self.model):
            if field.source in kwargs and field.name not in kwargs:
                value = kwargs[field.source]
                if not isinstance(value, str):
                    raise TypeError(f"{self.model.__name__}.{field.source} can only be "
                                    "updated to an address (its mailbox key is computed)")
                kwargs[field.name] = mailbox_key_hash(value)
        return super().update(**kwargs)

    def bulk_update(self, objs: Iterable[_M], fields: Iterable[str],
                    batch_size: int | None = None) -> int:
        objs, fields = list(objs), list(fields)
        for field in key_fields(self.model):
            if field.source in fields:
                for obj in objs:
                    field.pre_save(obj, add=False)
        return super().bulk_update(objs, _with_keys(self.model, fields), batch_size)


class KeepsMailboxKeys(models.Model):
    """A model with MailboxKeyFields: save(update_fields=[address]) writes the key too."""

    objects = MailboxKeyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        fields = kwargs.get("update_fields")
        if fields is not None:
            kwargs["update_fields"] = _with_keys(type(self), fields)
        super().save(*args, **kwargs)


def of_mailbox(address: str, field: str = "mailbox_key") -> Q:
    """The rows whose `field` holds the key of `address` (none for a blank address)."""
    digest = mailbox_key_hash(address)
    return Q(**{field: digest}) if digest else Q(pk__in=[])
