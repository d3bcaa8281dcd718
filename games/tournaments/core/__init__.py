"""The floor of values, rules and rows: pure pairing and scoring, and the models."""
