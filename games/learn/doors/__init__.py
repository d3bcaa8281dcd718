"""The /learn/ page and its POST, and the beat's sweep of idle lessons."""
