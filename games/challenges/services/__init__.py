"""Challenging, answering, blocking, listing, expiring: one transaction each."""
