"""Settings, read from the environment (docs/operations.md "Configuration" lists every variable).

The embedded default (DEBUG=1, no other variable) runs on SQLite with email to files.
Production sets DEBUG=0, SECRET_KEY, LINK_KEY, ALLOWED_HOSTS, SITE_URL and DATABASE_URL.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .email_providers import email_provider
from .env import env_bool, env_int, env_list, env_str, env_zone
from .queues import SWEEPS, celery_queues, task_routes

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (for development set DEBUG=1)."
        )
    SECRET_KEY = "django-insecure-development-only-key-do-not-use-in-production"
# Seat links are HMAC(LINK_KEY, salt) (games/seats/core/links.py): a key of their own, so
# changing SECRET_KEY leaves every link working. LINK_KEY_FALLBACKS (comma-separated)
# still rebuild links made under an older key until `manage.py rotatelinks` has given
# every open seat a new link. Required without DEBUG: it used to default to SECRET_KEY,
# and then a new SECRET_KEY silently made every email's link one that opens nothing.
LINK_KEY = env_str("LINK_KEY")
if not LINK_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "LINK_KEY must be set when DEBUG is off: seat links are made with it, apart "
            "from SECRET_KEY. To keep every link that works today, set LINK_KEY to the "
            "SECRET_KEY they were made under (LINK_KEY used to default to it); or set a "
            "new LINK_KEY, put that old key in LINK_KEY_FALLBACKS and run `python "
            "manage.py rotatelinks --old-keys-only` (docs/operations.md \"Links and their keys\")."
        )
    LINK_KEY = "django-insecure-development-only-link-key"
LINK_KEY_FALLBACKS = [k for k in env_str("LINK_KEY_FALLBACKS", "").split(",") if k]

# Absolute links (emails, the creategame command) are built on SITE_URL.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
_site = urlsplit(SITE_URL)
if _site.scheme not in ("http", "https") or not _site.hostname:
    raise ImproperlyConfigured("SITE_URL must look like https://saboteur.example.org")

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS",
    ["localhost", "127.0.0.1", "[::1]", _site.hostname] if DEBUG else [_site.hostname],
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [f"{_site.scheme}://{_site.netloc}"])

INSTALLED_APPS = [
    "csp",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "games",
]

# Rate limits (games/kit/limits.py) count in this cache: the process's memory by default,
# the Redis of CACHE_URL (e.g. redis://127.0.0.1:6379/1) when set, shared by every process.
_cache_url = env_str("CACHE_URL", "")
CACHES = {"default": (
    {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _cache_url}
    if _cache_url else
    {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "saboteur"})}
# Behind our own nginx: the client address is the last one in X-Forwarded-For.
USE_X_FORWARDED_FOR = env_bool("USE_X_FORWARDED_FOR", default=False)
# Who may set up games on the web page: "open" (anyone, once they confirm their address
# by email) or "closed" (only `manage.py creategame` and moderators).
SETUP = env_str("SETUP", "open")
# Per host address per day: games set up, and invitations they may send; per recipient
# per day: invitations received (games/setup/services/web_setup.py).
SETUP_GAMES_PER_HOST_PER_DAY = env_int("SETUP_GAMES_PER_HOST_PER_DAY", 5)
SETUP_INVITATIONS_PER_HOST_PER_DAY = env_int("SETUP_INVITATIONS_PER_HOST_PER_DAY", 40)
SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY = env_int("SETUP_INVITATIONS_PER_RECIPIENT_PER_DAY", 5)
# Asks to take an open seat a day, per game and per asking seat (games/handover/services/offers.py).
OPEN_SEAT_ASKS_PER_GAME_PER_DAY = env_int("OPEN_SEAT_ASKS_PER_GAME_PER_DAY", 10)
OPEN_SEAT_ASKS_PER_SEAT_PER_DAY = env_int("OPEN_SEAT_ASKS_PER_SEAT_PER_DAY", 3)
# An open seat (games/handover/): how many standby volunteers are offered it at once, and
# after how many hours without an answer the next few are.
HANDOVER_OFFERS_AT_ONCE = env_int("HANDOVER_OFFERS_AT_ONCE", 3)
HANDOVER_OFFER_HOURS = env_int("HANDOVER_OFFER_HOURS", 12)
# Open tables (games/tables/): hours a forming table waits before it starts with bots (if
# allowed) or expires; forming tables one person may sit at at once.
OPEN_TABLE_WAIT_HOURS = env_int("OPEN_TABLE_WAIT_HOURS", 48)
OPEN_TABLES_PER_PLAYER = env_int("OPEN_TABLES_PER_PLAYER", 2)
# Challenges (games/challenges/): players one person may challenge a day (by counted
# mailbox), and days a challenge waits for its answers before it expires.
CHALLENGES_PER_DAY = env_int("CHALLENGES_PER_DAY", 5)
CHALLENGE_DAYS = env_int("CHALLENGE_DAYS", 7)

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Outermost but one: it also sees the redirects other middleware answer with.
    "games.site.guards.NoStoreForSecrets",
    "csp.middleware.CSPMiddleware",
    "games.site.csp.AdminInlineStyles",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "games.site.guards.RejectControlCharacters",
    "games.site.guards.ProviderWebhookErrors",
    "games.site.csrf.NoReferrerCsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # With DEBUG and FRIENDLY_ERRORS (run.py serve): the players' 404 page, not Django's.
    "games.site.friendly_errors.FriendlyNotFound",
    # Last, as django-axes asks: it turns a locked-out login into games.site.lockout's 429.
    "axes.middleware.AxesMiddleware",
]
# `run.py serve` sets it: a dead link shows the friendly 404 page even with DEBUG on.
FRIENDLY_ERRORS = env_bool("FRIENDLY_ERRORS", default=False)

# ---- admin login lockout (django-axes; games/site/lockout.py, docs/api.md "Limits") ------------
# Axes' backend first: it refuses a locked-out user name or client before the password is
# checked. Failures are counted in the database (axes_accessattempt), per user name as
# authentication looks it up and per client address, each against its own limit
# (games.kit.limits "login_user", "login_client"; RATE_LIMITS overrides them).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "games.site.lockout.LimitsPerName"
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_FAILURE_LIMIT = 1  # LimitsPerName reports 1 once either count reaches its own limit
AXES_COOLOFF_TIME = "games.site.lockout.cool_off"
# A refused attempt while locked out is not counted: the lockout ends one window after the
# failure that caused it.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_CALLABLE = "games.site.lockout.login_name"
AXES_CLIENT_IP_CALLABLE = "games.kit.client.client_address"
AXES_LOCKOUT_CALLABLE = "games.site.lockout.locked_out"
# Never stored or logged in clear: user names, addresses, the CSRF token (the password
# never is).
AXES_SENSITIVE_PARAMETERS = ["username", "ip_address", "csrfmiddlewaretoken"]
AXES_VERBOSE = False  # no start-up banner; log lines name only the masked parameters

ROOT_URLCONF = "saboteur_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # The tag libraries live with the pages (games/web, the admin's in games/admin),
            # not in <app>/templatetags.
            # Seat numbers as people read them, from 1, in every template.
            "builtins": ["games.kit.seat_numbers"],
            "libraries": {
                "disputes": "games.moderation.doors.dispute_box",
                "seat_emails": "games.mail.doors.seat_emails",
                "handover_box": "games.handover.doors.handover_box",
                "rematch_box": "games.setup.doors.rematch_box",
                "next_game": "games.home.doors.next_game_box",
                "sheet": "games.notes.doors.sheet_box",
                "talk_lists": "games.talk.doors.talk_lists",
                "hand_cards": "games.play.doors.hand_cards",
                "moderator_times": "games.moderation.doors.moderator_times",
            },
        },
    },
]

WSGI_APPLICATION = "saboteur_site.wsgi.application"

# ---- database -----------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default: writers take the lock when the transaction begins
    # (no deadlock between web server and worker), WAL lets readers go on.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        transaction_mode="IMMEDIATE",
        timeout=20,
        init_command="PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    )
# Behind PgBouncer in transaction pooling (DATABASE_POOLER=pgbouncer; docs/operations.md
# "PgBouncer"): each transaction may run on another server connection, so nothing may
# outlive one. No server-side cursors (Django's .iterator() keeps one open WITH HOLD),
# and no prepared statements (psycopg's prepare_threshold: named statements live on one
# server connection; PgBouncer tracks them in transaction pooling only from 1.21, Debian
# 12 ships 1.18). Django leaves prepare_threshold off unless OPTIONS sets it; this keeps
# it off. Statements still bind on the server where the fast store asks (unnamed: sent
# and run in one go, which any PgBouncer passes through).
# A streaming replica for the pages that read finished or public data (docs/operations.md
# "Reads from a replica"; games.kit.replica_reads): unset, there is one database and
# nothing changes. Set, reads opted in go to the `replica` alias, except for a writer
# within REPLICA_READ_YOUR_WRITES_SECONDS of its write (marks in the shared cache, so
# CACHE_URL is required), and while the replica is behind by half that or does not answer.
DATABASE_REPLICA_URL = env_str("DATABASE_REPLICA_URL", "")
REPLICA_READ_YOUR_WRITES_SECONDS = env_int("REPLICA_READ_YOUR_WRITES_SECONDS", 5)
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(
        DATABASE_REPLICA_URL, conn_max_age=env_int("CONN_MAX_AGE", 60), conn_health_checks=True)
    if DATABASES["replica"]["ENGINE"] == "django.db.backends.postgresql":
        # A replica that does not answer costs a page at most this, once per LEAVE_ALONE.
        DATABASES["replica"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 3)
    DATABASE_ROUTERS = ["games.kit.replica_reads.ReplicaRouter"]
    MIDDLEWARE.insert(MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware"),
                      "games.kit.replica_reads.RememberWrites")
    if not _cache_url and not DEBUG:
        raise ImproperlyConfigured(
            "DATABASE_REPLICA_URL needs CACHE_URL: the marks of recent writes that keep a "
            "writer's reads on the primary must be seen by every process.")
    if REPLICA_READ_YOUR_WRITES_SECONDS < 2:
        raise ImproperlyConfigured("REPLICA_READ_YOUR_WRITES_SECONDS must be 2 or more.")
DATABASE_POOLER = env_str("DATABASE_POOLER", "")
if DATABASE_POOLER == "pgbouncer":
    for _alias in DATABASES:  # the replica's too: behind a PgBouncer or not, harmless
        DATABASES[_alias]["DISABLE_SERVER_SIDE_CURSORS"] = True
        DATABASES[_alias].setdefault("OPTIONS", {})["prepare_threshold"] = None
elif DATABASE_POOLER:
    raise ImproperlyConfigured(
        f"DATABASE_POOLER={DATABASE_POOLER!r}: the only pooler known is 'pgbouncer' "
        "(or leave it unset for a direct connection).")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# ---- languages and time -----------------------------------------------------------
LANGUAGE_CODE = env_str("LANGUAGE_CODE", "en")
# Each language named in itself, so a reader finds theirs whatever the page's language.
LANGUAGES = [
    ("en", "English"),
    ("it", "Italiano"),
    ("nl", "Nederlands"),
    ("es", "Español"),
    ("de", "Deutsch"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Our date formats where a language's own differ from Django's (saboteur_site/formats/).
FORMAT_MODULE_PATH = ["saboteur_site.formats"]
USE_I18N = True
# The moderators' zone: the admin's pages and the emails to moderators show times in it.
# Stored times are UTC whatever it is; players read their own zone.
TIME_ZONE = env_zone("TIME_ZONE", "UTC")
USE_TZ = True

# ---- static files (whitenoise) ------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# ---- security (all on when DEBUG is off; `manage.py check --deploy` is clean) -----------
_secure = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=_secure)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=_secure)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=_secure)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000 if _secure else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=_secure)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=_secure)
if env_bool("BEHIND_HTTPS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Seat links are secrets: a page behind one must not send its address anywhere, not even
# to our own server as the Referer of its CSS (it would sit in access logs).
SECURE_REFERRER_POLICY = "no-referrer"
X_FRAME_OPTIONS = "DENY"

# games.site.csrf.NoReferrerCsrfViewMiddleware is Django's CSRF middleware (a subclass that
# accepts the "Origin: null" of our no-referrer pages); the check only looks for the name.
SILENCED_SYSTEM_CHECKS = ["security.W003"]

# Content-Security-Policy on every response (django-csp; games/site/csp.py): our own files
# only, no inline script or style, no frames, forms post only to us.
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": ["'self'"], "script-src": ["'self'"], "style-src": ["'self'"],
    "img-src": ["'self'", "data:"], "font-src": ["'self'"], "connect-src": ["'self'"],
    "form-action": ["'self'"], "frame-ancestors": ["'none'"], "base-uri": ["'none'"],
    "object-src": ["'none'"],
}}

# ---- the game server ---------------------------------------------------------------
# Hours per move a new game gets unless its host picks another pace.
DEFAULT_HOURS_PER_MOVE = env_int("DEFAULT_HOURS_PER_MOVE", 24)
# Seconds a bot waits before it moves (games.moves.services.bot_turns): the person who just moved
# sees their own move on the page before the bots answer.
BOT_MOVE_DELAY_SECONDS = env_int("BOT_MOVE_DELAY_SECONDS", 3)

# ---- email (docs/operations.md "Email: how it runs"): the provider is EMAIL_PROVIDER alone
EMAIL_DOMAIN = env_str("EMAIL_DOMAIN", _site.hostname)  # Message-IDs and the From address
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", f"Saboteur by post <saboteur@{EMAIL_DOMAIN}>")
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
EMAIL_FILE_PATH = env_str("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
EMAIL_PROVIDER = env_str("EMAIL_PROVIDER", "file").lower()
EMAIL_BACKEND, ANYMAIL = email_provider(EMAIL_PROVIDER)
# "user:password" for HTTP basic auth on the tracking webhook (/anymail/<provider>/tracking/).
if env_str("ANYMAIL_WEBHOOK_SECRET"):
    ANYMAIL["WEBHOOK_SECRET"] = env_str("ANYMAIL_WEBHOOK_SECRET")
# Moves by email (docs/operations.md "Moves by email: the server side"): turn emails reply
# to play+<token>@INBOUND_DOMAIN; at most INBOUND_ANSWERS_PER_HOUR answers go to one seat
# per hour. A raw message larger than INBOUND_MAX_BYTES is not read (only its head is
# kept): its seat is told it was too large; a provider's post larger than
# INBOUND_MAX_REQUEST_BYTES is dropped unread (200: no retry).
INBOUND_DOMAIN = env_str("INBOUND_DOMAIN", _site.hostname)
# The move path's store (games.moves.services.move_store): "fast" (PostgreSQL's two statements;
# SQLite always runs the ORM reference) or "orm" (the reference everywhere).
MOVE_STORE = env_str("MOVE_STORE", "fast")
INBOUND_ANSWERS_PER_HOUR = env_int("INBOUND_ANSWERS_PER_HOUR", 10)
INBOUND_MAX_BYTES = env_int("INBOUND_MAX_BYTES", 2_621_440)
INBOUND_MAX_REQUEST_BYTES = env_int("INBOUND_MAX_REQUEST_BYTES", 32 * 1024 * 1024)
# Table talk by email: at most this many "say" lines of one email are posted.
INBOUND_TALK_LINES = env_int("INBOUND_TALK_LINES", 3)
# SMTP (EMAIL_PROVIDER=smtp)
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
# anymail's HTTP providers wait as long as SMTP does; a claim older than the timeout plus
# this margin belongs to a dead worker (games/mail/services/send.py) and is sent again.
ANYMAIL["REQUESTS_TIMEOUT"] = EMAIL_TIMEOUT
EMAIL_STUCK_MARGIN_SECONDS = env_int("EMAIL_STUCK_MARGIN_SECONDS", 90)
# A new email whose send task never ran (broker down) is sent by the sweep after this long.
EMAIL_UNSENT_AFTER_SECONDS = env_int("EMAIL_UNSENT_AFTER_SECONDS", 120)
# Sending: attempts before a notification counts as failed, first retry delay (doubling).
EMAIL_MAX_ATTEMPTS = env_int("EMAIL_MAX_ATTEMPTS", 6)
EMAIL_RETRY_SECONDS = env_int("EMAIL_RETRY_SECONDS", 60)
# Local hour (the player's time zone) at which the daily digest goes out.
DIGEST_HOUR = env_int("DIGEST_HOUR", 8)
# Extra addresses for moderator alerts, besides users in the "moderators" group.
MODERATOR_EMAILS = env_list("MODERATOR_EMAILS", [])

# ---- Web push (games.push, docs/operations.md "Alerts by web push") ---------------------
# The VAPID pair in raw base64url (py-vapid's `vapid --gen` prints them); the subject an
# https: or mailto: URL the push services may contact. Without a pair, alerts are off
# (the home says so); with DEBUG a development pair is made in var/ (push_keys).
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY")
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY")
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither.")
if not VAPID_PRIVATE_KEY and DEBUG:
    from .push_keys import development_pair

    VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = development_pair(BASE_DIR / "var" / "vapid-dev.json")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", SITE_URL if SITE_URL.startswith("https:") else
                        f"mailto:saboteur@{EMAIL_DOMAIN}")
if not VAPID_SUBJECT.startswith(("https:", "mailto:")):
    raise ImproperlyConfigured("VAPID_SUBJECT must be an https: or mailto: URL.")
# Devices whose endpoint is on loopback (and plain http there): tests and local runs only.
PUSH_ALLOW_LOOPBACK = env_bool("PUSH_ALLOW_LOOPBACK", default=False)
if PUSH_ALLOW_LOOPBACK and not DEBUG:
    raise ImproperlyConfigured("PUSH_ALLOW_LOOPBACK=1 is for tests and local runs: it needs "
                               "DEBUG=1 (the server would post into its own network).")
# Sending: the push service's timeout, attempts before an alert counts as failed, and the
# first retry's delay (doubling, at most an hour; a Retry-After longer than it wins).
PUSH_TIMEOUT = env_int("PUSH_TIMEOUT", 10)
PUSH_MAX_ATTEMPTS = env_int("PUSH_MAX_ATTEMPTS", 6)
PUSH_RETRY_SECONDS = env_int("PUSH_RETRY_SECONDS", 30)

# ---- Celery (docs/operations.md "Production"): broker from CELERY_BROKER_URL ----------
# The embedded default is kombu's filesystem transport: a queue in var/celery, no server.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "filesystem://localhost/")
if CELERY_BROKER_URL.startswith("filesystem:"):
    _queue_dir = Path(env_str("CELERY_QUEUE_DIR", str(BASE_DIR / "var" / "celery")))
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
        "data_folder_in": str(_queue_dir / "queue"),
        "data_folder_out": str(_queue_dir / "queue"),
        "control_folder": str(_queue_dir / "control"),
        "store_processed": False,
    }
if env_bool("CELERY_TASK_ALWAYS_EAGER", default=False):  # inline tasks would send no move's email
    raise ImproperlyConfigured(
        "CELERY_TASK_ALWAYS_EAGER is not supported: the beat plans every move's emails. "
        "Unset it; `python3 run.py serve` starts a worker and the beat on a folder broker.")
# Queues by kind (docs/operations.md "Queues and workers"): each has worker units of its
# own (deploy/saboteur-worker-<queue>.service) with their own concurrency, so 500 bot
# moves waiting never hold up a turn email. A worker started without -Q (`run.py serve`,
# deploy/saboteur-worker@.service) takes them all.
CELERY_TASK_ROUTES = task_routes()
# On RabbitMQ (amqp://) the queues are quorum queues on topic exchanges: replicated, and
# a retry's countdown waits in the broker (Celery's native delayed delivery, which needs
# topic exchanges) instead of in a worker's memory.
CELERY_TASK_QUEUES = celery_queues(quorum=CELERY_BROKER_URL.startswith(("amqp", "pyamqp")))
CELERY_TASK_DEFAULT_QUEUE = SWEEPS  # a task with no route (tests/ops/test_queues.py: none)
CELERY_TASK_IGNORE_RESULT = True  # tasks write their outcome to the database
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-task leaves it for another
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = env_str(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(BASE_DIR / "var" / "celerybeat-schedule"))
# Seconds between deadline and reminder sweeps (the beat schedule, saboteur_site/celery.py).
SWEEP_SECONDS = env_int("SWEEP_SECONDS", 60)
# Seconds between runs of `follow_up_moves`, which plans the emails of the moves made since
# (games.mail.services.move_emails): how long a turn email can wait before it leaves.
FOLLOW_UP_SECONDS = env_int("FOLLOW_UP_SECONDS", 2)

# Every line the console handler writes has seat tokens redacted: django.request logs
# the path of each 4xx/5xx ("Not Found: /play/<token>/").
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "saboteur_site.log_redaction.RedactSecretsFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler",
                             "filters": ["redact_secrets"]}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # runserver's access log (`run.py serve`) has a handler of its own in Django's
    # defaults, which would write every seat path unredacted: send it to ours.
    # ACCESS_LOG_LEVEL=WARNING (run.py serve without --verbose): failed requests only.
    "loggers": {"django.server": {"handlers": ["console"],
                                  "level": env_str("ACCESS_LOG_LEVEL", "INFO"),
                                  "propagate": False},
                # Django's own "django" logger writes to a console handler of its own with
                # DEBUG on (run.py serve), which would print a dead seat link's path
                # unredacted ("Not Found: /play/<token>/"): ours only, once.
                "django": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO"),
                           "propagate": False}},
}

# ---- error reports and operations (docs/operations.md "Configuration") ---------------------------
# Opt-in Sentry (or a compatible service): every seat token is scrubbed (sentry.py).
SENTRY_DSN = env_str("SENTRY_DSN", "")
if SENTRY_DSN:
    from .sentry import init as _init_sentry

    _init_sentry(SENTRY_DSN, env_str("SENTRY_ENVIRONMENT", "production"),
                 float(env_str("SENTRY_TRACES_SAMPLE_RATE", "0") or 0))
# /metrics answers only with "Authorization: Bearer <METRICS_TOKEN>" (404 when unset).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
# /healthz fails when the sweeps have not run for this long, or an email waits this long.
HEALTH_SWEEP_MAX_AGE_SECONDS = env_int("HEALTH_SWEEP_MAX_AGE_SECONDS", 600)
HEALTH_MAIL_MAX_AGE_SECONDS = env_int("HEALTH_MAIL_MAX_AGE_SECONDS", 3600)
# ... or a move's emails have not been planned for this long (the follow-up runs stopped).
HEALTH_FOLLOW_UP_MAX_AGE_SECONDS = env_int("HEALTH_FOLLOW_UP_MAX_AGE_SECONDS", 300)
