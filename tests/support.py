"""Helpers for the server tests: making games, choosing moves, replay and leak checks."""

from __future__ import annotations

import html
import json
import random
import re
import socket
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from typing import Any, TypeVar
from urllib.parse import urlsplit

from games import engine
from games.game.core.game import Game
from games.seats.core.links import link_for
from games.seats.core.seat import Seat
from games.setup.services import game_setup

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')


@dataclass
class GameWithLinks:
    game: Game
    seats: list[Seat]
    tokens: list[str]

    def refresh(self) -> Game:
        self.game.refresh_from_db()
        return self.game

    def page(self, number: int) -> str:
        return f"/play/{self.tokens[number]}/"

    def api(self, number: int) -> str:
        return f"/api/play/{self.tokens[number]}/"

    def actor_seat(self) -> int:
        actor = self.refresh().state().actor
        assert actor is not None
        return actor


# The moment time-machine puts the deadline tests at (a Monday morning, UTC).
START = datetime.fromisoformat("2026-03-02 09:00:00+00:00")


def redis_answers(url: str) -> bool:
    """Whether a Redis server listens where `url` (redis://host:port/db) points."""
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 6379),
                                 timeout=1).close()
    except OSError:
        return False
    return True


def token_of(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[-1]


OWN_LINK = re.compile(r"https?://[^\s\"<>]+?(/play/[A-Za-z0-9_-]{43}/)")


def own_link_emailed_to(address: str) -> str:
    """The path of the seat link in the newest email to `address` that carries one: how a
    player (or a program playing a seat) gets its own link."""
    from django.core import mail

    for message in reversed(mail.outbox):
        if address in message.to:
            found = OWN_LINK.search(str(message.body))
            if found is not None:
                return found.group(1)
    raise AssertionError(f"no email with a seat link was sent to {address}")


def make_game(players: int = 3, seed: int = 1, *, start: bool = True, invite: bool = False,
              **kwargs: Any) -> GameWithLinks:
    specs = [game_setup.PlayerSpec(name=f"Player{i}", email=f"p{i}@example.com")
             for i in range(players)]
    created = game_setup.create_game(name="Test game", players=specs, seed=seed, start=start,
                                   invite=invite, **kwargs)
    # The players' own links (what their emails carry), not the host's invitation links.
    seats = [s for s, _ in created.seats]
    return GameWithLinks(game=created.game, seats=seats,
                         tokens=[token_of(link_for(s)) for s in seats])


SPECIAL_MOVES = ("action", "free", "rockfall", "map", "steal")

# A move-like dict: the engine's `Move`, or one read back from JSON (an API's, a page's).
MoveLike = TypeVar("MoveLike", bound=Mapping[str, Any])


def choose(legal: Sequence[MoveLike], rng: random.Random,
           special: float = 0.0) -> MoveLike:
    """A quick-finishing but varied policy: mostly dig east, sometimes anything.
    With `special` > 0, that share of turns plays an action card, a map, a rockfall or
    a discard to free yourself when one is legal (so Saboteur 2's cards get played)."""
    if special:
        specials = [m for m in legal if m["type"] in SPECIAL_MOVES]
        if specials and rng.random() < special:
            return rng.choice(specials)
    places = [m for m in legal if m["type"] == "place"]
    if places and rng.random() < 0.7:
        best = max(m["x"] for m in places)
        return rng.choice([m for m in places if m["x"] == best])
    return rng.choice(legal)


def replayed(game: Game) -> engine.State:
    moves = [m.move for m in game.moves.order_by("number")]
    return engine.replay(game.seats.count(), game.seed, moves, game.ruleset, game.options)


# (game id, seed, ruleset, seats, created) -> (the Move rows replayed so far, the state
# they give). Ids are reused after a test's rollback: the seats and the creation time keep
# an earlier test's game of the same id and seed from being taken for this one.
_REPLAYED: dict[tuple[int, int, str, int, str, str],
                tuple[list[dict[str, Any]], engine.State]] = {}


def assert_replay_matches(game: Game) -> None:
    """Replaying the Move rows from the seed gives the stored snapshot.

    Called every few moves of whole games, so it continues from the state the previous
    call replayed when the stored rows still start with the rows it replayed: `apply`
    is pure and deterministic, so that *is* the replay from the seed, in linear instead
    of quadratic time. Any other case (a new game, an undo) replays from the seed.
    """
    game.refresh_from_db()
    moves = [m.move for m in game.moves.order_by("number")]
    assert len(moves) == game.version
    key = (game.pk, game.seed, game.ruleset, game.seats.count(), game.created_at.isoformat(),
           game.commitment)
    done, state = _REPLAYED.get(key, ([], None))
    if state is None or moves[:len(done)] != done:
        state = engine.replay(game.seats.count(), game.seed, moves, game.ruleset, game.options)
    else:
        for move in moves[len(done):]:
            state = engine.apply(state, move)
    _REPLAYED[key] = (moves, state)
    assert state.to_json() == game.state().to_json()


# ---- leak checks ---------------------------------------------------------------------------


def quoted_forms(card_id: str) -> list[str]:
    """How a card id would appear in a response: as a JSON/HTML string or attribute value."""
    return [f'"{card_id}"', f"'{card_id}'", f"&quot;{card_id}&quot;", f">{card_id}<"]


def assert_no_card_ids(body: str, card_ids: set[str], where: str) -> None:
    for card_id in card_ids:
        for form in quoted_forms(card_id):
            assert form not in body, f"{where}: another seat's card {card_id} shows as {form}"


def other_hands(state: engine.State, seat: int) -> set[str]:
    return {c for s, hand in enumerate(state.hands) if s != seat for c in hand}


def hidden_goals(state: engine.State, seat: int | None) -> list[int]:
    """The goals `seat` may not know: none once the round is over (docs/RULES.md "End of a
    round": every goal is shown), else those face down that its maps did not show."""
    if state.phase != "play":
        return []
    known = set(state.known_goals[seat]) if seat is not None else set()
    return [i for i, shown in enumerate(state.goal_revealed) if not shown and i not in known]


def perturbed(state: engine.State, seat: int | None, rng: random.Random) -> engine.State:
    """The same position as `seat` sees it, with everything hidden from it changed:
    other hands, the deck (and the cards set aside) re-dealt, other roles flipped, the
    goals `seat` has not seen shuffled, other seats' gold moved round (until the end).
    Saboteur 2: other roles, the dwarf cards set aside and other seats' nuggets changed
    too (a nugget count stays above zero: a thief may learn that much)."""
    new = engine.State.from_json(state.to_json())
    others = [s for s in range(new.seats) if s != seat]
    pool = [c for s in others for c in new.hands[s]] + new.deck + new.set_aside
    rng.shuffle(pool)
    for s in others:
        size = len(new.hands[s])
        new.hands[s], pool = pool[:size], pool[size:]
    new.deck, new.set_aside = pool[:len(new.deck)], pool[len(new.deck):]
    if new.ruleset == "saboteur2":
        _perturb_s2(new, others, rng)
    else:
        for s in others:
            new.roles[s] = "saboteur" if new.roles[s] != "saboteur" else "gold-digger"
    hidden = hidden_goals(new, seat)
    kinds = [new.goal_kinds[i] for i in hidden]
    rng.shuffle(kinds)
    for i, kind in zip(hidden, kinds, strict=True):
        new.goal_kinds[i] = kind
    if not new.finished and len(others) > 1:
        golds = [new.gold_won[s] for s in others]
        for s, won in zip(others, golds[1:] + golds[:1], strict=True):
            new.gold_won[s] = won
    return new


S2_ROLES = ("blue-digger", "green-digger", "boss", "profiteer", "geologist", "saboteur")


def _perturb_s2(new: engine.State, others: list[int], rng: random.Random) -> None:
    for s in others:
        new.roles[s] = rng.choice([r for r in S2_ROLES if r != new.roles[s]])
    new.roles_aside = [rng.choice(S2_ROLES) for _ in new.roles_aside]
    if "hats_discarded" in new.extra:
        new.extra["hats_discarded"] = [rng.choice(S2_ROLES)
                                       for _ in new.extra["hats_discarded"]]
    if not new.finished:
        for s in others:
            if new.nuggets[s] > 0:
                new.nuggets[s] = rng.randint(1, 20)


def without_csrf(body: str) -> str:
    return CSRF_INPUT.sub("", body)


def page_moves(body: str) -> list[dict[str, Any]]:
    """Every move offered by the forms of a seat page (option and radio values)."""
    values = re.findall(r'<(?:option|input type="radio" name="move") value="(\{[^"]*\})"', body)
    return [json.loads(html.unescape(v)) for v in values]


def discard_moves(body: str) -> list[dict[str, Any]]:
    """Every move the discard form of a seat page offers (Saboteur 2): passes of any
    `data-pass` range of the ticked cards, frees of any 2 with any card to remove."""
    form = re.search(r'<form [^>]*id="discard-form"[^>]*>(.*?)</form>', body, re.S)
    if form is None:
        return []
    cards = re.findall(r'<input type="checkbox" name="cards" value="([^"]+)" '
                       r'form="discard-form"', body)
    moves: list[dict[str, Any]] = []
    passes = re.search(r'data-pass="(\d+)-(\d+)"', form.group(0))
    if passes:
        for size in range(int(passes.group(1)), int(passes.group(2)) + 1):
            moves += [{"type": "pass", "cards": list(c)} for c in combinations(cards, size)]
    removes = re.findall(r'<option value="([^"]+)"', form.group(1))
    if 'value="free"' in form.group(1):
        moves += [{"type": "free", "cards": list(pair), "remove": r}
                  for pair in combinations(cards, 2) for r in removes]
    return moves


def offered_moves(body: str) -> list[str]:
    """Every move a seat page offers, as sorted canonical JSON (to compare with
    `legal_moves`): selects, radio buttons and the discard form."""
    return sorted(json.dumps(m, sort_keys=True) for m in page_moves(body) + discard_moves(body))


def canonical(moves: Sequence[Mapping[str, Any]]) -> list[str]:
    return sorted(json.dumps(m, sort_keys=True) for m in moves)


def form_post(move: Mapping[str, Any], version: int) -> dict[str, Any]:
    """What the seat page's forms send for `move`: the discard form composes passes of
    several cards and frees from checkboxes; every other move is chosen whole."""
    if move["type"] == "pass" and move.get("cards"):
        return {"version": version, "compose": "pass", "cards": move["cards"]}
    if move["type"] == "free":
        return {"version": version, "compose": "free", "cards": move["cards"],
                "remove": move["remove"]}
    return {"version": version, "move": json.dumps(move)}


def page_version(body: str) -> int:
    match = re.search(r'name="version" value="(\d+)"', body)
    assert match, "no move form on the page"
    return int(match.group(1))


# ---- the worker and the beat, as production runs them -------------------------------------


def queued_tasks() -> list[tuple[str, list[Any], dict[str, Any]]]:
    """Take every task message waiting in the broker (the test settings' in-memory one):
    (task name, args, kwargs), in the order they were queued."""
    from celery import current_app

    app = current_app
    taken: list[tuple[str, list[Any], dict[str, Any]]] = []
    with app.connection_for_read() as connection:
        queue = connection.SimpleQueue(app.conf.task_default_queue, no_ack=True)
        try:
            while True:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    break
                args, kwargs, _embed = message.decode()
                taken.append((message.headers["task"], list(args), dict(kwargs)))
        finally:
            queue.close()
    return taken


def work_off(capture: Callable[..., Any] | None = None, *, max_rounds: int = 10_000) -> int:
    """What the worker and the beat do after a commit, until nothing is left: run every
    queued task (each in a transaction of its own, its on-commit work run after it, as a
    worker does; a countdown is not waited for: tests move time themselves), then the
    beat's `follow_up_moves` (the emails of the moves made) and `rate_rounds`. How many tasks ran.
    `capture`: pytest-django's django_capture_on_commit_callbacks, in a test that runs in
    one transaction; None in a transactional test (the commits are real)."""
    from contextlib import nullcontext

    from celery import current_app

    from games.mail.services import move_emails
    from games.ratings.services import rating_outbox

    def committing() -> Any:
        return capture(execute=True) if capture is not None else nullcontext()

    ran = 0
    for _ in range(max_rounds):
        waiting = queued_tasks()
        for name, args, kwargs in waiting:
            with committing():
                current_app.tasks[name].apply(args=tuple(args), kwargs=kwargs)
            ran += 1
        if waiting:
            continue
        with committing():
            planned = move_emails.follow_up_due() + rating_outbox.rate_due()
        if not planned and not queued_tasks_waiting():
            return ran
    raise AssertionError("the queued work never ends")


def queued_tasks_waiting() -> bool:
    from celery import current_app

    with current_app.connection_for_read() as connection:
        queue = connection.SimpleQueue(current_app.conf.task_default_queue, no_ack=True)
        try:
            return bool(queue.qsize())
        finally:
            queue.close()


# ---- moves through the one move service -----------------------------------------------------


def seat_move(seat: Seat, version: int, move: Any) -> Game:
    """The seat's player makes `move` against `version` (the page's and the email's way
    in); the game after it."""
    from games.moves.services import moves

    return moves.game_move_submit(actor=moves.BySeat(seat), version=version, move=move,
                                  with_state=True).game


def move_for(game_id: int, version: int, move: Mapping[str, Any], *, actor_kind: str = "seat",
             seat_number: int | None = None, moderator: Any = None) -> Game:
    """`move` made on the game at `version` by the mover `actor_kind` names: the seat the
    move names (else the seat to act: "seat"), a moderator for the seat to act, or one that
    chooses its own move instead: the server at the turn's deadline ("system"), a bot
    ("bot": a bot seat's, or the bot policy's for an absent person); the game after it."""
    from games.moves.services import moves

    plain = {k: v for k, v in move.items() if k != "seat"}
    actor: moves.Actor
    if actor_kind == "moderator":
        actor = moves.ByModerator(game_id, moderator)
    elif actor_kind in ("system", "bot"):
        # The server at the deadline (for an absent person, "bot": the bot policy's move),
        # or a bot seat's bot: each chooses its own move.
        game = Game.objects.get(pk=game_id)
        assert game.actor is not None
        acting = Seat.objects.get(game_id=game_id, number=game.actor)
        if actor_kind == "bot" and acting.is_bot:
            actor = moves.ByBot(game_id)
        elif game.deadline_at is None:
            raise AssertionError("the server moves at the turn's deadline")
        else:
            actor = moves.BySystem(game_id, game.deadline_at, bot=actor_kind == "bot")
        return moves.game_move_submit(actor=actor, version=version).game
    else:
        number = move.get("seat", seat_number)
        if number is None:  # the seat to act
            number = Game.objects.values_list("actor", flat=True).get(pk=game_id)
        assert number is not None
        actor = moves.BySeat(Seat.objects.get(game_id=game_id, number=int(number)))
    return moves.game_move_submit(actor=actor, version=version, move=plain,
                                  with_state=True).game


def put_opening_state(game: Game, state: engine.State) -> None:
    """Store a state no Move row led to (a position set up for a test), as a new game's."""
    game.snapshot = state.to_json(include_log=False)
    game.opening_log = list(state.log)
    game.log_length = len(state.log)


def new_home_url(address: str) -> str:
    """"Give me a new home link", as the home's form does: the absolute new link."""
    from django.conf import settings

    from games.home.services.address import new_home_path
    return settings.SITE_URL + new_home_path(address)
