"""The web shell around the features: the URLs, the middleware (control bytes, no-store,
CSP, CSRF, admin lockout), error pages, health and metrics, the rules pages, the deploy
checks.
"""
