"""What the seat page shows, for one seat or a spectator: the seat's view, its move forms,
the players, the clock, the log and the talk, the fairness proof."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from zoneinfo import ZoneInfo

from django.urls import reverse
from django.utils import timezone

from games.clock.core import clock_facts
from games.engine.types import JSON, Move, SeatView
from games.game.core.game import Game
from games.game.core.talk_and_notices import Message
from games.learn.services.guide import lesson_guide
from games.people.core.public_names import public_names_of
from games.records.core.fairness import chain_shown, public_facts
from games.seats.core.seat import Seat
from games.seatview.core import cell_words, describe, drawing, recent
from games.seatview.core.dates import local_time
from games.seatview.core.move_forms import MoveForms, build
from games.seatview.core.words import role_help
from games.seatview.services.holders import TableNames
from games.seatview.services.pages import (
    blocked_by,
    final_scores,
    round_results,
    seat_names,
    status_sentence,
    table_notices,
    waiting_text,
)
from games.seatview.services.timeline import TableNotice, log_items, timeline
from games.talk.core.mutes import muted_seats

TABLE_TALK_SHOWN = 50


@dataclass
class InFront:
    """A card lying in front of a player: a broken tool, a theft, a trap."""

    name: str
    kind: str  # the card's action: "break", "theft", "trapped", ...


@dataclass
class Player:
    number: int
    name: str
    hand_size: int
    in_front: list[InFront]
    gold: int | None
    is_actor: bool
    is_me: bool
    accepted: bool
    inspected: str = ""  # the role your own inspection showed this round (Saboteur 2)
    record: str = ""  # a line of the player's record, when they show it to the table
    page: str = ""  # their public page, where the table knows them by their public name


def with_public_pages(game: Game, players: list[Player]) -> list[Player]:
    """The players whose seat bears their public name, linked to their public page
    (/players/<name>/: a public page names them so already); one query, two when one
    has a public name."""
    keys = dict(game.seats.exclude(mailbox_key="").values_list("number", "mailbox_key"))
    names = public_names_of(keys.values())
    linked = []
    for player in players:
        name = names.get(keys.get(player.number, ""), "")
        linked.append(replace(player, page=reverse("games:player", args=[name]))
                      if name and name == player.name else player)
    return linked


def page_context(game: Game, seat: Seat | None, view: SeatView, legal: list[Move],
                 seats: Sequence[Seat] | None = None,
                 notices: Sequence[TableNotice] | None = None) -> JSON:
    """Everything the game page template needs, for one seat or a spectator. `seats`
    (the game's, in order) and `notices` (pages.table_notices): as the caller read them,
    else read here (once: the names, who accepted and the clock all come from the
    seats)."""
    seats = list(game.seats.all()) if seats is None else seats
    notices = table_notices(game) if notices is None else notices
    names = seat_names(game, [(s.number, s.player_name, s.kind) for s in seats])
    accepted = {s.number for s in seats if s.accepted}
    me = None if seat is None else seat.number
    zone = seat.zone if seat is not None else ZoneInfo("UTC")
    muted = muted_seats(seat)  # their talk is hidden from this reader only
    inspected = view.get("inspected") or {}
    players = [
        Player(number=p["seat"], name=describe.seat_name(p["seat"], names),
               hand_size=p["hand_size"],
               in_front=[InFront(describe.card_name(c), str(c.get("action") or c["kind"]))
                         for c in p["in_front"]],
               gold=p.get("gold"), is_actor=p["seat"] == view["actor"], is_me=p["seat"] == me,
               accepted=p["seat"] in accepted,
               inspected=describe.role_name(inspected[str(p["seat"])])
               if str(p["seat"]) in inspected else "")
        for p in view["players"]
    ]
    forms: MoveForms = build(view, legal, names)
    targets = [(m["x"], m["y"]) for m in legal if m.get("type") == "place"]
    # A lesson's guide (games.learn): its box, and the card and cell it is about marked.
    lesson = lesson_guide(game, seat, view, names)
    log = list(reversed(timeline(view, names, notices)))
    return {
        "game": game,
        "seat": seat,
        "view": view,
        "version": game.version,
        "names": names,
        "board": drawing.board_svg(view, targets, recent.changed_cells(view),
                                   lesson.cell if lesson is not None else None),
        "lesson": lesson,
        # Where a card could join the maze, for the seat page's one-key command.
        "frontier": ", ".join(describe.cell(x, y) for x, y in cell_words.frontier(view)),
        "forms": forms,
        "players": players,
        "actor_name": describe.seat_name(view["actor"], names),
        "my_turn": bool(legal),
        "role": describe.role_name(view["role"]) if view.get("role") else None,
        "role_help": role_help(view.get("role")),
        "blocked_by": blocked_by(view),
        "has_targets": any(card.cells for card in forms.hand),
        "phase": status_sentence(game, view),
        "over": game.status in (Game.Status.FINISHED, Game.Status.CANCELLED),
        "waiting": waiting_text(game, view, names),
        "deadline": local_time(game.deadline_at, zone) if game.is_playable else "",
        "clock": clock_facts.page_clock(game, seat, timezone.now(), seats)
        if seat is not None and game.status != Game.Status.FINISHED else None,
        "log": log,
        "log_items": log_items(log, recent.since(view)),
        "expansion": view["ruleset"] == "saboteur2",
        "round_results": round_results(view, names),
        "scores": final_scores(view, names),
        "table_talk": table_talk(game, seats, zone, names, muted),
        "muted": muted,
        "fairness": public_facts(game),
        "chain": chain_shown(game),
        "goals": [dict(g, name=describe.goal_name(g["goal"]),
                       result=describe.goal_result(g["status"])) for g in view["goals"]],
    }


def table_talk(game: Game, seats: Sequence[Seat], zone: ZoneInfo, names: TableNames,
               muted: frozenset[int] = frozenset()) -> list[Message]:
    """The latest messages, oldest first, each with `when` in the reader's time (the same
    style as every other date on the page) and `who` wrote it: whoever held the seat then
    (games.seatview.services.holders); without those of the seats in `muted` (the reader muted
    them: games.talk.core.mutes). `seats`: the game's (their numbers by id: no join)."""
    number_of = {seat.pk: seat.number for seat in seats}
    hidden = [pk for pk, number in number_of.items() if number in muted]
    recent = list(game.messages.exclude(seat_id__in=hidden)
                  .order_by("-created_at", "-id")[:TABLE_TALK_SHOWN])
    for message in recent:
        message.when = local_time(message.created_at, zone)  # type: ignore[attr-defined]
        message.who = names.talker(number_of[message.seat_id], message.pk)  # type: ignore[attr-defined]
    return list(reversed(recent))
