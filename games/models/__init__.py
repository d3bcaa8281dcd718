"""Games as a move log plus a snapshot (docs/DESIGN.md "State and history"), one module
per concern: `game` (games, seats, moves, talk, notices), `notifications` (emails),
`moderation` (disputes and the talk reports they gather, moderator actions, sweep
marks), `links` (private seat links), `home_links` (a player's home link),
`reply_tokens` and `inbound_mail` (moves by email), `reliability` (missed deadlines and
takeovers, by mailbox), `handover_rows`
(open seats, offers, standby volunteers), `follow_up_rows` (the after-move outbox),
`player_data` (a player's choices about their data), `seat_history` (who held a
seat before it changed hands), `host_limits` and `mailboxes`
(the setup page's caps), `game_choices` (the choices of games and seats), `fairness`
(commit and reveal), `fields` and `lru` (a JSON field and a bounded cache of our own),
`rating_rows` (ratings), `public_names`, `table_rows` (open tables), `mutes` (muted
table talk), `new_homes` (homes asked for by addresses that play nowhere yet), `event_rows`
(tournaments), `lesson_rows` (lessons), `challenge_rows` (challenges);
the whole list: docs/DESIGN.md "Layout"."""

from games.challenges.core.challenge_rows import (
    Challenge,
    ChallengeBlock,
    Challenged,
    ChallengesClosed,
)
from games.game.core.follow_up_rows import FollowUp
from games.game.core.game import (
    MAX_HOURS_PER_MOVE,
    BotLevel,
    EmailMode,
    Game,
    Move,
    SeatKind,
    TimeoutPolicy,
    WhileOpen,
    default_reminders,
    new_public_id,
)
from games.game.core.talk_and_notices import GameNotice, Message
from games.handover.core.handover_rows import OpenSeat, SeatOffer, Volunteer
from games.inbound.core.inbound_mail import InboundMail
from games.kit.sweep_marks import SweepMark
from games.learn.core.lesson_rows import Lesson
from games.mail.core.notifications import Notification
from games.moderation.core.moderation_rows import Dispute, ModeratorAction, TalkReport
from games.notes.core.sheet_rows import SeatNote
from games.people.core.home_links import HomeLink
from games.people.core.new_homes import NewHome
from games.people.core.player_data import ForgottenAddress, PendingForget, RecordShown
from games.people.core.public_names import NameKey, PublicName
from games.push.core.push_rows import PushAlert, PushChoice, PushDevice
from games.ratings.core.rating_rows import PlayerRating, RatedRound, RatingChange, SideRating
from games.seats.core.history import PastHolder
from games.seats.core.invitations import Invitation
from games.seats.core.reliability import MissedDeadline, SeatTakeover
from games.seats.core.reply_tokens import ReplyToken
from games.seats.core.seat import Seat, default_vacation
from games.setup.core.host_limits import HostBlock
from games.tables.core.table_rows import OpenTable, TableMember
from games.talk.core.mutes import TalkMute
from games.talk.core.reads import TalkRead
from games.tournaments.core.event_rows import (
    Entry,
    EventRequest,
    EventRound,
    EventSeat,
    EventTable,
    Tournament,
)

__all__ = [
    "MAX_HOURS_PER_MOVE",
    "BotLevel",
    "Challenge",
    "ChallengeBlock",
    "Challenged",
    "ChallengesClosed",
    "Dispute",
    "EmailMode",
    "Entry",
    "EventRequest",
    "EventRound",
    "EventSeat",
    "EventTable",
    "FollowUp",
    "ForgottenAddress",
    "Game",
    "GameNotice",
    "HomeLink",
    "HostBlock",
    "InboundMail",
    "Invitation",
    "Lesson",
    "Message",
    "MissedDeadline",
    "ModeratorAction",
    "Move",
    "NameKey",
    "NewHome",
    "Notification",
    "OpenSeat",
    "OpenTable",
    "PastHolder",
    "PendingForget",
    "PlayerRating",
    "PublicName",
    "PushAlert",
    "PushChoice",
    "PushDevice",
    "RatedRound",
    "RatingChange",
    "RecordShown",
    "ReplyToken",
    "Seat",
    "SeatKind",
    "SeatNote",
    "SeatOffer",
    "SeatTakeover",
    "SideRating",
    "SweepMark",
    "TableMember",
    "TalkMute",
    "TalkRead",
    "TalkReport",
    "TimeoutPolicy",
    "Tournament",
    "Volunteer",
    "WhileOpen",
    "default_reminders",
    "default_vacation",
    "new_public_id",
]
