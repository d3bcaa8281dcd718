"""When a player leaves, a newcomer takes the seat over (docs/playing.md "When a player leaves").

    opening     a seat starts looking for a new player (its player asks, a moderator
                opens it, or it is marked absent in a game that allows that), or stops
                (its player stays, the game ends); a bot holds it meanwhile, or the game
                waits, as the game chose
    offers      who is asked: standby volunteers a few at a time, whoever a player of
                the table invites, whoever asks on the open-seats page; the beat's sweep
    takeover    the newcomer takes the seat: new link by email only, the old link and
                reply addresses dead, the table told, reliability kept per person
    standby     volunteers sign up (confirmed by email), pause, change, leave

It sits above games.moderation in the layers (it uses the moderators' game lock, record
and table notices, and lets a moderator assign a seat) and below games.web and
games.admin, which call it.
"""

from games.handover.handover_errors import HandoverError, SeatGone

__all__ = ["HandoverError", "SeatGone"]
