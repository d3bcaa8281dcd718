"""Settings for bench/api.py's gunicorn: the production settings (read from the same
environment) plus the bench's URLconf (the real site and the bare view) and no rate
limit worth the name on the API, so the bench measures moves, not the 429s."""

import os
import warnings

from saboteur_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.api_urls"
RATE_LIMITS = {"api_seat": [10**9, 60]}
# A queue of the bench's own on the broker (bench/api.py deletes it at the end): the
# publish after each move is real, nobody consumes it.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("BENCH_CELERY_QUEUE", "celery")
CELERY_TASK_ROUTES = {}  # every task into that one queue
CELERY_TASK_QUEUES = ()  # Celery then declares the default queue alone
# No collectstatic for a bench of JSON endpoints: whitenoise's warning is noise here.
warnings.filterwarnings("ignore", message="No directory at")
