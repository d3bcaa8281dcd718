"""Moderation in the Django admin (docs/operations.md "Moderation").

    games.admin.games       the games list (filters: deadline passed, waiting, absent
                            seats, open disputes, email problems) and the game page
    games.admin.moderate    the moderation page: the whole truth and every action
    games.admin.records     seats, moves, table talk, notices, disputes, emails, actions
    games.admin.permissions who may see secrets and who may act
    games.admin.inbound_mails  inbound emails (moves by email), From mismatches
    games.admin.handover    open seats, offers, standby volunteers; opening and assigning
    games.admin.names       public names; a moderator resets one (the player is told)
"""

from games.admin import games, handover, inbound_mails, names, records

__all__ = ["games", "handover", "inbound_mails", "names", "records"]
