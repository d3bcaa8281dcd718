"""The Saboteur play-by-post server's one Django app, one package per feature (docs/DESIGN.md
"The plan").
"""
