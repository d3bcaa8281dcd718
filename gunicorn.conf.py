"""gunicorn settings for production: `gunicorn saboteur_site.wsgi` run from the checkout
reads this file (deploy/saboteur-web.service does exactly that).

Every access and error line goes through saboteur_site.gunicorn_logging.RedactingLogger,
which replaces seat tokens (/play/<token>/, /api/play/<token>/, /mail/unsubscribe/<token>/,
the home links /me/<token>/ and /api/me/<token>/,
in the path, the query string and the Referer) with `<redacted>`. Each value below can be
overridden from the environment (the systemd unit's EnvironmentFile) without editing this
file.
"""

import os
from pathlib import Path

# nginx on the same machine proxies to this address (deploy/nginx-saboteur.conf).
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")

# Synchronous workers: a move is a short database transaction. Two per core plus one is
# gunicorn's rule of thumb; WEB_CONCURRENCY is the conventional override.
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * (os.cpu_count() or 1) + 1))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
# Recycle workers now and then (bounds any slow leak). Rarely: a worker's start costs
# about 0.9 s of CPU (importing Django and the app; bench/README.md). The jitter is half
# the span, so workers started together do not all restart together either.
max_requests = 20000
max_requests_jitter = 10000

# Trust X-Forwarded-* only from the local proxy.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")

# Logs to stdout/stderr: journald keeps them (journalctl -u saboteur-web).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = os.environ.get("GUNICORN_ERROR_LOG", "-")
# The combined format plus the time taken; the request line and the Referer are redacted
# by the logger class, so this format may name them. No user (%(u)s): it is the user part
# of HTTP basic auth, i.e. half of ANYMAIL_WEBHOOK_SECRET on the provider's webhook.
access_log_format = '%(h)s - - %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
logger_class = "saboteur_site.gunicorn_logging.RedactingLogger"

# gunicorn's control socket (`gunicornc`) in systemd's RuntimeDirectory (/run/saboteur-web)
# rather than the service user's home, which the unit makes read-only.
if os.environ.get("RUNTIME_DIRECTORY"):
    control_socket = str(Path(os.environ["RUNTIME_DIRECTORY"].split(":")[0]) / "gunicorn.ctl")


def post_worker_init(worker: object) -> None:
    """The app is loaded: move everything it made so far out of the garbage collector's
    sight (gc.freeze), so the collections a request triggers scan only what requests
    make, not Django's and the app's tens of thousands of long-lived objects."""
    import gc

    gc.freeze()
