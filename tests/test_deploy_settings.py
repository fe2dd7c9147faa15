"""The settings of a real event, read from the environment in a fresh process as the server
reads them: docs/deploy.md's environment file passes Django's deployment check; the demo's
key, or none, is refused with what to set."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def documented_environment() -> dict[str, str]:
    """The variables of docs/deploy.md's ``/etc/mcr/env``, a fresh key for its placeholder."""
    text = (ROOT / "docs" / "deploy.md").read_text()
    block = re.search(r"```\n# /etc/mcr/env\n(.*?)```", text, re.DOTALL)[1]
    variables = dict(line.split("=", 1) for line in block.splitlines())
    assert variables["MCR_SECRET_KEY"].startswith("paste-")
    variables["MCR_SECRET_KEY"] = secrets.token_urlsafe(50)
    return variables


def python(*args: str, **variables: str) -> subprocess.CompletedProcess:
    """Python in a new process with only ``variables`` of ours in its environment."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("MCR_") and name not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**environment, **variables},
        capture_output=True,
        text=True,
        timeout=120,
    )


def manage(*args: str, **variables: str) -> subprocess.CompletedProcess:
    return python("manage.py", *args, **variables)


def settings_of(*names: str, **variables: str) -> dict[str, str]:
    """The values (as text) of the settings ``names`` in a process with ``variables``."""
    values = ", ".join(f"{name!r}: str(s.{name})" for name in names)
    code = f"import json; from django.conf import settings as s; print(json.dumps({{{values}}}))"
    result = manage("shell", "-c", code, **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_documented_production_settings_pass_the_deploy_check():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **documented_environment())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


def test_plain_http_is_what_the_deploy_check_warns_about():
    plain = {**documented_environment(), "MCR_SECURE_SSL_REDIRECT": "0", "MCR_SECURE_COOKIES": "0"}
    result = manage("check", "--deploy", "--fail-level", "WARNING", **plain)
    assert result.returncode == 1
    warned = set(re.findall(r"security\.W\d+", result.stdout + result.stderr))
    assert warned == {"security.W008", "security.W012", "security.W016"}


@pytest.mark.parametrize(
    ("key", "said"),
    [
        (None, "MCR_SECRET_KEY is not set."),
        ("", "MCR_SECRET_KEY is not set."),
        ("demo-only-not-secret-change-me-for-a-real-event", "MCR_SECRET_KEY is the demo's."),
    ],
)
def test_a_real_event_refuses_to_start_without_a_key_of_its_own(key, said):
    variables = {"MCR_DEBUG": "0", "MCR_ALLOWED_HOSTS": "mcr.example.org"}
    if key is not None:
        variables["MCR_SECRET_KEY"] = key
    result = manage("check", **variables)
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line == (
        "django.core.exceptions.ImproperlyConfigured: MCR_DEBUG=0 (a real event) needs a "
        f"secret key of its own, and {said} Set MCR_SECRET_KEY to a long random string, made "
        "once for the event and kept: python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )


def test_the_gunicorn_entry_point_refuses_too():
    """gunicorn imports tournament.wsgi, which loads the settings: the same refusal."""
    result = python("-c", "import tournament.wsgi", MCR_DEBUG="0")
    assert result.returncode != 0
    assert "needs a secret key of its own" in result.stderr


STATIC = "STORAGES['staticfiles']['BACKEND']"


def test_the_demo_runs_in_debug_with_static_files_from_the_apps():
    assert settings_of("DEBUG", "SECURE_SSL_REDIRECT", STATIC) == {
        "DEBUG": "True",
        "SECURE_SSL_REDIRECT": "False",
        STATIC: "django.contrib.staticfiles.storage.StaticFilesStorage",
    }


def test_a_real_event_serves_hashed_compressed_static_files_over_https():
    names = (
        "DEBUG",
        STATIC,
        "SECURE_PROXY_SSL_HEADER",
        "SESSION_COOKIE_AGE",
        "TRUSTED_PROXY_COUNT",
    )
    assert settings_of(*names, **documented_environment()) == {
        "DEBUG": "False",
        STATIC: "whitenoise.storage.CompressedManifestStaticFilesStorage",
        "SECURE_PROXY_SSL_HEADER": "('HTTP_X_FORWARDED_PROTO', 'https')",
        "SESSION_COOKIE_AGE": str(14 * 24 * 3600),
        "TRUSTED_PROXY_COUNT": "1",
    }


@pytest.mark.parametrize("value", ["true", "2"])
def test_a_flag_is_1_or_0(value):
    result = manage("check", MCR_SECURE_SSL_REDIRECT=value)
    assert result.returncode != 0
    assert f"MCR_SECURE_SSL_REDIRECT must be 1 or 0, not '{value}'." in result.stderr


def test_the_screens_ask_every_ten_seconds_unless_told():
    assert settings_of("SCREEN_POLL_SECONDS") == {"SCREEN_POLL_SECONDS": "10"}
    assert settings_of("SCREEN_POLL_SECONDS", MCR_SCREEN_SECONDS="15") == {
        "SCREEN_POLL_SECONDS": "15"
    }


@pytest.mark.parametrize(
    ("value", "said"),
    [("0", "MCR_SCREEN_SECONDS must be 1 or more."), ("ten", "must be a whole number")],
)
def test_a_screen_interval_is_a_whole_number_of_seconds(value, said):
    result = manage("check", MCR_SCREEN_SECONDS=value)
    assert result.returncode != 0
    assert said in result.stderr


CACHE = "CACHES['default']['BACKEND']"


def test_the_cache_is_each_processs_own_by_default_and_redis_when_named():
    assert settings_of(CACHE) == {CACHE: "django.core.cache.backends.locmem.LocMemCache"}
    options = "CACHES['default']['OPTIONS']"
    shared = settings_of(
        CACHE, "CACHES['default']['LOCATION']", options, MCR_REDIS_URL="redis://cache:6379/2"
    )
    assert shared == {
        # Every call that fails is a miss; a Redis that does not answer holds a request up
        # half a second at most (docs/deploy.md).
        CACHE: "tournament.server.cache.TolerantRedisCache",
        "CACHES['default']['LOCATION']": "redis://cache:6379/2",
        options: str({"socket_connect_timeout": 0.25, "socket_timeout": 0.5}),
    }


def test_sessions_are_read_from_redis_only_when_the_cache_is_shared():
    engine = "SESSION_ENGINE"
    assert settings_of(engine) == {engine: "django.contrib.sessions.backends.db"}
    shared = settings_of(engine, MCR_REDIS_URL="redis://cache:6379/2")
    assert shared == {engine: "django.contrib.sessions.backends.cached_db"}


def test_postgresql_statements_are_prepared_unless_the_url_says_otherwise():
    options = "DATABASES['default']['OPTIONS']"
    url = "postgres://mcr@db:5432/mcr"
    assert settings_of(options, DATABASE_URL=url) == {
        options: "{'server_side_binding': True, 'prepare_threshold': 5}"
    }
    plain = settings_of(options, DATABASE_URL=url + "?server_side_binding=false")
    assert plain == {options: "{'server_side_binding': False, 'prepare_threshold': 5}"}


def test_the_entry_point_is_warm_before_it_serves_and_opens_no_connection():
    """gunicorn's master loads tournament.wsgi once (``preload_app``) and forks the workers:
    what it warms up (the URLs, every project template, the widgets' templates) they share,
    and it must not have opened a database or cache connection that every worker would then
    share."""
    code = (
        "import json, tournament.wsgi\n"
        "from django.db import connections\n"
        "from django.core.cache import caches\n"
        "from django.template import engines\n"
        "from django.urls import get_resolver\n"
        "from tournament.server.warm_up import project_templates, widget_templates\n"
        "loader = engines['django'].engine.template_loaders[0]\n"
        "print(json.dumps({'urls': 'url_patterns' in vars(get_resolver()),\n"
        "    'templates': len(project_templates()),\n"
        "    'compiled': len(loader.get_template_cache),\n"
        "    'widgets': len(widget_templates()),\n"
        "    'databases': [c.connection is not None for c in connections.all()],\n"
        "    'caches': len(caches.all(initialized_only=True))}))\n"
    )
    result = python(
        "-c", code, MCR_DEBUG="0", MCR_SECRET_KEY=secrets.token_urlsafe(50),
        MCR_REDIS_URL="redis://127.0.0.1:1/0",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["urls"] is True
    assert found["templates"] > 50
    # The forms' widget templates too, compiled by the same engine.
    assert found["widgets"] > 20
    assert found["compiled"] >= found["templates"] + found["widgets"]
    assert found["databases"] == [False]
    assert found["caches"] == 0
    gunicorn = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), gunicorn)
    assert gunicorn["preload_app"] is True
