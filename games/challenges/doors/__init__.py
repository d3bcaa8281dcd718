"""The challenge letters, the public page's "Challenge" form and the admin's pages."""
