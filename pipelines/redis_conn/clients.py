"""Every Redis client of newscrawl is made here, from the one setting ``NEWSCRAWL_REDIS_URL``.

- :func:`crawler_redis`: the one client of a crawl (a worker). Everything in a worker that talks to
  Redis takes it: the scheduler and scrapy-redis's queue and dupefilter, the
  :class:`~pipelines.redis_conn.link.RedisLink` (requests found, acknowledgements, stream items,
  seeds, shared politeness, site rules), the sibling and wrapper stores. One
  :class:`redis.BlockingConnectionPool` of at most :data:`MAX_CONNECTIONS` connections, named
  :data:`CLIENT_NAME` (``CLIENT LIST`` shows them), closed when the engine stops.
- :func:`redis_from_url`: a one-off client that has just answered PING (the CLI's start-up check
  and its own commands: ``seed``, ``consume``, ``wrappers``), so that a wrong URL fails with a
  clear message.

The module sits in ``pipelines`` (below ``crawler``, see ``tests/test_layers.py``) so that both
packages can import it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlsplit, urlunsplit
from weakref import WeakKeyDictionary

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.retry import Retry
from scrapy import signals

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.settings import BaseSettings

__all__ = [
    "CLIENT_NAME",
    "CLI_CLIENT_NAME",
    "MAX_CONNECTIONS",
    "PASSWORD_ENV",
    "RedisUnavailable",
    "check_reachable",
    "crawl_client",
    "crawler_redis",
    "password_kwargs",
    "per_crawler",
    "redacted_url",
    "redis_from_settings",
    "redis_from_url",
]

T = TypeVar("T")

#: The setting holding the crawl's Redis URL (``--redis URL``); the only one newscrawl reads.
URL_SETTING = "NEWSCRAWL_REDIS_URL"

#: One-off clients (:func:`redis_from_url`): seconds to wait for a TCP connection / a reply before
#: calling Redis unreachable.
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

#: The crawl's client (:func:`crawler_redis`). Short timeouts, so that a dead server is noticed
#: quickly (calls on the reactor thread wait at most this long; a store read in a worker thread
#: costs its page at most this long), and no retry inside redis-py: the RedisLink retries with
#: back-off (redis-py's own retries would block the reactor on every call).
CRAWL_CONNECT_TIMEOUT_S = 2.0
CRAWL_SOCKET_TIMEOUT_S = 5.0
#: A connection idle longer than this is PINGed before use (one the server closed, e.g. on a
#: restart, is also reconnected when the pool hands it out).
HEALTH_CHECK_INTERVAL_S = 30
#: Connections of the crawl's pool: one for the reactor thread, the rest for worker threads (store
#: reads, the link's probe). A caller finding all busy waits at most POOL_WAIT_S for one.
MAX_CONNECTIONS = 4
POOL_WAIT_S = CRAWL_SOCKET_TIMEOUT_S
#: ``CLIENT SETNAME`` of every connection of a crawl's pool, and of the one-off clients.
CLIENT_NAME = "newscrawl-worker"
CLI_CLIENT_NAME = "newscrawl-cli"


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
    kwargs.setdefault("client_name", CLI_CLIENT_NAME)
    kwargs.setdefault("socket_connect_timeout", CONNECT_TIMEOUT_S)
    kwargs.setdefault("socket_timeout", SOCKET_TIMEOUT_S)
    if "retry" not in kwargs:
        backoff = ExponentialBackoff(cap=CLIENT_BACKOFF_CAP_S, base=CLIENT_BACKOFF_BASE_S)
        kwargs["retry"] = Retry(backoff, CLIENT_RETRIES)
    try:
        client = redis.Redis.from_url(url, **kwargs)
    except ValueError as exc:
        raise RedisUnavailable(f"invalid Redis URL {redacted_url(url)}: {exc}") from exc
    try:
        check_reachable(client, url)
    except RedisUnavailable:
        client.close()
        raise
    return client


def redis_from_settings(settings: BaseSettings, **kwargs: Any) -> redis.Redis:
    """:func:`redis_from_url` for ``NEWSCRAWL_REDIS_URL``; ValueError when it is unset."""
    return redis_from_url(crawl_redis_url(settings), **kwargs)


def _cause(exc: BaseException) -> str:
    """The most precise human reason: the OS error under redis-py's wrapper when there is one."""
    inner = exc.__cause__ or exc.__context__
    if isinstance(inner, OSError) and inner.strerror:
        return inner.strerror
    return str(exc) or type(exc).__name__


def check_reachable(client: redis.Redis, url: str) -> None:
    """PING ``client``; :class:`RedisUnavailable` naming ``url`` (password hidden) and the cause."""
    try:
        client.ping()
    except redis.RedisError as exc:
        raise RedisUnavailable(f"cannot reach Redis at {redacted_url(url)}: {_cause(exc)}") from exc


def crawl_client(url: str) -> redis.Redis:
    """A new client with the crawl's pool and defaults (see the constants above); not PINGed.

    Use :func:`crawler_redis` in a crawl: this is what it builds, once per crawler."""
    pool = redis.BlockingConnectionPool.from_url(
        url,
        max_connections=MAX_CONNECTIONS,
        timeout=POOL_WAIT_S,
        socket_connect_timeout=CRAWL_CONNECT_TIMEOUT_S,
        socket_timeout=CRAWL_SOCKET_TIMEOUT_S,
        health_check_interval=HEALTH_CHECK_INTERVAL_S,
        retry=Retry(NoBackoff(), 0),
        client_name=CLIENT_NAME,
        **password_kwargs(url),
    )
    return redis.Redis.from_pool(pool)


def crawl_redis_url(settings: BaseSettings) -> str:
    """``NEWSCRAWL_REDIS_URL``; ValueError when it is unset (the crawl is not distributed)."""
    url = settings.get(URL_SETTING)
    if not url:
        raise ValueError(f"{URL_SETTING} is not set: no Redis URL to connect to")
    return str(url)


#: Objects made once per crawler (its Redis client, its RedisLink, its lease tracker), keyed on
#: the crawler itself: nothing is set on Scrapy's objects.
_PER_CRAWLER: WeakKeyDictionary[Any, dict[str, Any]] = WeakKeyDictionary()


def per_crawler(crawler: Crawler, name: str, make: Callable[[], T]) -> T:
    """The ``name`` object of ``crawler``: ``make()`` on first use, the same object after.

    The crawler's entries are dropped when its engine stops."""
    objects = _PER_CRAWLER.get(crawler)
    if objects is None:
        objects = _PER_CRAWLER[crawler] = {}
        crawler.signals.connect(lambda: _PER_CRAWLER.pop(crawler, None),
                                signal=signals.engine_stopped, weak=False)  # fmt: skip
    if name not in objects:
        objects[name] = make()
    return objects[name]


def crawler_redis(crawler: Crawler) -> redis.Redis:
    """The one Redis client of ``crawler``, from ``NEWSCRAWL_REDIS_URL`` (ValueError when unset).

    Built on first use (no network until a command runs), shared by every part of the crawl,
    closed when the engine stops."""

    def make() -> redis.Redis:
        client = crawl_client(crawl_redis_url(crawler.settings))
        crawler.signals.connect(client.close, signal=signals.engine_stopped, weak=False)
        return client

    return per_crawler(crawler, "redis", make)
