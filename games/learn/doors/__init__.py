"""The /learn/ page and its POST (the beat's sweep of idle lessons: games.tasks)."""
