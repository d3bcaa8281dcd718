"""The moderation page and its actions through the admin, as a moderator and as staff
without the permissions."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone

from games import engine
from games.game.core.game import Game, Move
from games.mail.services import follow_ups
from games.moderation import services as moderation
from games.moderation.core.moderation_rows import Dispute, ModeratorAction
from games.seats.core.links import find_seat
from games.seats.core.seat import Seat
from games.seatview.core.move_forms import move_value
from tests.moderation_support import (
    action_url,
    digger,
    log_types,
    logged_in,
    make_moderator,
    make_staff,
    page_url,
    play,
    post_action,
)
from tests.support import GameWithLinks

pytestmark = pytest.mark.django_db


@pytest.fixture
def mod(db: None) -> User:
    return make_moderator()


@pytest.fixture
def client_mod(mod: User) -> Client:
    return logged_in(mod)


@pytest.fixture
def played(game: GameWithLinks) -> GameWithLinks:
    play(game, random.Random(7), moves=6)
    return game


def kinds(game: Game) -> list[str]:
    return list(ModeratorAction.objects.filter(game=game).order_by("id")
                .values_list("kind", flat=True))


# ---- the page ------------------------------------------------------------------------------


def test_the_page_shows_the_whole_truth_and_is_recorded(client_mod: Client,
                                                        played: GameWithLinks) -> None:
    response = client_mod.get(page_url(played.game))
    assert response.status_code == 200
    body = response.content.decode()
    state = played.refresh().state()
    for hand in state.hands:
        for card in hand:
            assert f"[{card}]" in body
    assert f"[{state.deck[-1]}]" in body  # the top of the deck
    for role in {"gold-digger", "saboteur"} & set(state.roles):
        assert role in body
    assert body.count("<strong>gold</strong>") == 1  # the gold goal's place
    for move in range(1, 7):
        assert f"<td>{move}</td>" in body
    assert kinds(played.game) == ["view_secrets"]


# ---- permissions ---------------------------------------------------------------------------

ACTIONS = ["undo", "replace", "extend", "pause", "resume", "cancel", "move", "resend",
           "rotate", "verify"]


@pytest.mark.parametrize("perms", [(), ("view_game", "view_dispute", "view_move"),
                                   ("view_game", "view_secrets")])
def test_staff_without_the_permissions_are_refused_everything(
        played: GameWithLinks, perms: tuple[str, ...]) -> None:
    client = logged_in(make_staff("staff", *perms))
    before = played.refresh().snapshot
    looked = client.get(page_url(played.game))
    assert looked.status_code == (200 if "view_secrets" in perms else 403)
    assert "Put the game right" not in looked.content.decode()
    for action in ACTIONS:
        response = post_action(client, played.game, action, to_version=1,
                               expected_version=6, confirm="on", force="on", hours=5,
                               seat=played.seats[0].pk, name="X", email="x@example.com",
                               sure="on")
        assert response.status_code == 403, action
    dispute = moderation.file_dispute(played.seats[1].pk, text="help")
    response = client.post(f"/admin/games/game/{played.game.pk}/moderate/resolve/"
                           f"{dispute.pk}/", {f"resolve-{dispute.pk}-outcome": "upheld",
                                             f"resolve-{dispute.pk}-note": "x"})
    assert response.status_code == 403
    game = played.refresh()
    assert game.snapshot == before and game.status == Game.Status.ACTIVE
    assert not ModeratorAction.objects.exclude(kind="view_secrets").exists()
    assert Dispute.objects.get(pk=dispute.pk).status == Dispute.Status.OPEN


def test_anonymous_users_are_sent_to_the_login(played: GameWithLinks) -> None:
    response = Client().get(page_url(played.game))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    assert Client().post(action_url(played.game, "pause"), {}).status_code == 302


def test_staff_with_view_permissions_see_lists_but_no_secrets(played: GameWithLinks) -> None:
    client = logged_in(make_staff("viewer", "view_game", "view_move", "view_dispute",
                                  "view_seat", "view_moderatoraction"))
    game = played.refresh()
    private = moderation.file_dispute(played.seats[1].pk, text="Player0 cheated at move 3")
    shared = moderation.file_dispute(played.seats[2].pk, text="the site is slow",
                                     share_with_table=True)
    listing = client.get("/admin/games/game/").content.decode()
    assert game.name in listing and "/moderate/" not in listing
    detail = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "Seed:" not in detail and "snapshot" not in detail.lower()
    assert "/moderate/" not in detail
    hands = {c for hand in game.state().hands for c in hand}
    assert not any(f'"{card}"' in detail or f"&quot;{card}&quot;" in detail for card in hands)
    move = Move.objects.get(game=game, number=1)
    move_page = client.get(f"/admin/games/move/{move.pk}/change/").content.decode()
    assert "Made by:" in move_page and "Move:" not in move_page  # a pass's card is secret
    moderator_view = logged_in(make_moderator("m2", "m2@example.com"))
    assert "Move:" in moderator_view.get(f"/admin/games/move/{move.pk}/change/"
                                         ).content.decode()
    disputes = client.get("/admin/games/dispute/").content.decode()
    assert "cheated" not in disputes and "the site is slow" in disputes
    assert "cheated" not in client.get(f"/admin/games/dispute/{private.pk}/change/"
                                       ).content.decode()
    assert "the site is slow" in client.get(f"/admin/games/dispute/{shared.pk}/change/"
                                            ).content.decode()
    seat_page = client.get(f"/admin/games/seat/{played.seats[0].pk}/change/").content.decode()
    seat = Seat.objects.get(pk=played.seats[0].pk)
    assert seat.link_salt not in seat_page and seat.secret_hash not in seat_page
    assert client.get("/admin/games/game/?overdue=yes").status_code == 200


# ---- each action ---------------------------------------------------------------------------


def test_undo_shows_the_consequences_then_undoes(client_mod: Client,
                                                 played: GameWithLinks) -> None:
    response = post_action(client_mod, played.game, "undo", to_version=4, expected_version=6,
                           public_note="misclick")
    assert response.status_code == 200
    body = response.content.decode()
    assert "undo-plan" in body and 'name="undo-confirm"' in body
    assert played.refresh().version == 6  # nothing changed yet
    response = post_action(client_mod, played.game, "undo", to_version=4, expected_version=6,
                           public_note="misclick", confirm="on")
    assert response.status_code == 302
    game = played.refresh()
    assert game.version == 4 and game.moves.count() == 4
    assert "undo" in kinds(game)
    page = client_mod.get(page_url(game))
    assert "Undid moves 5 to 6" in page.content.decode()


def test_undo_across_a_round_end_asks_for_force(client_mod: Client,
                                                game_factory: Any) -> None:
    g = game_factory(players=3, seed=3)
    play(g, random.Random(3), bot=digger, until=lambda game: "round_end" in log_types(game))
    end = g.game.version
    plan = post_action(client_mod, g.game, "undo", to_version=end - 1, expected_version=end)
    assert plan.status_code == 200 and "crosses-round-end" in plan.content.decode()
    refused = post_action(client_mod, g.game, "undo", to_version=end - 1,
                          expected_version=end, confirm="on")
    assert refused.status_code == 400 and "force" in refused.content.decode()
    assert g.refresh().version == end
    forced = post_action(client_mod, g.game, "undo", to_version=end - 1,
                         expected_version=end, confirm="on", force="on")
    assert forced.status_code == 302 and g.refresh().version == end - 1


def test_replace_a_player(client_mod: Client, played: GameWithLinks,
                          commit: Any,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    invited: list[int] = []
    monkeypatch.setattr(follow_ups, "send_invitation", invited.append)
    with commit():
        response = post_action(client_mod, played.game, "replace", seat=played.seats[2].pk,
                               name="Newbie", email="new@example.com", public_note="hi")
    assert response.status_code == 302
    seat = Seat.objects.get(pk=played.seats[2].pk)
    assert seat.player_name == "Newbie" and find_seat(played.tokens[2]) is None
    assert invited == [seat.pk]


def test_extend_pause_resume_cancel(client_mod: Client, played: GameWithLinks) -> None:
    deadline = played.refresh().deadline_at
    assert deadline is not None
    assert post_action(client_mod, played.game, "extend", hours=30).status_code == 302
    assert played.refresh().deadline_at == deadline + timedelta(hours=30)
    capped = post_action(client_mod, played.game, "extend", hours=150)
    assert capped.status_code == 400 and "at most" in capped.content.decode()
    assert post_action(client_mod, played.game, "pause").status_code == 302
    assert played.refresh().status == Game.Status.PAUSED
    assert post_action(client_mod, played.game, "resume").status_code == 302
    assert played.refresh().status == Game.Status.ACTIVE
    assert post_action(client_mod, played.game, "cancel").status_code == 400  # not "sure"
    assert post_action(client_mod, played.game, "cancel", sure="on").status_code == 302
    assert played.refresh().status == Game.Status.CANCELLED
    # The two refused forms showed the page again: one look recorded (once an hour).
    assert kinds(played.game) == ["extend_deadline", "view_secrets", "pause", "resume",
                                  "cancel"]


def test_a_reason_is_required(client_mod: Client, played: GameWithLinks) -> None:
    response = post_action(client_mod, played.game, "pause", reason="")
    assert response.status_code == 400
    assert played.refresh().status == Game.Status.ACTIVE
    assert "pause" not in kinds(played.game)


def test_make_a_move_for_the_seat_to_act(client_mod: Client, played: GameWithLinks) -> None:
    game = played.refresh()
    page = client_mod.get(page_url(game)).content.decode()
    move = next(m for m in engine.legal_moves(game.state()) if m["type"] == "pass")
    value = move_value(move)
    assert re.search(r'value="' + re.escape(value.replace('"', "&quot;")) + '"', page)
    response = post_action(client_mod, game, "move", move=value, expected_version=6)
    assert response.status_code == 302
    row = Move.objects.get(game=game, number=7)
    assert row.actor_kind == Move.Actor.MODERATOR and row.moderator is not None
    stale = post_action(client_mod, game, "move", move=value, expected_version=6)
    assert stale.status_code == 400 and played.refresh().version == 7


def test_resend_rotate_and_verify(client_mod: Client, played: GameWithLinks,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(follow_ups, "send_invitation", lambda *a: None)
    assert post_action(client_mod, played.game, "resend").status_code == 302
    assert post_action(client_mod, played.game, "rotate",
                       seat=played.seats[0].pk).status_code == 302
    assert find_seat(played.tokens[0]) is None
    response = post_action(client_mod, played.game, "verify", reason="routine")
    assert response.status_code == 302
    assert "Integrity verified" in client_mod.get(page_url(played.game)).content.decode()
    Game.objects.filter(pk=played.game.pk).update(snapshot={**played.game.snapshot,
                                                            "hands": [[], [], []]})
    post_action(client_mod, played.game, "verify", reason="again")
    page = client_mod.get(page_url(played.game)).content.decode()
    assert "Integrity check FAILED" in page and "hands" in page
    assert {"resend_turn_email", "rotate_link", "verify"} <= set(kinds(played.game))


def test_resolve_a_dispute(client_mod: Client, played: GameWithLinks,
                           commit: Any) -> None:
    dispute = moderation.file_dispute(played.seats[1].pk, text="my map was refused",
                                      move_number=3)
    page = client_mod.get(page_url(played.game)).content.decode()
    assert "my map was refused" in page
    prefix = f"resolve-{dispute.pk}"
    url = f"/admin/games/game/{played.game.pk}/moderate/resolve/{dispute.pk}/"
    assert client_mod.post(url, {f"{prefix}-outcome": "upheld"}).status_code == 400
    mail.outbox.clear()
    with commit():
        response = client_mod.post(url, {f"{prefix}-outcome": "not_upheld",
                                         f"{prefix}-note": "The map was played twice.",
                                         f"{prefix}-public_note": "all fine"})
    assert response.status_code == 302
    dispute.refresh_from_db()
    assert dispute.status == Dispute.Status.RESOLVED and dispute.resolved_by is not None
    [email] = [m for m in mail.outbox if "dispute" in m.subject.lower()]
    assert email.to == ["p1@example.com"] and "The map was played twice." in email.body
    assert client_mod.post(url, {f"{prefix}-outcome": "upheld",
                                 f"{prefix}-note": "again"}).status_code == 400


def test_unknown_actions_and_games_are_404(client_mod: Client, played: GameWithLinks) -> None:
    assert client_mod.post(action_url(played.game, "explode"), {}).status_code == 404
    assert client_mod.get("/admin/games/game/999999/moderate/").status_code == 404
    assert client_mod.get(action_url(played.game, "pause")).status_code == 405


def test_every_list_and_detail_page_opens(client_mod: Client, played: GameWithLinks) -> None:
    moderation.file_dispute(played.seats[1].pk, text="x")
    Seat.objects.filter(pk=played.seats[0].pk).update(absent_since=timezone.now())
    for model in ("game", "seat", "move", "message", "gamenotice", "dispute", "notification",
                  "moderatoraction"):
        assert client_mod.get(f"/admin/games/{model}/").status_code == 200, model
    assert client_mod.get(f"/admin/games/game/{played.game.pk}/change/").status_code == 200
    assert client_mod.get("/admin/games/game/?q=p2@example.com").status_code == 200
    for query in ("disputed=yes", "disputed=no", "absent=yes", "absent=no", "bounced=yes",
                  "bounced=no", "waiting=1", "waiting=7", "overdue=no", "ruleset=base",
                  "q=Player2", "q=p2@example.com", "q=nobody-like-this"):
        body = client_mod.get(f"/admin/games/game/?{query}").content.decode()
        shown = f"/admin/games/game/{played.game.pk}/change/" in body
        expected = query in ("disputed=yes", "absent=yes", "bounced=no", "overdue=no",
                             "ruleset=base", "q=Player2", "q=p2@example.com")
        assert shown == expected, query
    for query in ("kind=undo", "is_absent=yes", "outcome=upheld"):
        model = {"kind": "moderatoraction", "is_absent": "seat", "outcome": "dispute"}[
            query.split("=")[0]]
        assert client_mod.get(f"/admin/games/{model}/?{query}").status_code == 200


@pytest.mark.parametrize("status", ["setup", "finished", "cancelled", "paused"])
def test_the_page_opens_in_every_status(client_mod: Client, game_factory: Any,
                                        status: str) -> None:
    g = game_factory(players=3, seed=3, start=status != "setup")
    if status == "finished":
        play(g, random.Random(3), bot=digger)
    elif status in ("cancelled", "paused"):
        Game.objects.filter(pk=g.game.pk).update(status=status)
    assert g.refresh().status == status
    response = client_mod.get(page_url(g.game))
    assert response.status_code == 200
    assert ("No move can be made now." in response.content.decode()) == (status != "active")
    verified = post_action(client_mod, g.game, "verify")
    assert verified.status_code == 302
    assert ModeratorAction.objects.get(game=g.game, kind="verify").details["ok"] is True
