"""The Django project; importing it loads the Celery app so tasks find it."""

from .celery import app as celery_app

__all__ = ["celery_app"]
