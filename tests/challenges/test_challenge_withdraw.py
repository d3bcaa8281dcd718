"""Withdrawing a challenge: by its challenger on the home's form and through the API
(404 for another's as for none, 409 once it no longer waits, 405, 429), the players
challenged told by email only when its email had reached them, no accepting it after,
the new status through both homes, the export and "forget me"; and the admin's lists of
challenges and blocks, whose one action withdraws waiting challenges for a moderator
after asking for a reason (kept in the admin's log, never in the players' email)."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from games.challenges.core.challenge_rows import Challenge, ChallengeBlock, Challenged
from games.challenges.core.challenge_terms import ChallengeError, read_terms
from games.challenges.services import challenge_blocks, challenging
from games.home.services.export import export_player_data
from games.home.services.forget import forget_player
from games.mail.core.notifications import Notification
from games.mail.services.send import deliver
from games.people.core.home_links import home_link
from games.setup.core.player_defaults import remember_preferences
from games.tables.services import naming
from tests.challenges.test_challenge_doors import post
from tests.challenges.test_challenges import letters_to
from tests.moderation_support import logged_in, make_moderator, make_staff
from tests.support import token_of

pytestmark = pytest.mark.django_db
ANN, BOB, CY = "ann.secret@example.org", "bob.hidden@example.org", "cy.private@example.org"
WITHDRAWN_LINE = "The challenge from Ann was withdrawn"


@pytest.fixture
def tokens() -> dict[str, str]:
    """Three homes, each with a public name: their tokens by name."""
    found = {}
    for address, name in ((ANN, "Ann"), (BOB, "Bob"), (CY, "Cy")):
        found[name] = token_of(home_link(address))
        naming.choose_name(address, name)
    return found


def challenge(*names: str) -> Challenge:
    return challenging.create_challenge(ANN, read_terms({"to": list(names)}, language="en"))


def withdrawal_letters(address: str) -> list[str]:
    return [text for text in letters_to(address) if WITHDRAWN_LINE in text]


# ---- the home's form ----------------------------------------------------------------------


def test_the_challenger_withdraws_on_the_home_and_both_homes_say_withdrawn(
        client: Client, tokens: dict[str, str], commit: Any) -> None:
    ann, bob = tokens["Ann"], tokens["Bob"]
    with commit():
        made = challenge("Bob")
    page = client.get(f"/me/{ann}/").content.decode()
    assert re.search(rf'action="/me/{ann}/challenges/withdraw".*?'
                     rf'name="challenge" value="{made.pk}"', page, re.S)
    assert "Withdraw this challenge" in page
    # The challenged has nothing to withdraw: no such form on his home.
    assert "challenges/withdraw" not in client.get(f"/me/{bob}/").content.decode()
    with commit():
        done = client.post(f"/me/{ann}/challenges/withdraw", {"challenge": str(made.pk)})
    assert done.status_code == 302 and done["Location"].endswith("#challenges")
    made.refresh_from_db()
    assert made.status == Challenge.Status.WITHDRAWN and made.ended_at is not None
    for token in (ann, bob):
        home = client.get(f"/me/{token}/").content.decode()
        assert "Withdrawn." in home
    assert "Withdraw this challenge" not in client.get(f"/me/{ann}/").content.decode()
    # Bob can no longer accept it: the home's form answers 409 with the reason.
    late = client.post(f"/me/{bob}/challenges/answer",
                       {"challenge": str(made.pk), "action": "accept"})
    assert late.status_code == 409 and ("This challenge is over: it was accepted, refused, "
                                        "withdrawn or has expired.") in late.content.decode()
    made.refresh_from_db()
    assert made.status == Challenge.Status.WITHDRAWN and made.table is None


def test_the_form_refuses_what_is_not_the_challengers_own(
        client: Client, tokens: dict[str, str], commit: Any) -> None:
    with commit():
        made = challenge("Bob")
    # The challenged, an unknown id, a word: 404, and nothing changes.
    for token, value in ((tokens["Bob"], str(made.pk)), (tokens["Ann"], "999"),
                         (tokens["Ann"], "x")):
        refused = client.post(f"/me/{token}/challenges/withdraw", {"challenge": value})
        assert refused.status_code == 404
        assert "You have no such challenge." in refused.content.decode()
    assert client.get(f"/me/{tokens['Ann']}/challenges/withdraw").status_code == 405
    made.refresh_from_db()
    assert made.status == Challenge.Status.OPEN


# ---- the API ------------------------------------------------------------------------------


def test_the_api_withdraws_and_answers_the_challenge(
        client: Client, tokens: dict[str, str], commit: Any) -> None:
    ann, bob = tokens["Ann"], tokens["Bob"]
    with commit():
        made = post(client, f"/api/me/{ann}/challenges", {"to": ["Bob", "Cy"]}).json()
    url = f"/api/me/{ann}/challenges/{made['id']}/withdraw"
    assert client.get(url).status_code == 405
    assert client.put(url).status_code == 405
    with commit():
        done = post(client, url)
    assert done.status_code == 200
    shown = done.json()
    assert shown["id"] == made["id"] and shown["status"] == "withdrawn"
    assert [p["name"] for p in shown["players"]] == ["Bob", "Cy"]
    assert BOB not in done.content.decode() and CY not in done.content.decode()
    # Twice: no longer waiting.
    again = post(client, url)
    assert again.status_code == 409 and again.json()["error"]["code"] == "challenge_over"
    # Accepting it now is 409 too; the lists say withdrawn on both sides.
    late = post(client, f"/api/me/{bob}/challenges/{made['id']}/accept")
    assert late.status_code == 409 and late.json()["error"]["code"] == "challenge_over"
    assert client.get(f"/api/me/{ann}/challenges").json()["sent"][0]["status"] == "withdrawn"
    [received] = client.get(f"/api/me/{bob}/challenges").json()["received"]
    assert received["status"] == "withdrawn" and received["your_answer"] is None


def test_another_players_challenge_is_as_unknown_as_none(
        client: Client, tokens: dict[str, str]) -> None:
    made = post(client, f"/api/me/{tokens['Ann']}/challenges", {"to": "Bob"}).json()
    by_bob = post(client, f"/api/me/{tokens['Bob']}/challenges/{made['id']}/withdraw")
    by_cy = post(client, f"/api/me/{tokens['Cy']}/challenges/{made['id']}/withdraw")
    unknown = post(client, f"/api/me/{tokens['Bob']}/challenges/99999/withdraw")
    assert by_bob.status_code == by_cy.status_code == unknown.status_code == 404
    assert by_bob.json() == by_cy.json() == unknown.json()
    assert unknown.json()["error"]["code"] == "no_challenge"
    assert post(client, "/api/me/nohome000000000000000000/challenges/1/withdraw"
                ).status_code == 404
    assert Challenge.objects.get().status == Challenge.Status.OPEN


def test_an_accepted_refused_or_expired_challenge_cannot_be_withdrawn(
        client: Client, tokens: dict[str, str], clock: Any) -> None:
    ann = tokens["Ann"]
    accepted = challenge("Bob")
    challenging.accept_challenge(BOB, accepted.pk)
    refused = challenge("Cy")
    challenging.refuse_challenge(CY, refused.pk)
    expiring = challenge("Bob")
    clock.shift(timedelta(days=7, minutes=1))  # past its days, before the beat's sweep
    for made in (accepted, refused, expiring):
        answer = post(client, f"/api/me/{ann}/challenges/{made.pk}/withdraw")
        assert answer.status_code == 409
        assert answer.json()["error"]["code"] == "challenge_over"
    assert [c.status for c in Challenge.objects.order_by("pk")] == [
        "accepted", "refused", "open"]


@override_settings(RATE_LIMITS={"tables_home": [2, 3600]})
def test_withdrawing_is_limited_like_the_other_answers(
        client: Client, tokens: dict[str, str]) -> None:
    made = challenge("Bob")
    url = f"/api/me/{tokens['Ann']}/challenges/{made.pk}/withdraw"
    post(client, f"/api/me/{tokens['Ann']}/challenges/99999/withdraw")
    post(client, f"/api/me/{tokens['Ann']}/challenges/99998/withdraw")
    busy = post(client, url)
    assert busy.status_code == 429 and int(busy["Retry-After"]) > 0
    made.refresh_from_db()
    assert made.status == Challenge.Status.OPEN


# ---- the letters --------------------------------------------------------------------------


def test_only_the_players_who_had_the_challenge_hear_it_was_withdrawn(
        tokens: dict[str, str], commit: Any) -> None:
    remember_preferences(CY, "it", "Europe/Rome")
    with commit():
        made = challenge("Bob", "Cy")
    assert len(letters_to(BOB)) == len(letters_to(CY)) == 1
    # Cy's email failed: he never heard of the challenge.
    Notification.objects.filter(kind=Notification.Kind.CHALLENGE, to_email=CY).update(
        status=Notification.Status.FAILED)
    mail.outbox.clear()
    with commit():
        challenging.withdraw_challenge(made.pk, challenger=ANN)
    [letter] = [m for m in mail.outbox if m.to == [BOB]]
    assert letter.subject == "A challenge to you was withdrawn"
    text = str(letter.body)
    assert WITHDRAWN_LINE in text and "nothing to answer" in text
    assert home_link(BOB) in text and ANN not in text and "ann.secret" not in text
    assert not letters_to(CY) and not letters_to(ANN)  # the challenger hears nothing


def test_a_challenge_withdrawn_before_its_email_went_is_never_told(
        tokens: dict[str, str], commit: Any) -> None:
    made = challenge("Bob")  # not committed: its email is still waiting to go
    waiting = Notification.objects.get(kind=Notification.Kind.CHALLENGE)
    assert waiting.status == Notification.Status.PENDING
    with commit():
        challenging.withdraw_challenge(made.pk, challenger=ANN)
    assert not Notification.objects.filter(kind=Notification.Kind.CHALLENGE_OFF).exists()
    deliver(waiting.pk)  # its turn comes: the challenge is over, so it is skipped
    waiting.refresh_from_db()
    assert waiting.status == Notification.Status.SKIPPED
    assert not letters_to(BOB)


def test_the_withdrawal_is_in_the_language_of_the_challenged_home(
        tokens: dict[str, str], commit: Any) -> None:
    remember_preferences(BOB, "it", "Europe/Rome")
    with commit():
        made = challenge("Bob")
        challenging.withdraw_challenge(made.pk, challenger=ANN)
    # Committed together: the challenge's email was skipped, so nothing to tell.
    assert not letters_to(BOB)
    with commit():
        made = challenge("Bob")
    with commit():
        challenging.withdraw_challenge(made.pk, challenger=ANN)
    [letter] = [m for m in mail.outbox if m.to == [BOB] and "ritirata" in str(m.subject)]
    assert letter.subject == "Una sfida che avevi ricevuto è stata ritirata"
    assert "La sfida di Ann è stata ritirata" in str(letter.body)


# ---- the export and "forget me" -----------------------------------------------------------


def test_the_export_and_forget_me_carry_the_withdrawn_status(
        tokens: dict[str, str], commit: Any) -> None:
    with commit():
        made = challenge("Bob")
        challenging.withdraw_challenge(made.pk, challenger=ANN)
    sent = export_player_data(ANN)["challenges_sent"]
    assert [(row["challenge"], row["status"]) for row in sent] == [(made.pk, "withdrawn")]
    received = export_player_data(BOB)["challenges_received"]
    assert [(row["challenge"], row["status"]) for row in received] == [
        (made.pk, "withdrawn")]
    assert BOB not in json.dumps(export_player_data(ANN))
    forget_player(BOB)  # his place in it goes; the challenger's row stays hers
    assert not Challenged.objects.exists()
    assert Challenge.objects.get().status == Challenge.Status.WITHDRAWN
    forget_player(ANN)
    assert not Challenge.objects.exists()


def test_after_a_withdrawal_the_same_player_may_be_challenged_again(
        tokens: dict[str, str]) -> None:
    made = challenge("Bob")
    with pytest.raises(ChallengeError) as twice:
        challenge("Bob")
    assert twice.value.code == "already_challenged"
    challenging.withdraw_challenge(made.pk, challenger=ANN)
    assert challenge("Bob").status == Challenge.Status.OPEN


# ---- the admin ----------------------------------------------------------------------------


def found(user: Client, changelist: str, **query: str) -> int:
    """How many challenges the admin's list shows for this query."""
    answer = user.get(changelist, query)
    assert answer.status_code == 200
    return int(answer.context["cl"].result_count)


def test_the_admin_lists_challenges_with_addresses_only_for_those_who_see_secrets(
        tokens: dict[str, str]) -> None:
    made = challenge("Bob", "Cy")
    challenge_blocks.block_name(CY, "Ann")  # Cy's block refuses the challenge too
    changelist = reverse("admin:games_challenge_changelist")
    page = reverse("admin:games_challenge_change", args=[made.pk])
    moderator = logged_in(make_moderator())
    listed = moderator.get(changelist)
    assert listed.status_code == 200
    text = listed.content.decode()
    assert "Ann" in text and ANN in text
    assert re.search(r'class="field-status">refused<', text)
    assert re.search(r'class="field-players_named">2<', text)
    opened = moderator.get(page).content.decode()
    assert "Bob" in opened and BOB in opened and CY in opened
    assert found(moderator, changelist, status__exact="open") == 0
    assert found(moderator, changelist, status__exact="refused") == 1
    assert found(moderator, changelist, q=BOB.upper()) == 1  # an address in any spelling
    assert found(moderator, changelist, q="cy") == 1  # a challenged player's name
    # Staff who may look at challenges but see no secrets: public names, no address.
    viewer = logged_in(make_staff("viewer", "view_challenge", "view_challenged"))
    assert viewer.get(changelist).status_code == 200
    for url, names in ((changelist, ["Ann"]), (page, ["Ann", "Bob", "Cy"])):
        shown = viewer.get(url).content.decode()
        assert all(name in shown for name in names)
        assert ANN not in shown and BOB not in shown and CY not in shown
    assert found(viewer, changelist, q=BOB) == 0  # nor found by one
    # Staff without the permission: not even the list.
    assert logged_in(make_staff("other")).get(changelist).status_code == 403
    blocks = moderator.get(reverse("admin:games_challengeblock_changelist"))
    assert blocks.status_code == 200
    assert re.search(r'field-blocker">Cy<', blocks.content.decode())
    block = ChallengeBlock.objects.get()
    opened_block = moderator.get(reverse("admin:games_challengeblock_change",
                                         args=[block.pk])).content.decode()
    assert "Cy" in opened_block and "Ann" in opened_block and CY not in opened_block


def test_a_moderator_withdraws_waiting_challenges_from_the_list(
        tokens: dict[str, str], commit: Any) -> None:
    with commit():
        waiting = challenge("Bob")
        answered = challenging.create_challenge(
            CY, read_terms({"to": "Bob"}, language="en"))
        challenging.refuse_challenge(BOB, answered.pk)
    changelist = reverse("admin:games_challenge_changelist")
    chosen = {"action": "withdraw", "_selected_action": [waiting.pk, answered.pk]}
    # Staff who may look but not moderate cannot withdraw.
    viewer = logged_in(make_staff("viewer", "view_challenge"))
    viewer.post(changelist, chosen)
    waiting.refresh_from_db()
    assert waiting.status == Challenge.Status.OPEN
    mail.outbox.clear()
    moderator = logged_in(make_moderator())
    # First a page asking why, naming both; nothing is withdrawn yet.
    asked = moderator.post(changelist, chosen)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Withdraw these challenges?" in text and 'name="reason"' in text
    assert f"{waiting.pk}: Ann" in text and 'name="post" value="yes"' in text
    assert 'name="csrfmiddlewaretoken"' in text
    # No reason (blank): refused with the error, nothing changes.
    with commit():
        refused = moderator.post(changelist, {**chosen, "post": "yes", "reason": "  "})
    assert refused.status_code == 400
    assert "Give a reason: it is kept with the action." in refused.content.decode()
    waiting.refresh_from_db()
    assert waiting.status == Challenge.Status.OPEN and not LogEntry.objects.exists()
    assert not mail.outbox
    with commit():
        done = moderator.post(changelist, {**chosen, "post": "yes",
                                           "reason": "Spam: twenty a day to strangers"},
                              follow=True)
    assert done.status_code == 200
    text = done.content.decode()
    assert "1 challenge withdrawn" in text and "1 challenge was no longer waiting" in text
    waiting.refresh_from_db()
    answered.refresh_from_db()
    assert waiting.status == Challenge.Status.WITHDRAWN
    assert answered.status == Challenge.Status.REFUSED
    logged = LogEntry.objects.get()
    assert logged.object_id == str(waiting.pk)
    assert "Spam: twenty a day to strangers" in logged.get_change_message()
    assert len(withdrawal_letters(BOB)) == 1 and not letters_to(ANN)
    # The players never read the moderator's reason.
    assert "Spam" not in withdrawal_letters(BOB)[0]
