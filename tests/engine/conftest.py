"""Engine tests need no database; they run without Django settings."""
