"""Crafted input is a clear 4xx in the endpoint's own format, never a 500, and changes
nothing: deep JSON, NUL and control characters, huge bodies, wrong methods, odd names;
and a hypothesis fuzz over the API, the seat forms and /new/."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.game.core.game import Game
from games.kit import jsonsafe, time_zones
from games.mail.core.notifications import Notification
from games.moves.services import seat_services as services
from games.setup.services import game_setup
from saboteur_site.log_redaction import RedactSecretsFilter
from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db
DEEP = "[" * 1000 + "]" * 1000


def error_code(response: Any) -> str:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return str(response.json()["error"]["code"])


def test_api_errors_are_json_whatever_went_wrong(client: Client, game: GameWithLinks) -> None:
    moves = game.api(0) + "moves"
    deep = client.post(moves, data=f'{{"version": 0, "move": {DEEP}}}',
                       content_type="application/json")
    assert deep.status_code == 400 and error_code(deep) == "bad_json"
    huge = client.post(moves, data='{"version": 0, "move": {"type": "' + "x" * 3_000_000 + '"}}',
                       content_type="application/json")
    assert huge.status_code == 413 and error_code(huge) == "too_large"
    wrong_method = client.post(game.api(0), data="{}", content_type="application/json")
    assert wrong_method.status_code == 405 and error_code(wrong_method) == "method_not_allowed"
    assert "GET" in wrong_method["Allow"]
    get_moves = client.get(moves)
    assert get_moves.status_code == 405 and error_code(get_moves) == "method_not_allowed"
    assert client.head(game.api(0)).status_code == 200
    nul = client.post(moves, data='{"version": 0, "move": {"type": "pass\\u0000"}}',
                      content_type="application/json")
    assert nul.status_code == 400 and error_code(nul)
    unknown = client.get("/api/nothing/here/")
    assert unknown.status_code == 404 and error_code(unknown) == "not_found"
    assert game.refresh().version == 0


@pytest.mark.parametrize("raw", [
    "[" * 33 + "]" * 33,                       # past MAX_DEPTH (ours)
    '{"a": ' * 33 + "1" + "}" * 33,
    "[" * 2000 + "]" * 2000,                   # past orjson's own 1024
    '"\\ud800"', '{"\\udc00": 1}', '["\\ud83d x"]',  # lone surrogates, value or key
    '"a\x00b"', "[1,\x002]",                   # a raw NUL, in a string or between values
    b'"\xff"', b'{"a": "\xc3"}',               # not UTF-8
    "NaN", '{"a": Infinity}', "1e400", "{not json",
])
def test_jsonsafe_refuses_what_is_no_json_text_or_nests_too_deep(raw: str | bytes) -> None:
    with pytest.raises(ValueError):  # noqa: PT011  (any ValueError: what the callers catch)
        jsonsafe.loads(raw)


def test_jsonsafe_reads_json_text_up_to_its_depth() -> None:
    nested: list[Any] = []
    for _ in range(31):
        nested = [nested]
    assert jsonsafe.loads("[" * 32 + "]" * 32) == nested
    assert jsonsafe.loads('{"a": "\\ud83d\\ude00\\u0000", "b": [1, {"c": null}]}') == {
        "a": "\U0001f600\x00", "b": [1, {"c": None}]}
    assert jsonsafe.loads(b'{"v": "\xc3\xa9"}') == {"v": "\u00e9"}


def test_the_html_move_form_refuses_deep_json(client: Client, game: GameWithLinks) -> None:
    answer = client.post(game.page(0) + "move", {"version": 0, "move": DEEP})
    assert answer.status_code == 400 and "could not be read" in answer.content.decode()
    assert game.refresh().version == 0


@pytest.mark.parametrize("path", ["/watch/%00/", "/play/%00/", "/play/ab%00cd/move",
                                  "/api/play/%00/", "/admin/games/game/?q=%00",
                                  "/?x=%01"])
def test_nul_and_control_bytes_are_a_4xx(client: Client, path: str) -> None:
    assert client.get(path).status_code in (400, 404)


def test_a_nul_in_a_form_field_is_a_400(client: Client, game: GameWithLinks) -> None:
    answer = client.post(game.page(0) + "say", {"text": "hello\x00world"})
    assert answer.status_code == 400
    assert not game.game.messages.exists()


def setup_data(**change: str) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "G", "ruleset": "base", "hours_per_move": 24,
                            "seating": "order", "start": "accepted", "time_zone": "UTC",
                            "language": "en", "host_email": "host@example.org"}
    for i, name in enumerate(["Ann", "Bob", "Cy"]):
        data[f"player_{i}_name"] = name
        data[f"player_{i}_email"] = f"{name.lower()}@example.com"
    data.update(change)
    return data


@pytest.mark.parametrize(("change", "fragment"), [
    ({"name": "Evil\r\nBcc: all@example.com"}, "visible letters"),
    ({"player_1_name": "\u200b\u200b"}, "visible letters"),
    ({"player_1_name": "Bob\u202eevil"}, "visible letters"),
    ({"player_1_name": "Bob\nSmith"}, "visible letters"),
    ({"player_12_name": "Thirteen", "player_12_email": "t@example.com"}, "at most 12 players"),
])
def test_setup_refuses_names_that_would_break_emails_or_hide(client: Client, change: dict[str, str],
                                                            fragment: str) -> None:
    answer = client.post("/new/", setup_data(**change))
    assert answer.status_code == 400 and fragment in answer.content.decode()
    assert not Game.objects.exists() and not Notification.objects.exists()


def test_services_and_commands_refuse_a_header_breaking_game_name() -> None:
    with pytest.raises(services.SetupError):
        game_setup.create_game(name="Bad\r\nSubject: x", players=[
            game_setup.PlayerSpec(name=n, email=f"{n}@x.org") for n in ("a", "b", "c")])
    with pytest.raises(CommandError):
        call_command("creategame", "--name", "Bad\nname", "--player", "A <a@x.org>",
                     "--player", "B <b@x.org>", "--player", "C <c@x.org>", stdout=io.StringIO())
    assert not Game.objects.exists()


# ---- no token in any log line, whatever the error ---------------------------------------


@pytest.fixture
def console_output() -> Iterator[io.StringIO]:
    handlers = [h for h in logging.getLogger().handlers
                if isinstance(h, logging.StreamHandler)
                and any(isinstance(f, RedactSecretsFilter) for f in h.filters)]
    assert handlers
    buffer = io.StringIO()
    previous = [h.setStream(buffer) for h in handlers]
    yield buffer
    for handler, stream in zip(handlers, previous, strict=True):
        handler.setStream(stream)


def test_no_log_line_of_any_4xx_or_5xx_holds_a_seat_token(
        client: Client, game: GameWithLinks, console_output: io.StringIO,
        monkeypatch: pytest.MonkeyPatch) -> None:
    token, page, api = game.tokens[1], game.page(1), game.api(1)
    moves = api + "moves"
    client.post(moves, data="not json", content_type="application/json")            # 400
    client.post(moves, data=json.dumps({"version": 7, "move": {"type": "pass"}}),
                content_type="application/json")                                  # 409
    client.post(moves, data=json.dumps({"version": 0, "move": {"type": "pass",
                "card": "p01"}}), content_type="application/json")                 # 422
    client.get(moves)                                                             # 405
    client.post(moves, data="x" * 20_000, content_type="application/json")          # 413
    client.post(page + "move", {"version": 0, "move": DEEP})                        # 400
    client.get(page + "nothing")                                                  # 404
    client.get(f"/play/{token}x/")                                                # 404
    client.post(page + "rotate")                                                  # 302 + new
    client.get(page)                                                              # 404 now
    monkeypatch.setattr("games.play.doors.api._payload", lambda *a: 1 / 0)
    raising = Client(raise_request_exception=False)
    assert raising.get(game.api(2)).status_code == 500                            # 500
    text = console_output.getvalue()
    assert "Internal Server Error" in text or "500" in text
    for secret in game.tokens:
        assert secret not in text


# ---- fuzz: nothing a client sends gives a 5xx or changes the game -------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=20)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=200), json_values.map(json.dumps),
                      st.builds(lambda m: json.dumps({"version": 0, "move": m}), json_values)))
def test_fuzz_the_api_move_endpoint(client: Client, game: GameWithLinks, body: Any) -> None:
    before = game.refresh().snapshot
    answer = client.post(game.api(1) + "moves", data=body, content_type="application/json")
    assert answer.status_code < 500 and error_code(answer)
    assert game.refresh().snapshot == before


# Every POST of a home's JSON API (docs/api.md), with ids that name nothing yet.
HOME_API_POSTS = ["tables", "tables/1/leave", "name", "tournaments", "tournaments/1/join",
                  "tournaments/1/leave", "tournaments/1/cancel", "tournaments/1/edit",
                  "challenges", "challenges/settings", "challenges/1/accept",
                  "challenges/1/refuse", "challenges/1/withdraw", "blocks/Someone/unblock",
                  "blocks/Someone", "devices", "devices/1", "devices/1/remove"]
home_fields = st.sampled_from(["name", "to", "seats", "ruleset", "language", "rated", "clock",
                               "hours_per_move", "bank_hours", "increment_hours", "anonymous",
                               "table_size", "rounds", "cap", "endpoint", "keys", "kinds",
                               "listed", "bots", "pace", "accept"])


@pytest.mark.parametrize("path", HOME_API_POSTS)
@settings(max_examples=20, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.one_of(st.binary(max_size=60), json_values.map(json.dumps),
                      st.dictionaries(home_fields, json_values, max_size=6).map(json.dumps)))
def test_fuzz_the_homes_json_api(client: Client, game: GameWithLinks, path: str,
                                 body: Any, settings: Any) -> None:
    """Whatever a script sends a home's JSON API, the answer is JSON and no 500."""
    settings.RATE_LIMITS = {}  # the limits are tested on their own; here, the answers
    answer = client.post(f"/api/me/{home_token()}/{path}", data=body,
                         content_type="application/json")
    assert answer.status_code < 500 and answer["Content-Type"] == "application/json"


def home_token() -> str:
    from tests.support import new_home_url

    return new_home_url("p0@example.com").rstrip("/").rsplit("/", 1)[1]


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(
    st.sampled_from(["version", "move", "text", "cards", "remove", "time_zone", "language",
                     "move_number", "share_with_table", "hours"]),
    st.text(max_size=40), max_size=5),
       action=st.sampled_from(["move", "say", "preferences", "dispute", "vacation", "emails",
                               "accept"]))
def test_fuzz_the_seat_forms(client: Client, game: GameWithLinks, fields: dict[str, str],
                             action: str) -> None:
    version = game.refresh().version
    answer = client.post(game.page(1) + action, fields)
    assert answer.status_code < 500
    assert game.refresh().version == version  # seat 1 is not to act: no move can happen


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(fields=st.dictionaries(st.sampled_from([*list(setup_data()), "player_12_name", "bots"]),
                              st.text(max_size=30), max_size=8))
def test_fuzz_the_setup_page(client: Client, fields: dict[str, str]) -> None:
    answer = client.post("/new/", {**setup_data(), **fields})
    assert answer.status_code < 500
    assert not Notification.objects.filter(kind=Notification.Kind.INVITATION).exists()


# ---- what an attacker's probe of a production gunicorn tries ------------------------------


def test_a_multipart_post_to_the_api_is_a_json_400_not_a_500(game: GameWithLinks) -> None:
    client = Client(raise_request_exception=False)
    body = b'--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n{}\r\n--x--\r\n'
    answer = client.post(game.api(0) + "moves", data=body,
                         content_type="multipart/form-data; boundary=x")
    assert answer.status_code == 400 and error_code(answer) == "bad_json"
    assert game.refresh().version == 0


@pytest.mark.parametrize("method", ["post", "delete", "put"])
def test_other_methods_on_read_only_api_addresses_are_a_json_405_with_csrf_on(
        game: GameWithLinks, method: str) -> None:
    client = Client(enforce_csrf_checks=True)  # as a real client: no CSRF token
    for address in (game.api(0), game.api(0) + "record", "/api/play/" + "x" * 43 + "/"):
        answer = getattr(client, method)(address)
        assert answer.status_code == 405 and error_code(answer) == "method_not_allowed"
        assert "GET" in answer["Allow"]


@pytest.mark.parametrize("path", ["/anymail/postmark/tracking/", "/anymail/mailgun/tracking/",
                                  "/anymail/sendgrid/inbound/"])
def test_provider_webhooks_answer_bad_posts_with_a_4xx(path: str) -> None:
    client = Client(raise_request_exception=False)
    for body in (b"", b"{not json"):
        answer = client.post(path, data=body, content_type="application/json")
        assert 400 <= answer.status_code < 500, (path, body, answer.status_code)
    # A well-formed but unsigned report is taken and ignored (games.mail.services.tracking).
    forged = client.post(path, data=b'{"RecordType": "Bounce", "MessageID": "x"}',
                         content_type="application/json")
    assert forged.status_code < 500
    assert not Notification.objects.exists()


@pytest.mark.parametrize("blank", ["\u3164", "\u115f\u1160", "\u2800", "\uffa0 \u3164"])
def test_blank_looking_letters_alone_are_not_a_name(client: Client, blank: str) -> None:
    answer = client.post("/new/", setup_data(player_1_name=blank))
    assert answer.status_code == 400 and "visible letters" in answer.content.decode()
    assert not Game.objects.exists()
    assert time_zones.valid_time_zone("UTC")  # the page still works for a real name
    assert client.post("/new/", setup_data(player_1_name="Ann \u3164")).status_code != 500
