"""Moderation in the Django admin (README "Moderation").

    games.admin.games       the games list (filters: deadline passed, waiting, absent
                            seats, open disputes, email problems) and the game page
    games.admin.moderate    the moderation page: the whole truth and every action
    games.admin.records     seats, moves, table talk, notices, disputes, emails, actions
    games.admin.permissions who may see secrets and who may act
    games.admin.inbound_mails  inbound emails (moves by email), From mismatches
"""

from games.admin import games, inbound_mails, records

__all__ = ["games", "inbound_mails", "records"]
