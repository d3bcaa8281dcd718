"""Keep seat secrets and addresses out of log lines: a redacting function and a logging
filter (used by gunicorn's logger class in saboteur_site/gunicorn_logging.py, the workers'
handlers in saboteur_site/celery.py and settings.LOGGING).

A seat's private link (/play/<token>/..., /api/play/<token>/...) and an unsubscribe
link (/mail/unsubscribe/<signed token>/) grant access to whoever reads them, so an
access log that holds them is a key store. Two rules, so neither alone must be perfect:

- the path segment after a secret-bearing route (`play/`, `unsubscribe/`, `me/`, ...) is
  replaced, wherever it appears: request line, path, query string (`?next=/play/...`),
  Referer (the seat page's own CSS and images send it) or an exception's text;
- a turn email's reply address (`play+<token>@...`) keeps only its shape;
- any run of 43 or more url-safe characters (the shape of a seat token: 32 bytes in
  base64) is replaced too, which covers percent-encoded paths and routes added later;
- an email address (quoted local parts too) becomes `<address>`: a log line is kept where
  "forget me" cannot reach it, so it names nobody (an SMTP server's refusal quotes the
  recipient, for one). A host name with no dot (`celery@worker1`) is not an address.

Standard library only: the gunicorn master loads it before Django is set up.
"""

from __future__ import annotations

import logging
import re

REDACTED = "<redacted>"
ADDRESS = "<address>"

# Routes whose next path segment is a secret. Add a route here when a new URL carries
# a token (e.g. an invitation link).
SECRET_ROUTES = ("play", "unsubscribe", "invite", "invitation", "confirm", "host", "standby",
                 "offer", "me", "receipt")

_ROUTE_SEGMENT = re.compile(
    r"(?P<route>(?:^|/|%2F|=)(?:" + "|".join(SECRET_ROUTES) + r")(?:/|%2F))"
    # ... but not a source file of the games.play package in a traceback
    # (".../games/play/services.py"): no token holds a dot.
    r"(?![A-Za-z0-9_]+\.py\b)"
    r"(?P<secret>[^/?#&\s\"'<>]+)",
    re.IGNORECASE,
)
_TOKEN_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43,}(?![A-Za-z0-9_-])")
# A turn email's reply address (play+<token>@...) moves in its seat like the link does.
_REPLY_TOKEN = re.compile(r"(play\+)[A-Za-z2-7]{32}(@)", re.IGNORECASE)
# local part (quoted, or a run of anything but white space and delimiters) @ a domain with
# a dot, or a domain literal. Non-ASCII letters count: an IDN is an address too.
_EMAIL_ADDRESS = re.compile(
    r"""(?:"(?:[^"\\\r\n]|\\.)*"|[^\s<>()\[\]\\,;:@"'=/]+)"""
    r"""@(?:\[[^\]\s]*\]|[^\s<>()\[\]\\,;:@"'/?#&]+\.[^\s<>()\[\]\\,;:@"'/?#&]+)""")


def redact(text: str) -> str:
    """`text` with every secret path segment, token-shaped string and address replaced."""
    text = _ROUTE_SEGMENT.sub(lambda m: m.group("route") + REDACTED, text)
    text = _REPLY_TOKEN.sub(lambda m: m.group(1) + REDACTED + m.group(2), text)
    text = _TOKEN_SHAPED.sub(REDACTED, text)
    return _EMAIL_ADDRESS.sub(ADDRESS, text)


class RedactSecretsFilter(logging.Filter):
    """Rewrites a record's message (arguments merged in) and exception text, redacted.

    Attach it to a logger (it then sees that logger's own records) or to a handler (it
    then sees every record that handler writes, propagated ones included)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True
