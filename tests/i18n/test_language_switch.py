"""The language switcher names every language in itself, English too: a reader of any
page finds "English", never "Inglese" or "Englisch" marked as English."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["it", "nl", "es", "de"])
def test_english_is_named_english_in_every_language(client: Client, lang: str) -> None:
    body = client.get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'lang="{lang}"' in body
    assert '<option value="en" lang="en">English</option>' in body
    for endonym in ("Italiano", "Nederlands", "Español", "Deutsch"):
        assert f">{endonym}</option>" in body
