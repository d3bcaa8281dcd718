"""HTTP views: thin shells over `games.play.services` (writes) and
`games.present.pages` (what to show)."""
