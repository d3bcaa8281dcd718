"""HTTP views: thin shells over `games.services` (writes) and `games.pages` (what to show)."""
