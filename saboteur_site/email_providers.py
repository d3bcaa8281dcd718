"""The email providers EMAIL_PROVIDER names (docs/operations.md "Email: how it runs"):
each one's Django email backend and the anymail settings it reads from the environment.
Its own module to keep saboteur_site.settings readable; settings calls it once.
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

from saboteur_site.env import env_str

# provider: (backend, {ANYMAIL setting: (environment variable, required)})
PROVIDERS: dict[str, tuple[str, dict[str, tuple[str, bool]]]] = {
    "file": ("games.mail.core.outbox.OutboxBackend", {}),
    "console": ("django.core.mail.backends.console.EmailBackend", {}),
    "smtp": ("django.core.mail.backends.smtp.EmailBackend", {}),
    "postmark": ("anymail.backends.postmark.EmailBackend", {
        "POSTMARK_SERVER_TOKEN": ("POSTMARK_SERVER_TOKEN", True)}),
    "mailgun": ("anymail.backends.mailgun.EmailBackend", {
        "MAILGUN_API_KEY": ("MAILGUN_API_KEY", True),
        "MAILGUN_SENDER_DOMAIN": ("MAILGUN_SENDER_DOMAIN", False),
        "MAILGUN_API_URL": ("MAILGUN_API_URL", False),
        "MAILGUN_WEBHOOK_SIGNING_KEY": ("MAILGUN_WEBHOOK_SIGNING_KEY", False)}),
    "amazon_ses": ("anymail.backends.amazon_ses.EmailBackend", {
        "AMAZON_SES_CONFIGURATION_SET_NAME": ("AMAZON_SES_CONFIGURATION_SET_NAME", False)}),
    "sendgrid": ("anymail.backends.sendgrid.EmailBackend", {
        "SENDGRID_API_KEY": ("SENDGRID_API_KEY", True)}),
    "brevo": ("anymail.backends.brevo.EmailBackend", {
        "BREVO_API_KEY": ("BREVO_API_KEY", True)}),
}


def email_provider(provider: str) -> tuple[str, dict[str, object]]:
    """(EMAIL_BACKEND, ANYMAIL) for `provider`; a clear start-up error for an unknown
    provider or a required variable not set."""
    if provider not in PROVIDERS:
        raise ImproperlyConfigured(
            f"EMAIL_PROVIDER must be one of {', '.join(PROVIDERS)}, not {provider!r}")
    backend, wanted = PROVIDERS[provider]
    anymail: dict[str, object] = {}
    for name, (variable, required) in wanted.items():
        if env_str(variable):
            anymail[name] = env_str(variable)
        elif required:
            raise ImproperlyConfigured(f"EMAIL_PROVIDER={provider} needs {variable}")
    return backend, anymail
