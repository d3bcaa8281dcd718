"""The words of each email kind, rendered at send time in the recipient's language and zone.

Each builder reads the game through `engine.view(state, recipient seat)` only (via
`facts`), plus public things: seat names, the deadline, table notices. A builder
raises `Skip` when the email no longer makes sense (the turn it announces is over,
the game was cancelled): the notification is then recorded as skipped, not sent.
`games.mail.core.letter_registry` holds which builder writes which kind.
"""

from __future__ import annotations

from dataclasses import replace
from zoneinfo import ZoneInfo

from django.conf import settings
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import engine
from games.clock.core import clock_facts
from games.clock.core import rules as clock_rules
from games.engine.types import JSON
from games.game.core.aliases import holder_name, stored_name
from games.game.core.game import EmailMode, Game
from games.mail.core.letter_parts import parts_for
from games.mail.core.message import Letter, Skip, unsubscribe_url
from games.mail.core.notifications import Notification
from games.mail.doors.reply_part import reply_part
from games.mail.services.table_talk import carried_talk, talk_since_last_email
from games.people.core.home_links import home_link, next_game_link, next_game_offered
from games.people.core.mailbox_keys import of_mailbox
from games.people.core.mailboxes import same_mailbox
from games.records.core.fairness import chain_shown
from games.seats.core.links import link_for, token_of_seat
from games.seats.core.seat import Seat
from games.seatview.core import cell_words, dates, describe, maze_drawing
from games.seatview.core.recent import view_log
from games.seatview.core.words import days_and_hours
from games.seatview.services import facts, pages
from games.seatview.services.holders import TableNames
from games.seatview.services.pages import table_notices
from games.seatview.services.timeline import is_move, timeline
from games.talk.services.reading import unread_counts


def rules_link(ruleset: str) -> str:
    """The "How to play" page of a ruleset, in the reader's language (every email has it)."""
    return (settings.SITE_URL + reverse("games:rules", args=[ruleset])
            + f"?lang={translation.get_language()}")


def render(template: str, subject: str, context: JSON) -> Letter:
    ruleset = str(context.get("ruleset") or getattr(context.get("game"), "ruleset", "base"))
    rules = rules_link(ruleset)
    context = {**context, "subject": subject, "LANGUAGE_CODE": translation.get_language(),
               "rules_link": rules,
               # How a kept fingerprint proves the game fair: the rules page's section, in
               # the reader's language (it was an English pointer to the README).
               "fairness_link": rules + "#fairness"}
    text = render_to_string(f"emails/{template}.txt", context)
    html = render_to_string(f"emails/{template}.html", context)
    return Letter(subject=subject, text=text.strip() + "\n", html=html)


def names_of(game: Game) -> TableNames:
    """The seats' names today and at each line of the game (games.seatview.services.holders)."""
    return pages.seat_names(game)


def seat_context(note: Notification, seat: Seat, game: Game) -> JSON:
    """What every email to a seat has: who, which game, the links, the footer."""
    link = link_for(seat)
    return {"seat": seat, "game": game, "link": link, "settings_link": link + "#emails",
            "unsubscribe": unsubscribe_url(note), "zone": seat.zone.key,
            "home_link": home_of_recipient(note)}


def home_of_recipient(note: Notification) -> str:
    """The recipient's own home link (every game of that address): only ever built for the
    address the email goes to."""
    return home_link(note.to_email) if note.to_email else ""


def _seat_and_game(note: Notification) -> tuple[Seat, Game]:
    if note.seat is None or note.game is None:
        raise Skip("the seat or game is gone")
    return note.seat, note.game



def deadline_context(game: Game, seat: Seat) -> JSON:
    if game.deadline_at is None:
        return {"deadline": "", "time_left": ""}
    now = timezone.now()
    vacation = seat.vacation_until if seat.vacation_until and seat.vacation_until > now else None
    clock_left = ""
    if not clock_facts.plain(game, seat) and game.actor == seat.number:
        clock_left = clock_facts.duration(clock_facts.seat_left(game, seat, now))
    return {"deadline": dates.local_time(game.deadline_at, seat.zone),
            "time_left": dates.time_left(game.deadline_at, now),
            "clock_left": clock_left,  # running time: days off, quiet hours, pauses left out
            # ... quiet hours only with a bank: a fixed time per move runs through them
            "clock_bank": clock_rules.uses_bank(game),
            "vacation_until": dates.local_time(vacation, seat.zone) if vacation else ""}


def _still_your_turn(game: Game, seat: Seat, note: Notification) -> None:
    if (game.status != Game.Status.ACTIVE or game.version != note.params.get("version")
            or game.actor != seat.number):
        raise Skip("the turn is over")


# ---- the kinds --------------------------------------------------------------------------


def invitation(note: Notification) -> Letter:
    seat, game = _seat_and_game(note)
    if game.status in (Game.Status.CANCELLED, Game.Status.FINISHED):
        raise Skip("the game is over")
    names = names_of(game)
    # The subject carries no text the host wrote (no game or player name): that is the
    # line a mailbox shows unopened, and a setup page must not let anyone write it.
    subject = _("You are invited to play Saboteur by email")
    return render("invitation", subject, {
        **seat_context(note, seat, game), "rematch": rematch_words(game),
        "players": [names[n] for n in sorted(names)], "started": game.status != "setup",
        "accepted": seat.accepted, "hours": game.hours_per_move,
        "policy": game.timeout_policy, "rated": game.rated,
        # Found at an open table: nobody hosts it, and its players took their seats by
        # joining it (nothing to accept).
        "found_together": game.found_together,
        "vacation": days_and_hours(seat.vacation_left),
        "commitment": game.commitment,
    })


def rematch_words(game: Game) -> JSON | None:
    """What a rematch's invitation says of where it comes from: who proposed it, the game
    it follows and how that game ended (its winners and their nuggets); None for a game
    that is nobody's rematch."""
    previous = (Game.objects.filter(pk=game.rematch_of_id).first()
                if game.rematch_of_id else None)
    if previous is None:
        return None
    proposer = next((holder_name(game, seat.number, seat.player_name)
                     for seat in game.seats.order_by("number")
                     if game.host_email and same_mailbox(seat.email, game.host_email)), "")
    scores = previous.state_without_log().scores
    best = max(scores, default=0)
    names = names_of(previous)
    winners = [describe.seat_name(number, names) for number, score in enumerate(scores)
               if score == best]
    facts = {"game": previous.title, "winners": ", ".join(winners), "n": best}
    if len(winners) == 1:
        result = ngettext("In “%(game)s”, %(winners)s won with %(n)s nugget.",
                          "In “%(game)s”, %(winners)s won with %(n)s nuggets.", best) % facts
    else:
        result = ngettext("In “%(game)s”, %(winners)s shared first place with %(n)s nugget "
                          "each.", "In “%(game)s”, %(winners)s shared first place with "
                          "%(n)s nuggets each.", best) % facts
    return {"proposer": stored_name(proposer), "previous": previous.title, "result": result}


def turn(note: Notification) -> Letter:
    seat, game = _seat_and_game(note)
    _still_your_turn(game, seat, note)
    state = game.state()
    view = engine.view(state, seat.number)
    names = names_of(game)
    # What happened since, in the order it happened: the table notices in place.
    story = timeline(view, names, table_notices(game), since=facts.turn_start(view))
    since = [line.text for line in story
             if line.log_index < len(view_log(view)) or line.notice]
    # "You open the game" only when nobody has moved yet: a seat later in the order that
    # has not moved either has the others' moves to read.
    opening = not any(is_move(event) for event in view_log(view))
    gold_phase = view["phase"] == "gold"
    if gold_phase:
        subject = _("%(game)s: pick a gold card") % {"game": game.title}
    elif view["phase"] == "theft":
        subject = _("%(game)s: steal a nugget") % {"game": game.title}
    else:
        subject = _("%(game)s: your turn (round %(round)s of %(rounds)s)") % {
            "game": game.title, "round": view["round"], "rounds": view["rounds"]}
    # Moves by email: a Reply-To with this turn's token, the commands explained.
    reply = reply_part(seat, game, state, view, dict(names))  # commands name today's players
    letter = render("turn", subject, {
        **seat_context(note, seat, game), **deadline_context(game, seat),
        "reply_help": reply.help,
        "gold_phase": gold_phase, "gold_offer": facts.gold_offer(view),
        "since": since, "opening": opening, "notices": [],
        "talk": talk_since_last_email(seat, game, note.to_email, seat.zone, names),
        "maze_html": maze_drawing.maze_html(view, reply.targets),
        "maze_text": maze_drawing.maze_text(view, reply.targets),
        "maze_words": cell_words.word_lines(view),
        "hand": facts.hand(view), "role": describe.role_name(view.get("role")),
        "gold": facts.my_gold(view), "players": facts.players(view, names),
        "deck_size": view["deck_size"], "round": view["round"], "rounds": view["rounds"],
        "theft_phase": view["phase"] == "theft", "expansion": view["ruleset"] == "saboteur2",
        "crystals": view.get("crystals", 0), "chain": chain_shown(game),
    })
    return replace(letter, reply_to=reply.address)


def reminder(note: Notification) -> Letter:
    seat, game = _seat_and_game(note)
    _still_your_turn(game, seat, note)
    if game.deadline_at is None or game.deadline_at <= timezone.now():
        raise Skip("the deadline has passed")
    view = engine.view(game.state(), seat.number)
    subject = _("%(game)s: reminder, your move is due in %(left)s") % {
        "game": game.title, "left": dates.time_left(game.deadline_at)}
    return render("reminder", subject, {
        **seat_context(note, seat, game), **deadline_context(game, seat),
        "gold_phase": view["phase"] == "gold", "policy": game.timeout_policy,
    })


def missed(note: Notification) -> Letter:
    seat, game = _seat_and_game(note)
    view = engine.view(game.state(), seat.number)
    names = names_of(game)
    passed = note.params.get("policy") in ("auto_pass", "bot")
    by_bot = note.params.get("policy") == "bot"
    event = facts.last_own_timeout_move(view) if passed and not by_bot else None
    subject = _("%(game)s: you missed the deadline") % {"game": game.title}
    return render("missed", subject, {
        **seat_context(note, seat, game), "passed": passed, "by_bot": by_bot,
        "discarded": facts.discarded_name(event, view["ruleset"]) if event else None,
        "picked_gold": event.get("value") if event and event["type"] == "gold_pick" else None,
        "stole_from": describe.seat_name(event["target"], names)
        if event and event["type"] == "steal" and event.get("target") is not None else "",
        "missed": note.params.get("missed", 0), "absent": note.params.get("absent", False),
        "absent_after": note.params.get("absent_after", 3),
        "your_turn_again": game.status == Game.Status.ACTIVE and game.actor == seat.number,
        "next_player": describe.seat_name(view["actor"], names) if view["actor"] is not None
        else "",
    })


def round_end(note: Notification) -> Letter:
    seat, game = _seat_and_game(note)
    view = engine.view(game.state(), seat.number)
    number = int(note.params.get("round", 0))
    result = facts.round_result(view, number, names_of(game))
    if result is None:
        raise Skip("no such round result")
    subject = _("%(game)s: round %(round)s is over") % {"game": game.title, "round": number}
    return render("round_end", subject, {
        **seat_context(note, seat, game), "result": result,
        "won": facts.round_gold(view, number), "gold": facts.my_gold(view),
        "rounds": view["rounds"],
        "parts": parts_for(note),  # the ratings' change, games.ratings.doors.rating_letters
    })


def game_end(note: Notification) -> Letter:
    seat, game = _seat_and_game(note)
    view = engine.view(game.state(), seat.number)
    if not view["finished"]:
        raise Skip("the game is not over")
    names = names_of(game)
    from games.seatview.services.pages import final_scores

    last = view["round_results"][-1]["round"] if view["round_results"] else 0
    subject = _("%(game)s: the game is over") % {"game": game.title}
    context = seat_context(note, seat, game)
    return render("game_end", subject, {
        **context, "scores": final_scores(view, names),
        # The whole game, step by step, and its record (docs/api.md "Fairness and the game
        # record"): behind the seat's own link, open to its player once the game is over.
        "replay_link": context["link"] + "replay/",
        "record_link": settings.SITE_URL + reverse("games:api-record",
                                                   args=[token_of_seat(seat)]),
        "won": seat.number in (view.get("winners") or []), "gold": facts.my_gold(view),
        "result": facts.round_result(view, last, names), "chain": chain_shown(game),
        "parts": parts_for(note),  # the last round's rating change (as round_end's)
    })


def digest(note: Notification) -> Letter:
    """Every game waiting for this address's digest-mode seats, at send time."""
    recipient = note.seat
    zone = recipient.zone if recipient is not None else ZoneInfo("UTC")
    seats = list(Seat.objects.filter(of_mailbox(note.to_email),
                                     email_mode=EmailMode.DAILY_DIGEST,
                                     game__status=Game.Status.ACTIVE)
                 .select_related("game").order_by("game__deadline_at", "pk"))
    waiting = []
    listed: list[int] = []
    unread = unread_counts(seats)  # the talk each game has that the seat has not read
    for seat in seats:
        game = seat.game
        if game.actor != seat.number:
            continue
        listed.append(game.pk)
        view = engine.view(game.state(), seat.number)
        names = names_of(game)
        since, _start = facts.since_last_turn(view, names)
        waiting.append({
            "game": game, "link": link_for(seat), "gold_phase": view["phase"] == "gold",
            "round": view["round"], "rounds": view["rounds"], "since": since[-6:],
            "talk": talk_since_last_email(seat, game, note.to_email, zone, names),
            "unread": unread.get(seat.pk, 0),
            "deadline": dates.local_time(game.deadline_at, zone) if game.deadline_at else "",
            "time_left": dates.time_left(game.deadline_at) if game.deadline_at else "",
        })
    if not waiting:
        raise Skip("no game is waiting")
    carried_talk(note, listed)
    # The games not waiting for a move that have talk this player has not read.
    talk_elsewhere = [{"game": seat.game, "unread": unread[seat.pk], "link": link_for(seat)}
                      for seat in seats if seat.game_id not in listed and unread.get(seat.pk)]
    subject = ngettext("Saboteur: %(n)s game is waiting for your move",
                       "Saboteur: %(n)s games are waiting for your move",
                       len(waiting)) % {"n": len(waiting)}
    # The same chain as the seat pages' and the home's button (games.home.services.next_game).
    chain = next_game_link(note.to_email) if next_game_offered(note.to_email) else ""
    return render("digest", subject, {"games": waiting, "unsubscribe": unsubscribe_url(note),
                                      "zone": zone.key, "home_link": home_of_recipient(note),
                                      "next_link": chain, "talk_elsewhere": talk_elsewhere})


def moderator_alert(note: Notification) -> Letter:
    game = note.game
    params = note.params
    try:
        admin = settings.SITE_URL + reverse("admin:games_game_change", args=[note.game_id])
    except NoReverseMatch:
        admin = settings.SITE_URL + "/admin/"
    subject = _("Moderators: %(game)s needs a look") % {"game": game.title if game else "?"}
    return render("mod_alert", subject, {
        "game": game, "topic": params.get("topic"), "player": params.get("player", ""),
        "seat_number": params.get("seat"), "missed": params.get("missed"),
        "address": params.get("address", ""), "event": params.get("event", ""),
        "admin": admin,
    })


__all__ = ["Letter", "Skip"]


def nudge(note: Notification) -> Letter:
    """The clock's nudge (games.clock.services.nudges): one short email naming who waits."""
    seat, game = note.seat, note.game
    if seat is None or game is None:
        raise Skip("the seat or game is gone")
    if (game.status != Game.Status.ACTIVE or game.actor != seat.number
            or game.version != note.params.get("version")):
        raise Skip("the turn is over")
    by = Seat.objects.filter(game=game, number=note.params.get("by")).first()
    who = holder_name(game, by.number, by.player_name) if by is not None else "?"
    subject = _("%(game)s: %(who)s is waiting for your move") % {"game": game.title,
                                                                "who": who}
    # Answered with a move like a turn email: its own reply address, the numbered hand.
    state = game.state()
    view = engine.view(state, seat.number)
    reply = reply_part(seat, game, state, view, dict(names_of(game)), with_hand=True)
    letter = render("nudge", subject, {**seat_context(note, seat, game),
                                       **deadline_context(game, seat), "who": who,
                                       "reply_help": reply.help})
    return replace(letter, reply_to=reply.address)
