"""The home's "Challenges" part (templates/games/_challenges.html): the challenges the
player received (to answer) and sent, the "Challenge a player" form (a name to start
from: the public page's "Challenge" button), the players they blocked and whether they
take challenges (games.challenges)."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.challenges.services.challenge_blocks import blocks_of, takes_challenges
from games.challenges.services.challenge_lists import left_today, received_by, sent_by
from games.kit.text import is_clean_line

LONGEST_NAME = 30
MOST_NAMES = 12


def challenges_section(address: str, challenge_to: str = "") -> dict[str, Any]:
    """The context of the part; `challenge_to` fills the form's names, one a line (what
    cannot be a name is left out: it may come from a link)."""
    names = [name.strip() for name in challenge_to.splitlines()[:MOST_NAMES]]
    shown = "\n".join(name for name in names
                      if name and len(name) <= LONGEST_NAME and is_clean_line(name))
    received = received_by(address)
    return {
        "challenges_waiting": [c for c in received if c.answerable],
        "challenges_received": [c for c in received if not c.answerable],
        "challenges_sent": sent_by(address),
        "challenges_blocked": blocks_of(address),
        "takes_challenges": takes_challenges(address),
        "challenges_left": left_today(address),
        "challenges_per_day": settings.CHALLENGES_PER_DAY,
        "challenge_days": settings.CHALLENGE_DAYS,
        "challenge_to": shown,
    }
