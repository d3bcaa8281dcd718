"""The floor of services: each operation one transaction, called by the doors."""
