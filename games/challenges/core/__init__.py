"""The rows of challenges and the terms a challenge is read and checked by."""
