"""Every service that changes a game: setup, moves, seats, talk, and the clock."""
