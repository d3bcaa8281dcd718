from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Saboteur games"

    def ready(self) -> None:
        # Signal receivers and registrations every process needs: the email provider's
        # delivery reports (anymail's tracking signal); the Celery tasks, registered by
        # name for games.ops.after_commit; the deploy checks of the rate limits' settings
        # (games.web.deploy_checks). (Moves by email use no signal: the webhook reads the
        # provider's post itself, games.web.views.inbound_webhook.)
        from games import tasks  # noqa: F401
        from games.mail import tracking  # noqa: F401
        from games.web import deploy_checks  # noqa: F401
