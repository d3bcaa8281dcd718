"""The challenges' letters (games.challenges.services.challenging):

- challenge: to a player challenged: who challenges them (their public name), the terms,
  and their own home, where they accept, refuse or block. Params {"challenge": id,
  "language"}. Skipped once the challenge is over or they have answered.
- challenge_answer: to the challenger: refused (by whom), accepted with the table
  waiting for more players, or expired. Params {"challenge": id, "outcome", "name": the
  refusing player's public name, "language"}.
- challenge_off: to a player challenged whose challenge email went out: the challenge
  was withdrawn (by its challenger, or by a moderator: the letter does not say which),
  so there is nothing to answer. Params {"challenge": id, "language"}. Skipped when
  their challenge email never went after all (games.challenges.services.challenging).

Neither carries an address: every email goes from the server, and names are public
names. A subject carries no name (a public name is a stranger's text, and the subject is
the line a mailbox shows unopened).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from games.challenges.core.challenge_rows import Challenge, Challenged
from games.challenges.services.challenge_lists import ChallengeShown, one_challenge
from games.challenges.services.challenging import emailed_among
from games.mail.core.letter_registry import Builder
from games.mail.core.notifications import Notification
from games.mail.doors.letters import Letter, Skip, render
from games.people.core.home_links import home_link
from games.people.core.mailbox_keys import of_mailbox

Kind = Notification.Kind


def _shown(address: str, challenge_id: object, *, sent: bool) -> ChallengeShown:
    shown = one_challenge(address, challenge_id, sent=sent)
    if shown is None:
        raise Skip("the challenge is gone")
    return shown


def challenge(note: Notification) -> Letter:
    row = Challenge.objects.filter(pk=note.params.get("challenge")).first()
    if row is None or row.status != Challenge.Status.OPEN:
        raise Skip("the challenge is over")
    if not Challenged.objects.filter(of_mailbox(note.to_email), challenge=row,
                                     answer=Challenged.Answer.WAITING).exists():
        raise Skip("answered already")
    shown = _shown(note.to_email, row.pk, sent=False)
    home = home_link(note.to_email)
    return render("challenge", _("A player challenges you to a game of Saboteur"), {
        "challenge": shown, "ruleset": shown.ruleset, "home": home + "#challenges",
        "player_page": settings.SITE_URL + reverse("games:player", args=[shown.by])})


def challenge_answer(note: Notification) -> Letter:
    outcome = str(note.params.get("outcome") or "")
    shown = _shown(note.to_email, note.params.get("challenge"), sent=True)
    subjects = {"refused": _("Your challenge was refused"),
                "forming": _("Your challenge was accepted: its table is forming"),
                "expired": _("Your challenge expired without every answer")}
    if outcome not in subjects:
        raise Skip("no such outcome")
    return render("challenge_answer", subjects[outcome], {
        "challenge": shown, "ruleset": shown.ruleset, "outcome": outcome,
        "name": str(note.params.get("name") or ""),
        "home": home_link(note.to_email) + "#challenges"})


def challenge_off(note: Notification) -> Letter:
    challenge_id = note.params.get("challenge")
    if (isinstance(challenge_id, bool) or not isinstance(challenge_id, int)
            or not emailed_among(challenge_id, [note.to_email])):
        raise Skip("the challenge never reached them")
    shown = _shown(note.to_email, challenge_id, sent=False)
    return render("challenge_off", _("A challenge to you was withdrawn"), {
        "challenge": shown, "ruleset": shown.ruleset,
        "home": home_link(note.to_email) + "#challenges"})


LETTERS: dict[str, Builder] = {Kind.CHALLENGE: challenge,
                               Kind.CHALLENGE_ANSWER: challenge_answer,
                               Kind.CHALLENGE_OFF: challenge_off}
