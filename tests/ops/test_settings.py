"""Settings from the environment, checked in fresh processes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-long-random-production-secret-key-" + "k9Qz" * 10,
    "LINK_KEY": "a-long-random-production-link-key-" + "p3Xw" * 10,
    "ALLOWED_HOSTS": "saboteur.example.org",
    "SITE_URL": "https://saboteur.example.org",
    "DATABASE_URL": "sqlite:///" + str(ROOT / "never-created.sqlite3"),
    # Rate limits shared by every process (games.W001 otherwise); nothing connects to it.
    "CACHE_URL": "redis://127.0.0.1:6379/1",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """manage.py in a fresh process with only `env`'s settings variables."""
    return _python("manage.py", *args, env=env)


def settings_module(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The settings module alone imported in a fresh process with only `env`'s settings
    variables, then `code` run with it as `s`: where a setting is read or refused (every
    refusal is raised as the module is read), a seventh of `manage.py`'s start."""
    return _python("-c", f"import saboteur_site.settings as s; {code}", env=env)


def _python(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "SECRET_KEY", "LINK_KEY", "ALLOWED_HOSTS", "SITE_URL",
                          "DATABASE_URL", "CACHE_URL", "DATABASE_REPLICA_URL",
                          "USE_X_FORWARDED_FOR", "BEHIND_HTTPS_PROXY",
                          "CSRF_TRUSTED_ORIGINS", "DJANGO_SETTINGS_MODULE",
                          # set while the session's browser runs (tests/browser/conftest.py)
                          "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_production_settings() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_when_rate_limits_count_per_process() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "CACHE_URL"}
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0 and "games.W001" in result.stderr + result.stdout


def test_secret_key_is_required_without_debug() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = settings_module("", env=env)
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


def test_tasks_run_inline_is_refused_with_a_clear_message() -> None:
    """CELERY_TASK_ALWAYS_EAGER once claimed to run tasks "without a broker or worker",
    and then no turn email left (the beat plans them): it is refused, and says why."""
    refused = settings_module("", env={"DEBUG": "1", "CELERY_TASK_ALWAYS_EAGER": "1"})
    assert refused.returncode != 0
    assert "CELERY_TASK_ALWAYS_EAGER is not supported" in refused.stderr
    assert "run.py serve" in refused.stderr
    assert settings_module("", env={"DEBUG": "1", "CELERY_TASK_ALWAYS_EAGER": "0"}).returncode == 0


def test_debug_runs_without_any_variable() -> None:
    result = manage("check", env={"DEBUG": "1"})
    assert result.returncode == 0, result.stderr


def test_settings_read_the_environment() -> None:
    code = ("print(s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS, s.SITE_URL, "
            "s.DATABASES['default']['ENGINE'], s.SECURE_SSL_REDIRECT)")
    env = {**PRODUCTION, "DATABASE_URL": "postgres://u:p@db.example.org:5432/sab",
           "CSRF_TRUSTED_ORIGINS": "https://a.example.org,https://b.example.org"}
    result = settings_module(code, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        "['saboteur.example.org'] ['https://a.example.org', 'https://b.example.org'] "
        "https://saboteur.example.org django.db.backends.postgresql True")


def test_the_moderators_time_zone_is_read_and_a_wrong_one_refused_by_name() -> None:
    rome = settings_module("print(s.TIME_ZONE)", env={"DEBUG": "1", "TIME_ZONE": "Europe/Rome"})
    assert rome.returncode == 0, rome.stderr
    assert rome.stdout.strip().splitlines()[-1] == "Europe/Rome"
    wrong = settings_module("", env={"DEBUG": "1", "TIME_ZONE": "Europe/Atlantis"})
    assert wrong.returncode != 0
    assert "TIME_ZONE must be a time zone such as Europe/Rome, not 'Europe/Atlantis'" in (
        wrong.stderr)


def test_behind_pgbouncer_nothing_outlives_a_transaction() -> None:
    """DATABASE_POOLER=pgbouncer (transaction pooling): no server-side cursor, no prepared
    statement (docs/operations.md "PgBouncer"); an unknown pooler is refused by name."""
    code = ("d = s.DATABASES['default']; o = d.get('OPTIONS', {}); "
            "print(d.get('DISABLE_SERVER_SIDE_CURSORS', False), "
            "'prepare_threshold' in o, o.get('prepare_threshold'))")
    env = {**PRODUCTION, "DATABASE_URL": "postgres://u:p@127.0.0.1:6432/sab"}
    direct = settings_module(code, env=env)
    assert direct.stdout.strip().splitlines()[-1] == "False False None", direct.stderr
    pooled = settings_module(code, env={**env, "DATABASE_POOLER": "pgbouncer"})
    assert pooled.stdout.strip().splitlines()[-1] == "True True None", pooled.stderr
    unknown = settings_module("", env={**env, "DATABASE_POOLER": "pgpool"})
    assert unknown.returncode != 0 and "DATABASE_POOLER='pgpool'" in unknown.stderr


def test_a_replica_is_wired_in_only_when_its_url_is_set() -> None:
    """Without DATABASE_REPLICA_URL there is one database, no router, no middleware of
    its own: nothing changes. With it, a `replica` alias (a dead one costs 3 s to find out,
    not a minute), the router and the writes' cookie; it needs the shared cache."""
    code = ("r = s.DATABASES.get('replica'); "
            "print(sorted(s.DATABASES), getattr(s, 'DATABASE_ROUTERS', []), "
            "'games.kit.replica_reads.RememberWrites' in s.MIDDLEWARE, "
            "r and (r['HOST'], r['PORT'], r['OPTIONS'].get('connect_timeout'), "
            "r.get('DISABLE_SERVER_SIDE_CURSORS')))")
    env = {**PRODUCTION, "DATABASE_URL": "postgres://u:p@127.0.0.1:6432/sab"}
    alone = settings_module(code, env=env)
    assert alone.stdout.strip().splitlines()[-1] == "['default'] [] False None", alone.stderr
    replica = {**env, "DATABASE_REPLICA_URL": "postgres://u:p@10.0.0.2:5433/sab",
               "DATABASE_POOLER": "pgbouncer"}
    wired = settings_module(code, env=replica)
    assert wired.stdout.strip().splitlines()[-1] == (
        "['default', 'replica'] ['games.kit.replica_reads.ReplicaRouter'] True "
        "('10.0.0.2', 5433, 3, True)"), wired.stderr
    no_cache = settings_module("", env={k: v for k, v in replica.items() if k != "CACHE_URL"})
    assert no_cache.returncode != 0 and "DATABASE_REPLICA_URL needs CACHE_URL" in (
        no_cache.stderr)
