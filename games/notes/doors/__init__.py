"""The seat page's sheet (a template tag), its form and the replay's sheet."""
