"""What changed since the reader last looked at the game: the log lines and maze cells of
the moves made since their own last move (a spectator: the latest move).

The seat page marks those cells on the maze and those lines in the log, so a player who
opens the page (or whose open page refreshes itself) sees at once where the others played.
"""

from __future__ import annotations

from games.engine.types import LogEvent, SeatView

# Events that change a maze cell: a card placed, a card removed, a goal turned over.
CELL_EVENTS = ("place", "rockfall", "reveal")


def is_decision(event: LogEvent) -> bool:
    """A seat's own move (a payout or a round's bookkeeping is not one)."""
    return "seat" in event and event.get("type") != "payout"


def view_log(view: SeatView) -> list[LogEvent]:
    """The view's log events. Only the JSON API asks for a view without them (it writes
    the log itself): pages, letters and replies always have them."""
    log = view.get("log")
    if log is None:
        raise ValueError("this view was made without its log")
    return log


def since(view: SeatView) -> int:
    """The log index the reader has not seen yet: after their own last move, or for a
    spectator (no seat) the latest move."""
    log = view.get("log") or []
    me = view.get("seat")
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if not is_decision(event):
            continue
        if me is None:
            return index
        if event.get("seat") == me:
            return index + 1
    return 0


def changed_cells(view: SeatView) -> set[tuple[int, int]]:
    """The maze cells the moves since `since(view)` changed, in the round on the table."""
    log = view.get("log") or []
    start = since(view)
    for index in range(len(log) - 1, -1, -1):  # the maze is this round's only
        if log[index].get("type") == "round_start":
            start = max(start, index)
            break
    return {(int(e["x"]), int(e["y"])) for e in log[start:]
            if e.get("type") in CELL_EVENTS and "x" in e and "y" in e}
