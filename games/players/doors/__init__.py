"""The floor of doors: views, the JSON API, email commands and letters, admin pages, tasks
and template tags, thin shells that call the services."""
