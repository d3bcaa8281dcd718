"""Engine views turned into words, SVG and form choices, shared by pages and emails."""
