"""The challenge letters and the public page's "Challenge" form."""
