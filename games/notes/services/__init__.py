"""Writing a note, reading one seat's sheet, erasing a person's notes."""
