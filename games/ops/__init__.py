"""Operations the services and the pages share that are no game's business: rate limits
counted in the cache (`limits`). Imports nothing of the game: every layer may use it."""
