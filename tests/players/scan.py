"""Where a text is still stored: every text and JSON column of every table."""

from __future__ import annotations

from django.apps import apps
from django.db import models


def tables_holding(text: str) -> list[str]:
    """`app.Model.field` for every column of every model whose value holds `text`, case
    folded (a JSON column as its text)."""
    found = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            if not isinstance(field, models.CharField | models.TextField | models.JSONField):
                continue
            if model._default_manager.filter(**{f"{field.name}__icontains": text}).exists():
                found.append(f"{model._meta.label}.{field.name}")
    return found
