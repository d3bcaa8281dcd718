"""Screenshots for a person to look at after a run (a page at 390 px, the maze, a box):
written only when SHOTS names a folder (`SHOTS=/tmp/shots python3 run.py test`). No test
reads them, and each costs the browser a tenth of a second or more of CPU: taken on every
run they were a share of the browser tests' time."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def shot(target: Any, name: str, **options: Any) -> None:
    """`target.screenshot()` (a Playwright page or locator) into $SHOTS/`name`, if set."""
    folder = os.environ.get("SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(Path(folder) / name), **options)
