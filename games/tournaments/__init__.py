"""Tournaments (docs/playing.md "Tournaments"): events of several rounds whose tables are
ordinary games, Swiss pods paired by a stated cost with a fixed seed, scored by placement
normalised for table size, and duplicate mode (the same deal at every table of a round)."""
