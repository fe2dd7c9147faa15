"""/healthz, which a process manager or load balancer polls: 200 while the app reaches its
database, 503 when it cannot; answered to any host name, over plain HTTP, without a login."""

from unittest import mock

import pytest
from django.db import OperationalError, connection
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


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
