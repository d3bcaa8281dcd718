"""Private notes and the suspicion sheet: for each other seat, per round, a mark
(trusted, unsure, suspected) and a line, kept by one seat's player for themselves only."""
