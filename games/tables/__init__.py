"""Open tables: strangers find a table from their homes (docs/playing.md "Play with
strangers").

    wishes.py    what a player asks for ("Find me a table"), checked: TableError
    forming.py   find, join and leave forming tables (limits, the oldest match first)
    starting.py  a full table becomes a game; the beat's sweep of tables whose wait ended
                 (started with bots, or expired: members told)
    table_list.py  the forming tables as /tables/, the home and GET /api/tables/ show them

Above games.players (public names name the seats) and games.play (create_game); below
games.home, which shows them.
"""
