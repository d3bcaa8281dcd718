"""The home's "Play with strangers" part (templates/games/_strangers.html): find a table,
the forming tables the player sits at and the others, their public name and their
ratings with their reliability beside them (deadlines missed, from their record: shown
beside a rating, never mixed into it), and its JSON twin's additions.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q

from games.clock.core.clock_presets import preset_choices
from games.ratings.services.player_record import PlayerRecord
from games.ratings.services.shown import ratings_of
from games.tables.core.table_rows import OpenTable
from games.tables.core.wishes import RULESETS
from games.tables.services.forming import forming_tables_of
from games.tables.services.naming import next_change, public_name
from games.tables.services.table_list import TableShown, forming, open_table_ids


def tables_section(address: str, record: PlayerRecord | None = None) -> dict[str, Any]:
    """The context of the home's tables, name and ratings (a few queries)."""
    mine_ids = {table.pk for table in forming_tables_of(address)}
    shown = forming(list(OpenTable.objects.filter(
        Q(pk__in=mine_ids) | Q(pk__in=open_table_ids())).order_by("created_at", "pk")))
    mine = [table for table in shown if table.id in mine_ids]
    others: list[TableShown] = [table for table in shown if table.id not in mine_ids]
    name = public_name(address)
    return {
        "my_tables": mine, "open_tables": others, "public_name": name,
        "name_changes_from": next_change(name) if name else None,
        "ratings": sorted(ratings_of(address).items()),
        "deadlines_missed": record.deadlines_missed if record is not None else None,
        "rulesets": RULESETS, "table_languages": settings.LANGUAGES,
        "default_hours": settings.DEFAULT_HOURS_PER_MOVE,
        "clock_presets": preset_choices(),  # the setup page's (games.clock.core.clock_presets)
        "tables_at_once": settings.OPEN_TABLES_PER_PLAYER,
    }


def home_json(address: str) -> dict[str, Any]:
    """What /api/me/<token>/ adds: the public name ("" without one), whether the ratings
    are listed under it, the ratings by ruleset, and the forming tables the player sits
    at."""
    name = public_name(address)
    return {"name": name.name if name else "",
            "listed": bool(name and name.ratings_listed),
            "ratings": {ruleset: shown.as_json()
                        for ruleset, shown in ratings_of(address).items()},
            "tables": [table.as_json() for table in forming(forming_tables_of(address))]}
