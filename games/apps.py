"""The app's configuration: what every process registers when Django starts."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Saboteur games"

    def ready(self) -> None:
        # Signal receivers and registrations every process needs: the email provider's
        # delivery reports (anymail's tracking signal); the Celery tasks, registered by
        # name for games.kit.after_commit; the deploy checks of the rate limits' settings
        # (games.site.deploy_checks). (Moves by email use no signal: the webhook reads the
        # provider's post itself, games.inbound.doors.webhook.)
        from games import tasks  # noqa: F401
        from games.mail.services import tracking  # noqa: F401
        from games.site import deploy_checks  # noqa: F401
        from games.wiring import wire
        wire()
