"""Disputes: filed from the seat page, seen by the table as open (text only if shared),
emailed to the moderators, resolved with an email to the filer and a neutral log line."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client

from games.game.core.game import EmailMode, Game
from games.game.core.talk_and_notices import GameNotice
from games.mail.core.notifications import Notification
from games.moderation import services as moderation
from games.moderation.core.moderation_rows import Dispute
from games.moderation.services import dispute_mail as moderation_mail
from games.seats.core.seat import Seat
from tests.moderation_support import make_moderator, play
from tests.support import GameWithLinks, assert_no_card_ids, other_hands

pytestmark = pytest.mark.django_db

PRIVATE = "Player0 played my card by mistake"


def dispute_emails() -> list[Any]:
    """The dispute emails in the outbox (turn emails may be there too)."""
    return [m for m in mail.outbox if "dispute" in m.subject.lower()]
SHARED = "The page showed the wrong deadline"


@pytest.fixture
def mod(db: None) -> User:
    return make_moderator()


@pytest.fixture
def played(game: GameWithLinks) -> GameWithLinks:
    play(game, random.Random(9), moves=5)
    return game


def file(client: Client, g: GameWithLinks, seat: int, **data: Any) -> Any:
    return client.post(g.page(seat) + "dispute", data)


def test_filing_a_private_dispute(client: Client, played: GameWithLinks, mod: User,
                                  commit: Any) -> None:
    with commit():
        response = file(client, played, 1, text=PRIVATE, move_number=4)
    assert response.status_code == 302 and response["Location"].endswith("#disputes")
    dispute = Dispute.objects.get()
    assert (dispute.seat_id, dispute.move_number, dispute.share_with_table) == (
        played.seats[1].pk, 4, False)
    # the moderators are emailed, once each, through a Notification row
    [email] = dispute_emails()
    assert email.to == [mod.email] and PRIVATE in email.body
    assert f"/admin/games/game/{played.game.pk}/moderate/" in email.body
    note = Notification.objects.get(kind=Notification.Kind.DISPUTE_FILED)
    assert note.status == Notification.Status.SENT and note.to_email == mod.email
    # the table sees that a dispute is open, never its private text; the filer sees it
    for seat in range(3):
        body = client.get(played.page(seat)).content.decode()
        assert "Player1 filed a dispute about move 4" in body
        assert (PRIVATE in body) == (seat == 1), seat
    notice = GameNotice.objects.get(kind=GameNotice.Kind.DISPUTE)
    assert "text" not in notice.params


def test_a_shared_dispute_shows_its_text_to_the_table(client: Client,
                                                      played: GameWithLinks) -> None:
    file(client, played, 2, text=SHARED, share_with_table="on")
    for seat in range(3):
        assert SHARED in client.get(played.page(seat)).content.decode()
    # not to spectators: the table's log line never carries the text
    Game.objects.filter(pk=played.game.pk).update(spectators_allowed=True)
    watch = client.get(f"/watch/{played.game.public_id}/").content.decode()
    assert "Player2 filed a dispute" in watch and SHARED not in watch


@pytest.mark.parametrize(("data", "message"), [
    ({"text": "  "}, "Say what is wrong"),
    ({"text": "x", "move_number": 99}, "There is no move 99"),
    ({"text": "x", "move_number": 0}, ""),
])
def test_a_refused_dispute_keeps_the_form(client: Client, played: GameWithLinks,
                                          data: dict[str, Any], message: str) -> None:
    response = file(client, played, 0, **data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Dispute.objects.exists()


def test_at_most_three_open_disputes_per_seat(client: Client, played: GameWithLinks) -> None:
    for n in range(3):
        assert file(client, played, 0, text=f"complaint {n}").status_code == 302
    response = file(client, played, 0, text="one more")
    assert response.status_code == 400 and "open disputes" in response.content.decode()
    assert file(client, played, 1, text="mine").status_code == 302


def test_no_disputes_in_a_cancelled_game_or_by_a_dead_link(client: Client,
                                                           played: GameWithLinks,
                                                           mod: User) -> None:
    moderation.cancel(played.game.pk, moderator=mod, reason="x")
    assert file(client, played, 0, text="x").status_code == 400
    assert "File a dispute" not in client.get(played.page(0)).content.decode()
    assert client.post("/play/" + "x" * 43 + "/dispute", {"text": "x"}).status_code == 404
    assert client.get(played.page(0) + "dispute").status_code == 405


def test_resolving_emails_the_filer_and_tells_the_table(client: Client, played: GameWithLinks,
                                                        mod: User,
                                                        commit: Any
                                                        ) -> None:
    dispute = moderation.file_dispute(played.seats[1].pk, text=PRIVATE, move_number=4)
    mail.outbox.clear()
    with commit():
        moderation.undo_to(played.game.pk, 3, expected_version=5, moderator=mod,
                           reason="Player1's misclick, agreed by all",
                           public_note="card played by mistake")
        moderation.resolve_dispute(dispute.pk, moderator=mod, outcome="upheld",
                                   note="Undone: moves 4 and 5.", public_note="put right")
    [email] = dispute_emails()
    assert email.to == ["p1@example.com"]
    assert "Undone: moves 4 and 5." in email.body and "upheld" in email.body
    html = email.alternatives[0][0]  # type: ignore[attr-defined]
    assert "Undone: moves 4 and 5." in html
    for seat in range(3):
        body = client.get(played.page(seat)).content.decode()
        assert "A moderator undid moves 4–5: card played by mistake." in body
        assert "A moderator resolved the dispute of Player1 (upheld" in body
        assert "misclick, agreed" not in body  # the private reason stays private
        assert ("Undone: moves 4 and 5." in body) == (seat == 1)  # the note: the filer's
    with pytest.raises(moderation.ModerationError):
        moderation.resolve_dispute(dispute.pk, moderator=mod, outcome="upheld", note="again")
    assert Notification.objects.filter(kind=Notification.Kind.DISPUTE_RESOLVED).count() == 1


def test_dispute_emails_carry_no_hidden_facts(played: GameWithLinks, mod: User,
                                              commit: Any) -> None:
    game = played.refresh()
    state = game.state()
    with commit():
        dispute = moderation.file_dispute(played.seats[2].pk, text="help", move_number=2)
        moderation.resolve_dispute(dispute.pk, moderator=mod, outcome="settled",
                                   note="Talked it over.")
    assert len(dispute_emails()) == 2
    for email in dispute_emails():
        bodies = email.subject + email.body + email.alternatives[0][0]  # type: ignore[attr-defined]
        assert_no_card_ids(bodies, other_hands(state, 2) | set(state.deck), "dispute email")
        assert "saboteur" not in bodies.lower() and "gold-digger" not in bodies.lower()
        assert played.tokens[0] not in bodies and played.tokens[1] not in bodies


def test_an_email_is_sent_once_per_key(played: GameWithLinks, mod: User,
                                       commit: Any) -> None:
    with commit() as callbacks:
        dispute = moderation.file_dispute(played.seats[0].pk, text="x")
    assert len(dispute_emails()) == 1
    for callback in callbacks:  # a retried on-commit hook sends nothing more
        callback()
    assert moderation_mail.dispute_filed(dispute) == []
    assert len(dispute_emails()) == 1


def test_a_failing_provider_is_recorded(played: GameWithLinks, mod: User,
                                        commit: Any,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> int:
        raise OSError("provider down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
    with commit():
        moderation.file_dispute(played.seats[0].pk, text="x")
    note = Notification.objects.get(kind=Notification.Kind.DISPUTE_FILED)
    assert note.status in (Notification.Status.RETRYING, Notification.Status.FAILED)
    assert "provider down" in note.last_error


def test_links_only_players_get_no_email(played: GameWithLinks, mod: User,
                                        commit: Any) -> None:
    Seat.objects.filter(pk=played.seats[0].pk).update(email_mode=EmailMode.LINKS_ONLY)
    dispute = moderation.file_dispute(played.seats[0].pk, text="x")
    with commit():
        moderation.resolve_dispute(dispute.pk, moderator=mod, outcome="settled", note="ok")
    assert not [m for m in dispute_emails() if m.to == ["p0@example.com"]]


def test_moderators_without_email_or_outside_the_group_get_nothing(
        played: GameWithLinks, commit: Any) -> None:
    User.objects.create_user("other", "staff@example.com", "x", is_staff=True)
    make_moderator("quiet", "")
    with commit():
        moderation.file_dispute(played.seats[0].pk, text="anyone?")
    assert dispute_emails() == [] and Dispute.objects.get().status == Dispute.Status.OPEN
    assert played.refresh().status == Game.Status.ACTIVE
