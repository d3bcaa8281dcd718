"""Settings for the test suite: the real settings with throwaway keys and no HTTPS redirect.

DATABASE_URL still applies, so the suite runs on PostgreSQL when it points there.
"""

import os

os.environ.setdefault("SECRET_KEY", "test-only-not-secret-" + "x" * 40)
os.environ.setdefault("LINK_KEY", "test-only-link-key-" + "y" * 40)

from .settings import *  # noqa: E402,F403

SECURE_SSL_REDIRECT = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = (  # noqa: F405
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)
# Serve static files from the finders: no collectstatic before the tests.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Celery tasks run inline unless a test starts a real worker (tests/ops/test_celery_worker.py).
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}
