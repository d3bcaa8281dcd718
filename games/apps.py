from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Saboteur games"

    def ready(self) -> None:
        # The dispute emails' builders (games.mail.letters.register), for every process
        # that sends, not only those that load the admin; the email provider's delivery
        # reports (anymail's tracking signal); moves by email (anymail's inbound signal).
        # The Celery tasks, registered by name for games.mail.dispatch. The deploy checks
        # of the rate limits' settings (games.web.deploy_checks).
        from games import tasks  # noqa: F401
        from games.mail import tracking  # noqa: F401
        from games.moderation import mail  # noqa: F401
        from games.web import deploy_checks, inbound  # noqa: F401
