"""/healthz, which a process manager or load balancer polls: 200 while the app reaches its
database, 503 when it cannot; answered to any host name, over plain HTTP, without a login.
A shared cache that cannot be reached is a second line (and 503 for ``?cache=1`` only), so
is a task queue without a live worker or behind (503 for ``?tasks=1`` only)."""

import socket
from datetime import timedelta
from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tournament.models import TaskWorker
from tournament.server import cache as tolerant_cache
from tournament.server.task_worker import beat
from tournament.services.mail import emails_deliver

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def live_worker(db):
    """A task worker that has just beaten, as `make serve` runs one."""
    beat("worker-1", started_at=timezone.now())


def test_up_with_its_database():
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Cache-Control"] == "no-store"
    assert Client().head("/healthz").status_code == 200


def test_503_when_the_database_cannot_be_reached(caplog):
    with mock.patch.object(
        connection, "cursor", side_effect=OperationalError("connection refused")
    ):
        response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.content == b"database unreachable\n"
    assert "Health check: the database cannot be reached: connection refused" in caplog.text


@override_settings(ALLOWED_HOSTS=["mcr.example.org"], SECURE_SSL_REDIRECT=True)
def test_answered_by_address_over_plain_http():
    """The checker asks by the machine's address, over HTTP; other pages would refuse that."""
    client = Client(HTTP_HOST="10.0.0.5:8000")
    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 400
    assert Client(HTTP_HOST="mcr.example.org").get("/").status_code == 301


def test_only_reads():
    response = Client().post("/healthz")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"


def unreachable_redis():
    """A shared cache whose Redis cannot be reached: a port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return {
        "default": {
            "BACKEND": "tournament.server.cache.TolerantRedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }


@pytest.fixture
def redis_away():
    with override_settings(CACHES=unreachable_redis()):
        yield
    tolerant_cache.forget_outages()


def test_up_without_its_redis_says_so(redis_away):
    """The pages are drawn without the cache: still up (a load balancer keeps the server),
    with a line for whoever reads it."""
    response = Client().get("/healthz")
    assert response.status_code == 200
    first, second = response.content.decode().splitlines()
    assert first == "ok"
    assert second.startswith("cache unreachable for ")
    assert second.endswith(" s: pages are drawn without it")


def test_the_cache_check_answers_503_without_its_redis(redis_away):
    """``?cache=1``: for a monitor that should raise the alarm about Redis."""
    response = Client().get("/healthz?cache=1")
    assert response.status_code == 503
    assert response.content.decode().startswith("ok\ncache unreachable for ")


def test_the_cache_check_answers_200_with_a_cache_that_answers():
    response = Client().get("/healthz?cache=1")
    assert (response.status_code, response.content) == (200, b"ok\n")


def test_no_live_task_worker_is_a_second_line_and_503_for_the_workers_monitor():
    TaskWorker.objects.update(beat_at=timezone.now() - timedelta(seconds=11))
    emails_deliver.enqueue()
    response = Client().get("/healthz")
    assert response.status_code == 200  # the pages serve: no load balancer takes it out
    assert response.content == b"ok\nno task worker is running (1 task waiting)\n"
    assert Client().get("/healthz?tasks=1").status_code == 503
    beat("worker-2", started_at=timezone.now())
    assert Client().get("/healthz?tasks=1").content == b"ok\n"


def test_a_queue_behind_is_a_second_line():
    emails_deliver.enqueue()
    assert Client().get("/healthz").content == b"ok\n"  # waiting for a second: fine
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(seconds=61))
    response = Client().get("/healthz?tasks=1")
    assert response.status_code == 503
    assert response.content == (
        b"ok\nthe task queue is behind: 1 task waiting, the oldest for 61 s\n"
    )
