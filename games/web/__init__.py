"""HTTP: views, forms, urls and template tags; thin over games.play and games.present."""
