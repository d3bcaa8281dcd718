"""Starting a lesson, the guide a lesson's seat page shows, and clearing idle lessons."""
