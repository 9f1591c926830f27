"""redis_from_url / redis_from_settings: a client that answered PING, or RedisUnavailable."""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

import pytest
from scrapy.settings import Settings

from pipelines.redis_conn.clients import RedisUnavailable, redis_from_settings, redis_from_url


def closed_port_url() -> str:
    """A loopback URL nothing listens on (the port was free a moment ago)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_client_for_a_live_server_answers(redis_server: str) -> None:
    client = redis_from_url(redis_server)
    try:
        assert client.ping() is True
    finally:
        client.close()


def test_wrong_url_names_the_url_and_the_cause() -> None:
    url = closed_port_url()
    with pytest.raises(RedisUnavailable) as excinfo:
        redis_from_url(url)
    assert str(excinfo.value) == f"cannot reach Redis at {url}: Connection refused"


def test_password_is_hidden_in_the_message() -> None:
    url = closed_port_url().replace("redis://", "redis://crawler:s3cret@")
    with pytest.raises(RedisUnavailable) as excinfo:
        redis_from_url(url)
    assert "s3cret" not in str(excinfo.value)
    assert "redis://crawler:***@127.0.0.1:" in str(excinfo.value)


def test_invalid_url_is_reported_as_such() -> None:
    with pytest.raises(RedisUnavailable, match=r"^invalid Redis URL http://localhost:6379: "):
        redis_from_url("http://localhost:6379")


def test_from_settings_uses_newscrawl_redis_url(redis_server: str) -> None:
    client = redis_from_settings(Settings({"NEWSCRAWL_REDIS_URL": redis_server}))
    try:
        assert client.connection_pool.connection_kwargs["port"] == urlsplit(redis_server).port
    finally:
        client.close()


def test_from_settings_without_url_says_which_setting() -> None:
    with pytest.raises(ValueError, match="NEWSCRAWL_REDIS_URL is not set"):
        redis_from_settings(Settings())
