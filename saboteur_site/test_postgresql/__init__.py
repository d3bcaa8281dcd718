"""The test suite's PostgreSQL backend: Django's, emptying the tables between
transactional tests by DELETE instead of TRUNCATE (base.py says why)."""
