"""The lesson as data (its deal, its moves, its words) and the row marking a lesson game."""
