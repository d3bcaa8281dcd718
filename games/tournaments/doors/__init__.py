"""The doors: the public pages, the JSON API (thin shells over the services)."""
