"""Subcommands of the ``newscrawl`` CLI, one module each; each has ``add_parser`` and ``run``."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from urllib.parse import urlsplit

import redis

from pipelines.redis_conn.clients import PASSWORD_ENV, RedisUnavailable, redis_from_url

__all__ = [
    "RedisStartupError",
    "add_common_crawl_options",
    "add_redis_password_option",
    "collect_seeds",
    "connect_redis",
    "positive_int",
    "setting_overrides",
]


def positive_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def add_common_crawl_options(
    parser: argparse.ArgumentParser,
    default_out: str = "output",
    depth_default: str = "no limit",
) -> None:
    """--out, --max-pages, --depth, --progress-interval, --verbose."""
    parser.add_argument(
        "--out",
        default=default_out,
        metavar="DIR",
        help="output folder: JSONL items and summary.json in DIR, WARC files in "
        "DIR/warc (default: %(default)s)",
    )
    parser.add_argument(
        "--max-pages",
        type=positive_int,
        default=0,
        metavar="N",
        help="stop after N responses (Scrapy CLOSESPIDER_PAGECOUNT; per process; requests "
        "already in flight still finish, so a few more pages may be fetched); "
        "0 = no limit (default)",
    )
    parser.add_argument(
        "--depth",
        type=positive_int,
        default=None,
        metavar="D",
        help="follow links at most D steps from the seeds (DEPTH_LIMIT); default: " + depth_default,
    )
    parser.add_argument(
        "--progress-interval",
        type=float,
        default=10.0,
        metavar="S",
        help="print a progress line on stderr every S seconds; 0 = never (default: 10)",
    )
    parser.add_argument(
        "-s",
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a Scrapy setting, as `scrapy crawl -s` does (repeatable; applied last)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log Scrapy's INFO messages")


def setting_overrides(pairs: list[str]) -> dict[str, str]:
    """``["NAME=VALUE", ...]`` from ``--set`` → a settings dict (values stay strings, as in Scrapy)."""
    overrides: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise SystemExit(f"newscrawl: error: --set expects NAME=VALUE, got {pair!r}")
        overrides[name.strip()] = value
    return overrides


class RedisStartupError(SystemExit):
    """Exit with code 2 after printing why Redis cannot be used."""


def add_redis_password_option(parser: argparse.ArgumentParser) -> None:
    """--redis-password-file FILE (the password otherwise comes from the URL or the environment)."""
    parser.add_argument(
        "--redis-password-file",
        metavar="FILE",
        help=f"read the Redis password from FILE (first line) instead of the URL, which shows in "
        f"`ps`; or set ${PASSWORD_ENV}",
    )


def connect_redis(url: str, password_file: str | None = None) -> redis.Redis:
    """A Redis client that answered PING, or print the reason and exit with code 2.

    ``password_file``: its first line becomes ``$NEWSCRAWL_REDIS_PASSWORD`` for this process, which
    every Redis client of the crawl reads when the URL has no password."""
    if password_file:
        try:
            lines = Path(password_file).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            print(f"newscrawl: error: cannot read --redis-password-file: {error}", file=sys.stderr)
            raise RedisStartupError(2) from error
        os.environ[PASSWORD_ENV] = lines[0].strip() if lines else ""
    try:
        return redis_from_url(url)
    except RedisUnavailable as error:
        print(f"newscrawl: error: {error}", file=sys.stderr)
        raise RedisStartupError(2) from error


def collect_seeds(
    command: str, urls: list[str], seeds_file: str | None, required: bool = True
) -> list[str] | None:
    """The seed URLs from the arguments and ``--seeds FILE``; ``None`` after printing an error
    naming the problem (no URLs at all, or a file that cannot be read)."""
    from crawler.spiders.news import read_seeds

    seeds = list(urls)
    if seeds_file:
        try:
            seeds += read_seeds(Path(seeds_file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            print(f"newscrawl {command}: error: cannot read --seeds {seeds_file}: {error}",
                  file=sys.stderr)
            return None
    if not seeds and required:
        print(f"newscrawl {command}: error: no seed URLs (give URLs or --seeds FILE)",
              file=sys.stderr)
        return None
    for url in seeds:
        problem = seed_problem(url)
        if problem:
            print(f"newscrawl {command}: error: invalid seed {url!r}: {problem}", file=sys.stderr)
            return None
    return seeds


def seed_problem(url: str) -> str | None:
    """Why ``url`` cannot be a seed, or None: an absolute http(s) URL with a host and a valid port.

    >>> seed_problem("https://example.com/news/"), seed_problem("example.com")
    (None, 'not an absolute http(s) URL (did you mean http://example.com/ ?)')
    >>> seed_problem("ftp://example.com/"), seed_problem("http://example.com:99999/")
    ("scheme 'ftp' is not fetched (http, https only)", 'bad port')
    """
    from crawler.scope import FETCHABLE_SCHEMES

    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        hint = f" (did you mean http://{url.strip('/')}/ ?)" if "." in url and " " not in url else ""
        return f"not an absolute http(s) URL{hint}"
    if parts.scheme.lower() not in FETCHABLE_SCHEMES:
        return f"scheme {parts.scheme!r} is not fetched (http, https only)"
    try:
        parts.port  # noqa: B018 (raises on a bad port)
    except ValueError:
        return "bad port"
    if not parts.hostname:
        return "no host"
    return None
