"""gunicorn's logger with seat secrets redacted from every access and error line.

gunicorn.conf.py names it as `logger_class`. The access line is built by gunicorn from
its format and the request's atoms (request line, path, query, Referer, ...); the filter
sees the finished line, so any format an operator picks is covered, and so are the error
log's "Error handling request /play/..." lines and their tracebacks.
"""

from __future__ import annotations

from typing import Any

from gunicorn.glogging import Logger

from .log_redaction import RedactSecretsFilter


class RedactingLogger(Logger):  # type: ignore[misc]
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            if not any(isinstance(f, RedactSecretsFilter) for f in log.filters):
                log.addFilter(RedactSecretsFilter())
