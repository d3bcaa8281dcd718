"""The seat page learns of others' moves and words by polling (static/games/live.js: the
first poll after 3 s, then backing off to 10 s). A test that waits for what a poll brings
moves the page's clock (Playwright's) instead of waiting out the interval: `follow_clock`
before the page opens, `poll_now` when the news is there to fetch. Time still passes as
usual otherwise; the fetch itself is real."""

from __future__ import annotations

from typing import Any

LONGEST_WAIT = 10_000  # ms: live.js's LONGEST, so one poll falls due whatever the backoff


def follow_clock(page: Any) -> None:
    """The page's timers run on a clock the test can move (call before `goto`)."""
    page.clock.install()


def poll_now(page: Any) -> None:
    """The page's next poll, now: timers due within the longest wait fire; the answer it
    fetches arrives in its own time (the test's `expect` waits for it)."""
    page.clock.run_for(LONGEST_WAIT)
