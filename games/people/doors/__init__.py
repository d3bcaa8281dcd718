"""The person's doors: the one form every page uses to ask for an address."""
