from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Saboteur games"

    def ready(self) -> None:
        # The email provider's delivery reports (anymail's tracking signal).
        from .notifications import tracking  # noqa: F401
