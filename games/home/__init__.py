"""A player's home (/me/<token>/): every game of one email address on one page, in three
groups (your turn, waiting for others, finished), its JSON twin, and settings applied to
every game of the address at once. The key is a private home link emailed to the address
(games.models.home_links); there are no accounts."""
