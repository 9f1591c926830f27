"""Settings → Redis client, PINGed at once so that a wrong URL fails with a clear message."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.retry import Retry

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = [
    "PASSWORD_ENV",
    "RedisUnavailable",
    "password_kwargs",
    "redacted_url",
    "redis_from_settings",
    "redis_from_url",
    "store_client",
]

#: Seconds to wait for a TCP connection / a reply before calling Redis unreachable.
CONNECT_TIMEOUT_S = 5.0
SOCKET_TIMEOUT_S = 10.0
#: redis-py's own retry of one command on a dropped connection: 3 retries after 0.1, 0.2, 0.4 s
#: (redis-py's default backs off from 1 s, which makes a wrong URL take seconds to report).
CLIENT_RETRIES = 3
CLIENT_BACKOFF_BASE_S = 0.05
CLIENT_BACKOFF_CAP_S = 1.0


#: Environment variable holding the Redis password when the URL has none (``--redis-password-file``
#: sets it in the process from a file), so the password never shows in ``ps`` or in logged settings.
PASSWORD_ENV = "NEWSCRAWL_REDIS_PASSWORD"

#: Seconds a shared store (siblings, wrappers) waits for Redis before the page goes on without it.
STORE_TIMEOUT_S = 2.0


class RedisUnavailable(RuntimeError):
    """Redis cannot be used: the URL is invalid, or the server does not answer PING."""


def redacted_url(url: str) -> str:
    """``url`` with its password replaced by ``***``, for messages and logs.

    >>> redacted_url("redis://user:secret@db.example:6379/0")
    'redis://user:***@db.example:6379/0'
    >>> redacted_url("redis://127.0.0.1:6379/0")
    'redis://127.0.0.1:6379/0'
    """
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rpartition("@")[2]
        netloc = f"{parts.username or ''}:***@{host}"
        return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "<unparseable URL>"


def password_kwargs(url: str) -> dict[str, str]:
    """``{"password": ...}`` from ``$NEWSCRAWL_REDIS_PASSWORD`` when ``url`` carries none, else {}.

    >>> import os; os.environ.pop(PASSWORD_ENV, None) and None
    >>> password_kwargs("redis://db:6379/0")
    {}
    """
    password = os.environ.get(PASSWORD_ENV)
    try:
        has_own = urlsplit(url).password is not None
    except ValueError:
        has_own = False
    return {"password": password} if password and not has_own else {}


def redis_from_url(url: str, **kwargs: Any) -> redis.Redis:
    """A :class:`redis.Redis` client for ``url`` that has just answered PING.

    Keyword arguments go to :meth:`redis.Redis.from_url`. Raises :class:`RedisUnavailable`
    naming the URL (password hidden) and the cause, e.g.
    ``cannot reach Redis at redis://127.0.0.1:6379/0: Connection refused``.
    """
    kwargs = {**password_kwargs(url), **kwargs}
    kwargs.setdefault("socket_connect_timeout", CONNECT_TIMEOUT_S)
    kwargs.setdefault("socket_timeout", SOCKET_TIMEOUT_S)
    if "retry" not in kwargs:
        backoff = ExponentialBackoff(cap=CLIENT_BACKOFF_CAP_S, base=CLIENT_BACKOFF_BASE_S)
        kwargs["retry"] = Retry(backoff, CLIENT_RETRIES)
    shown = redacted_url(url)
    try:
        client = redis.Redis.from_url(url, **kwargs)
    except ValueError as exc:
        raise RedisUnavailable(f"invalid Redis URL {shown}: {exc}") from exc
    try:
        client.ping()
    except redis.RedisError as exc:
        client.close()
        raise RedisUnavailable(f"cannot reach Redis at {shown}: {_cause(exc)}") from exc
    return client


def redis_from_settings(
    settings: BaseSettings, setting: str = "NEWSCRAWL_REDIS_URL", **kwargs: Any
) -> redis.Redis:
    """:func:`redis_from_url` for the URL in ``settings[setting]``; ValueError when it is unset."""
    url = settings.get(setting)
    if not url:
        raise ValueError(f"{setting} is not set: no Redis URL to connect to")
    return redis_from_url(str(url), **kwargs)


def _cause(exc: BaseException) -> str:
    """The most precise human reason: the OS error under redis-py's wrapper when there is one."""
    inner = exc.__cause__ or exc.__context__
    if isinstance(inner, OSError) and inner.strerror:
        return inner.strerror
    return str(exc) or type(exc).__name__


def store_client(url: str) -> redis.Redis:
    """A client for the crawl's shared stores (siblings, wrappers): short timeouts and no retry, so
    an outage costs a page ``STORE_TIMEOUT_S`` at most; the caller counts the error and goes on.
    Not PINGed: the crawl's start-up check has already reached the same server."""
    return redis.Redis.from_url(url, socket_connect_timeout=STORE_TIMEOUT_S,
                                socket_timeout=STORE_TIMEOUT_S, retry=Retry(NoBackoff(), 0),
                                **password_kwargs(url))
