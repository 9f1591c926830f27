"""``newscrawl seed``: push seed URLs to the Redis list that idle workers pop from."""

from __future__ import annotations

import argparse

import redis

from crawler.commands import add_redis_password_option, collect_seeds, connect_redis
from crawler.scheduling.idle import seed_entry

__all__ = ["add_parser", "push_seeds", "run"]

DEFAULT_SEEDS_KEY = "newscrawl:seeds"  # = NEWSCRAWL_SEEDS_KEY in crawler/settings.py


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "seed",
        help="push seed URLs for distributed workers",
        description="Appends seed URLs to the Redis list workers pop from when idle "
        f"(key {DEFAULT_SEEDS_KEY}). Each call is a round: the seeds and the list-shaped pages "
        "they lead to are fetched again; articles already crawled are skipped by the shared "
        "dupefilter.",
    )
    parser.add_argument("urls", nargs="*", metavar="URL", help="seed URLs")
    parser.add_argument("--redis", required=True, metavar="URL", help="redis://HOST:PORT/DB")
    parser.add_argument(
        "--seeds", metavar="FILE", help="file of seed URLs, one per line (# comments)"
    )
    parser.add_argument(
        "--key", default=DEFAULT_SEEDS_KEY, help="Redis list key (default: %(default)s)"
    )
    add_redis_password_option(parser)
    parser.set_defaults(run=run)


def push_seeds(client: redis.Redis, key: str, urls: list[str]) -> tuple[int, int]:
    """RPUSH the URLs to ``key`` as one new round (the counter ``<key>:round``, :mod:`crawler.rounds`):
    (the round, the list's new length)."""
    crawl_round = int(client.incr(f"{key}:round"))
    return crawl_round, int(client.rpush(key, *(seed_entry(url, crawl_round) for url in urls)))


def run(args: argparse.Namespace) -> int:
    urls = collect_seeds("seed", args.urls, args.seeds)
    if urls is None:
        return 2
    client = connect_redis(args.redis, args.redis_password_file)
    crawl_round, length = push_seeds(client, args.key, urls)
    print(f"pushed {len(urls)} seed URLs to {args.key} as round {crawl_round} ({length} waiting)")
    return 0
