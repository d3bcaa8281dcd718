"""A player's own data across their games (README "Your data"):

    record      games played and finished, rounds won by role, gold, deadlines missed,
                seats taken over; shown to the tables a player sits at when they allow it
    export      "download my data": everything stored of one address, as JSON
    forget      "forget me": active seats handed over first (or the request waits for their
                games to end), then the address erased everywhere and never emailed again
    erase       the erasing itself, table by table

It sits above games.handover in the layers (forgetting opens the seats of games under way)
and below games.web, games.tasks and games.management, which call it.
"""
