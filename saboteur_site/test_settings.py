"""Settings for the test suite: the real settings with throwaway keys and no HTTPS redirect.

DATABASE_URL still applies, so the suite runs on PostgreSQL when it points there.
"""

import os
from pathlib import Path

os.environ.setdefault("SECRET_KEY", "test-only-not-secret-" + "x" * 40)
os.environ.setdefault("LINK_KEY", "test-only-link-key-" + "y" * 40)

from .settings import *  # noqa: F403

SECURE_SSL_REDIRECT = False
# Web push (games.push): a throwaway VAPID pair, and the stand-in push service of the
# tests on loopback (tests/push/standin.py); the real settings refuse that without DEBUG.
from .push_keys import new_pair as _new_pair  # noqa: E402

VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = _new_pair()
VAPID_SUBJECT = "https://saboteur.example.org"
PUSH_ALLOW_LOOPBACK = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES["staticfiles"]["BACKEND"] = (  # noqa: F405
    "django.contrib.staticfiles.storage.StaticFilesStorage"
)
# Serve static files from the finders: no collectstatic before the tests.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Tasks go to an in-memory broker, as they go to Redis in production; the tests' `commit`
# fixture then does what the worker and the beat would (tests/support.py work_off), and
# tests/ops/test_celery_worker.py runs a real worker.
CELERY_BROKER_URL = "memory://"
CELERY_BROKER_TRANSPORT_OPTIONS = {}
# One queue in the tests: work_off runs the tasks in the order they were queued, whatever
# their kind. The production routes (saboteur_site/queues.py) have tests of their own
# (tests/ops/test_queues.py) and the production topology runs them (.ci/topology.py).
CELERY_TASK_ROUTES = {}
CELERY_TASK_QUEUES = ()  # Celery then declares the default queue alone
CELERY_TASK_DEFAULT_QUEUE = "celery"

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # A test database in a file, one per process (not SQLite's shared in-memory cache,
    # whose table locks fail at once instead of waiting): the browser tests' live server,
    # their Celery worker thread and the test itself write to it at the same time, and
    # the busy timeout then makes each wait its turn, as on the embedded default.
    import tempfile as _tempfile

    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(Path(_tempfile.gettempdir()) / f"saboteur-tests-{os.getpid()}.sqlite3"),
    }

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    # Django's backend, emptying the tables between transactional tests by DELETE: a
    # tenth of the time TRUNCATE takes (saboteur_site/test_postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "saboteur_site.test_postgresql"  # noqa: F405

# The replica (games.kit.replica_reads) as a test mirror of default: the same database
# under a second alias, so the router, the opt-ins and their fallbacks run in every test
# with no real replica. A test in one transaction reads the primary throughout (a
# transaction keeps its reads there); transactional tests and the browser's live server
# read the opted-in pages through the mirror. A real streaming replica: tests/replica.py.
DATABASES["replica"] = {**DATABASES["default"], "TEST": {"MIRROR": "default"}}  # noqa: F405
DATABASE_ROUTERS = ["games.kit.replica_reads.ReplicaRouter"]
if "games.kit.replica_reads.RememberWrites" not in MIDDLEWARE:  # noqa: F405
    MIDDLEWARE.insert(  # noqa: F405
        MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware"),  # noqa: F405
        "games.kit.replica_reads.RememberWrites")
