"""Whatever a client posts to any endpoint under /api/ (every one the URLconf has, so a new
endpoint is fuzzed as soon as it exists), the answer is never a 5xx, and a refusal (4xx)
changes no row of the games app: random JSON of every shape, known fields with values of
the wrong type, top-level values that are no object, an empty body, bytes that are not
UTF-8."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.challenges.core.challenge_terms import read_terms
from games.challenges.services.challenging import create_challenge
from games.moves.core import log_cache
from games.people.core.home_links import home_link
from games.push.services.devices import Subscription, add_device
from games.seatview.core import log_json
from games.setup.services import game_setup
from games.tables.core.wishes import read_wish
from games.tables.services import forming, naming
from tests.support import make_game, token_of
from tests.tournaments.support import event

pytestmark = pytest.mark.django_db



def api_routes() -> list[tuple[str, list[str]]]:
    """Every URL pattern under /api/: (its name with its namespace, its parameters)."""
    found: list[tuple[str, list[str]]] = []

    def walk(patterns: list[Any], namespace: str, prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if isinstance(entry, URLResolver):
                inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
                walk(entry.url_patterns, inner, route)
            elif isinstance(entry, URLPattern) and route.lstrip("^").startswith("api/"):
                assert entry.name, f"an API route without a name cannot be fuzzed: {route}"
                found.append((namespace + entry.name,
                              list(getattr(entry.pattern, "converters", {}))))

    walk(get_resolver().url_patterns, "", "")
    return found


@dataclass(frozen=True)
class Site:
    """Valid values for each parameter an API route takes (a route with a parameter not
    listed here fails the test: give it one)."""

    values: dict[str, list[str]]
    rows: dict[str, list[tuple[Any, ...]]]  # every row of the games app, as set up

    def urls(self, name: str, parameters: list[str]) -> list[str]:
        missing = [p for p in parameters if p not in self.values]
        assert not missing, f"{name}: the fuzz needs a valid value for {missing}"
        return [reverse(name, kwargs=dict(zip(parameters, chosen, strict=True)))
                for chosen in itertools.product(*(self.values[p] for p in parameters))]


@pytest.fixture
def site(db: None) -> Site:
    """A started game (the seat to act, another seat, and a host's invitation link of
    another game), and the home of the acting player: a public name, a forming open
    table, a challenge to answer; and a tournament open for sign-up."""
    game = make_game(players=3, seed=1, start=True)
    actor = game.actor_seat()
    invited = game_setup.create_game(
        name="Invited", players=[game_setup.PlayerSpec(name=f"I{n}", email=f"i{n}@example.com")
                                 for n in range(3)], seed=3, start=True)
    address = game.seats[actor].email
    naming.choose_name(address, "Ann the Bold")
    table = forming.find_table(address, read_wish({}, language="en")).table
    # A challenge the acting player received (games.challenges), to answer.
    challenger = game.seats[(actor + 1) % 3].email
    naming.choose_name(challenger, "Bo the Brave")
    challenge = create_challenge(challenger, read_terms({"to": "Ann the Bold"},
                                                         language="en"))
    cup = event()  # a tournament open for sign-up (games.tournaments)
    device = add_device(address, Subscription("https://8.8.8.8/push/fuzz", "BAAA", "AAAA"),
                        name="Phone", kinds=["turn"], user_agent="")
    return Site({"secret": [game.tokens[actor], game.tokens[(actor + 1) % 3],
                            token_of(invited.seats[0][1])],
                 "token": [token_of(home_link(address))],
                 "table_id": [str(table)], "event_id": [str(cup.pk)],
                 "challenge_id": [str(challenge.pk)],
                 "device_id": [str(device.pk)], "name": ["Ann the Bold", "Nobody"]},
                rows())


def rows() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the games app, as the database holds it (read with
    plain SQL: the ORM's conversions took two thirds of the test's time)."""
    found = {}
    with connection.cursor() as cursor:
        for model in apps.get_app_config("games").get_models():
            table, key = (connection.ops.quote_name(name)
                          for name in (model._meta.db_table, model._meta.pk.column))
            cursor.execute(f"SELECT * FROM {table} ORDER BY {key}")  # noqa: S608 (model names)
            found[model._meta.db_table] = cursor.fetchall()
    return found


@contextmanager
def rolled_back() -> Iterator[None]:
    """The block's writes undone, its counters and caches forgotten: every example starts
    from the same rows."""
    cache.clear()
    log_cache.clear()
    log_json.clear()
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
MOVE_KEYS = ["type", "card", "x", "y", "rotated", "target", "tool", "goal"]
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(MOVE_KEYS) | st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
containers = st.lists(json_values, min_size=1, max_size=3) | st.dictionaries(
    st.text(max_size=8), json_values, min_size=1, max_size=3)
# What each field an endpoint reads looks like when it is right, so that a body gets past
# the checks of its other fields to the one that is wrong.
RIGHT: dict[str, st.SearchStrategy[Any]] = {
    "version": st.integers(0, 2),
    "move": st.sampled_from([{"type": "pass", "card": "p11"},
                             {"type": "place", "card": "p07", "x": 1, "y": 0, "rotated": False}]),
    "action": st.sampled_from(["propose", "agree", "end"]),
    "days": st.integers(1, 14),
    "reason": st.just("Easter trip"),
    "name": st.sampled_from(["Bob the Brave", "Cy"]),
    "table": st.integers(1, 3),
    "ruleset": st.sampled_from(["base", "saboteur2"]),
    "players": st.sampled_from([3, 4, "3-5", {"min": 3, "max": 5}]),
    "hours_per_move": st.sampled_from([1, 24, 336]),
    "language": st.sampled_from(["en", "it", "nl", "es", "de"]),
    "rated": st.booleans(),
    "bots_fill": st.booleans(),
    "kinds": st.sampled_from([["turn"], ["turn", "talk"]]),
}
# A body of known fields: each right or absent but one, which is wrong (mostly a list or an
# object where a value belongs); or each field right, wrong or absent; and odd keys.
wrong = containers | scalars
one_wrong = st.builds(lambda right, field, value: {**right, field: value},
                      st.fixed_dictionaries({}, optional=RIGHT), st.sampled_from(list(RIGHT)),
                      wrong)
any_wrong = st.fixed_dictionaries({}, optional={field: right | wrong
                                                for field, right in RIGHT.items()})
objects = st.builds(lambda known, other: {**other, **known}, one_wrong | any_wrong,
                    st.dictionaries(st.text(max_size=8), json_values, max_size=2))
bodies = st.one_of(
    objects.map(json.dumps),                                         # known fields, any type
    json_values.map(json.dumps),                                     # any top-level value
    st.just(""),                                                     # no body at all
    st.binary(max_size=40),                                          # not JSON, not UTF-8
    st.sampled_from([b'{"name": "\xff"}', b'{"language": "\xc3"}', b"\xef\xbb\xbf{}"]),
)


def test_the_fuzz_finds_the_api_routes_in_the_urlconf() -> None:
    names = {name for name, _parameters in api_routes()}
    assert {"games:api-seat", "games:api-moves", "games:api-me-tables",
            "games:api-me-table-leave", "games:api-tables"} <= names
    assert not any(name in names for name in ("games:seat", "games:me-home", "games:home"))


@pytest.mark.parametrize(("route", "parameters"), api_routes(), ids=lambda v: str(v))
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(which=st.integers(min_value=0, max_value=99), body=bodies)
@example(which=0, body="")
@example(which=0, body='{"language": ["en"]}')
@example(which=0, body='{"players": 3, "language": {"en": true}}')
def test_no_post_to_the_api_is_a_5xx_and_a_refusal_changes_nothing(
        client: Client, site: Site, route: str, parameters: list[str], which: int,
        body: str | bytes) -> None:
    urls = site.urls(route, parameters)
    url = urls[which % len(urls)]  # each valid link the route takes (a seat's, a home's)
    with rolled_back():
        answer = client.post(url, data=body, content_type="application/json")
        assert answer.status_code < 500, (url, body, answer.content[:300])
        if answer.status_code >= 400:
            assert answer.json()["error"]["code"], answer.content[:300]
            assert rows() == site.rows, (url, body, answer.status_code)
