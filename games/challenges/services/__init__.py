"""Challenging, answering, withdrawing, blocking, listing, expiring: one transaction each."""
