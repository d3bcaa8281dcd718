"""Open tables by language and format (issue 48, item 5): /tables/ and GET /api/tables/
filter by language, ruleset, pace and rated, the reader's language being the filter
unless they choose another; a filter we do not know is a clear 400; "find me a table"
seats a player at a table in their own language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.tables.core.table_rows import OpenTable
from tests.tables.test_open_tables import WISH, find, home

pytestmark = pytest.mark.django_db


def tables(client: Client) -> dict[str, OpenTable]:
    """Five forming tables, one person each, told apart by what they differ in."""
    made = {
        "en": {**WISH},
        "it": {**WISH, "language": "it"},
        "en-s2": {**WISH, "ruleset": "saboteur2"},
        "en-fast": {**WISH, "hours_per_move": 6},
        "en-unrated": {**WISH, "rated": False, "hours_per_move": 72},
    }
    found = {}
    for name, wish in made.items():
        answer = find(client, home(f"{name}@example.org"), {**wish, "players": 5})
        assert answer.status_code == 200, answer.content
        found[name] = OpenTable.objects.get(pk=answer.json()["table"])
    return found


def listed(client: Client, query: str = "", **headers: Any) -> set[int]:
    answer = client.get(f"/api/tables/{query}", **headers)
    assert answer.status_code == 200
    return {table["id"] for table in answer.json()["tables"]}


def test_the_api_filters_by_language_ruleset_pace_and_rated(client: Client) -> None:
    t = tables(client)
    english = {t[n].pk for n in ("en", "en-s2", "en-fast", "en-unrated")}
    assert listed(client) == english  # the reader's language (English here)
    assert listed(client, "?language=any") == {table.pk for table in t.values()}
    assert listed(client, "?language=it") == {t["it"].pk}
    assert listed(client, "", HTTP_ACCEPT_LANGUAGE="it") == {t["it"].pk}
    assert listed(client, "?ruleset=saboteur2") == {t["en-s2"].pk}
    assert listed(client, "?pace=fast") == {t["en-fast"].pk}
    assert listed(client, "?pace=slow") == {t["en-unrated"].pk}
    assert listed(client, "?rated=no&language=any") == {t["en-unrated"].pk}
    answer = client.get("/api/tables/?pace=glacial").json()
    assert answer["error"]["field"] == "pace" and "glacial" in answer["error"]["message"]


def test_the_page_shows_the_readers_language_first_and_says_its_filter(
        client: Client) -> None:
    t = tables(client)
    page = client.get("/tables/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert f'id="table-{t["it"].pk}"' in page and f'id="table-{t["en"].pk}"' not in page
    chosen = re.search(r'<option value="it" selected>([^<]+)</option>', page)
    assert chosen is not None and chosen.group(1) == "italiano"
    assert '<label for="filter-pace">' in page  # every select has its label
    every = client.get("/tables/?language=any").content.decode()
    assert all(f'id="table-{table.pk}"' in every for table in t.values())
    refused = client.get("/tables/?rated=maybe")
    assert refused.status_code == 400 and "maybe" in refused.content.decode()


def test_find_me_a_table_seats_a_player_in_their_own_language(client: Client) -> None:
    t = tables(client)
    token = home("lucia@example.org")
    client.post(f"/me/{token}/preferences", {"language": "it", "time_zone": "Europe/Rome"})
    wish = {key: value for key, value in WISH.items() if key != "language"}
    answer = find(client, token, {**wish, "players": 5})
    assert answer.json()["table"] == t["it"].pk
