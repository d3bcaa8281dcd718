"""Bot tests need no database; they run without Django settings, like tests/engine."""
