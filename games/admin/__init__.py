"""Moderation in the Django admin (docs/operations.md "Moderation"); Django finds the
admin here, each page lives with its feature:

    games.moderation.doors.admin_games          the games list (filters: deadline passed,
                                                waiting, absent seats, open disputes, email
                                                problems) and the game page
    games.moderation.doors.moderate             the moderation page: the whole truth and
                                                every action
    games.moderation.doors.admin_records        seats, moves, table talk, notices,
                                                disputes, emails, actions
    games.moderation.doors.permissions          who may see secrets and who may act
    games.moderation.doors.admin_inbound_mails  inbound emails (moves by email), From
                                                mismatches
    games.moderation.doors.admin_handover                  open seats, offers, standby volunteers;
                                                opening and assigning
    games.moderation.doors.admin_names          public names; a moderator resets one
                                                (the player is told)
    games.push.doors.push_admin                 alert devices and push alerts, with the
                                                receipt rates per kind and browser
    games.tournaments.doors.event_admin         tournaments (filter: status) with their
                                                players, rounds and tables; a moderator
                                                cancels one (its players are told)
    games.challenges.doors.challenge_admin      challenges (filter: status) with their
                                                players, and blocks; a moderator
                                                withdraws waiting challenges (abuse)
"""

from games.challenges.doors import challenge_admin as challenges
from games.moderation.doors import admin_games as games
from games.moderation.doors import admin_handover as handover
from games.moderation.doors import admin_inbound_mails as inbound_mails
from games.moderation.doors import admin_names as names
from games.moderation.doors import admin_records as records
from games.push.doors import push_admin as push
from games.tournaments.doors import event_admin as tournaments

__all__ = ["challenges", "games", "handover", "inbound_mails", "names", "push", "records",
           "tournaments"]
