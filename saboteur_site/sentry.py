"""Opt-in error reports (SENTRY_DSN, docs/operations.md "Health, metrics and error
reports"), for Django and Celery, with every seat token scrubbed: URLs, query strings,
headers, breadcrumbs, request bodies and exception messages go through the same redaction
as the logs (log_redaction.redact). Performance transactions (SENTRY_TRACES_SAMPLE_RATE
above 0) carry the same request data plus a transaction name and spans (SQL, HTTP calls,
cache keys): they are scrubbed the same way, whole, by before_send_transaction."""

from __future__ import annotations

from typing import Any

from saboteur_site.log_redaction import redact


def scrub(value: Any) -> Any:
    """`value` with every string in it redacted, however deep (dicts, lists, tuples)."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {scrub(key): scrub(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(scrub(item) for item in value)
    return value


def before_send(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    scrubbed: dict[str, Any] = scrub(event)
    return scrubbed


def before_breadcrumb(crumb: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    scrubbed: dict[str, Any] = scrub(crumb)
    return scrubbed


def before_send_transaction(event: dict[str, Any], hint: dict[str, Any]) -> dict[str, Any]:
    """A transaction: its request (url, query string, headers), its name, and every span's
    description and data, which hold URLs and statements, scrubbed like an error event."""
    scrubbed: dict[str, Any] = scrub(event)
    return scrubbed


def init(dsn: str, environment: str, traces_sample_rate: float, **options: Any) -> None:
    """Start error reporting (called from settings only when SENTRY_DSN is set). `options`
    go to sentry_sdk.init as they are (the tests give a transport that only records)."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn, environment=environment, traces_sample_rate=traces_sample_rate,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        # No cookies, no user data, no client addresses: the SDK's default when neither
        # send_default_pii (deprecated in 2.75) nor data_collection is given; a test holds it.
        max_request_body_size="never",  # form and JSON bodies may hold game text
        before_send=before_send,  # type: ignore[arg-type]
        before_breadcrumb=before_breadcrumb,
        before_send_transaction=before_send_transaction,  # type: ignore[arg-type]
        **options,
    )
