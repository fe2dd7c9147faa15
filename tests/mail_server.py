"""A real SMTP server for the e-mail tests (aiosmtpd, on a free port of 127.0.0.1): the site
sends to it through Django's SMTP backend as it would to an event's mail server, and the
tests read what arrived."""

import email
import email.policy
import socket
from dataclasses import dataclass, field

import pytest
from aiosmtpd.controller import Controller


@dataclass
class Inbox:
    """What the server received, each message parsed; ``refuse`` makes it answer every
    message with a temporary failure (a mail server that is full or down)."""

    messages: list = field(default_factory=list)
    refuse: bool = False

    async def handle_DATA(self, server, session, envelope):
        if self.refuse:
            return "451 Try again later"
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.messages.append(message)
        return "250 Message accepted"

    def to(self, address: str) -> list:
        return [message for message in self.messages if message["To"] == address]

    @staticmethod
    def text(message) -> str:
        body = message.get_body(preferencelist=("plain",)).get_content()
        return body.replace("\r\n", "\n")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server(settings):
    """A running SMTP server that the site's settings point to; its ``Inbox``."""
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.DEFAULT_FROM_EMAIL = "desk@spring-open.example"
    settings.SITE_URL = "https://mcr.example"
    try:
        yield inbox
    finally:
        controller.stop()
