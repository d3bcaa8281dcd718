"""The floor of transactions: events, joining, rounds, standings, the sweep."""
