"""``newscrawl seed``: push seed URLs to the Redis list that idle workers pop from."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable

import redis

from crawler.commands import add_redis_password_option, collect_seeds, connect_redis
from crawler.scheduling.idle import seed_entry
from crawler.settings import NEWSCRAWL_SEEDS_KEY
from crawler.sites import SITES_KEY, SitesError, load_sites, store_sites

__all__ = ["add_parser", "push_seeds", "run", "schedule"]

DEFAULT_SEEDS_KEY = NEWSCRAWL_SEEDS_KEY


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
    parser.add_argument(
        "--sites", metavar="FILE",
        help="a sites file (TOML; see `newscrawl crawl --help`): its seeds, sitemaps and feeds are "
        "pushed, and its per-site rules (allow, depth, max_pages, concurrency, delay) stored in "
        "Redis for the workers; with --every, each site comes back on its own `every`",
    )  # fmt: skip
    parser.add_argument(
        "--every", type=float, default=0.0, metavar="S",
        help="keep running as the crawl's scheduler: push the seeds as a new round every S "
        "seconds. Several schedulers may run (e.g. one per machine): one at a time holds a lock "
        "in Redis and pushes, another takes over within 30 s when it dies",
    )  # fmt: skip
    parser.add_argument("--rounds", type=int, default=0, metavar="N",
                        help="with --every: stop after pushing N rounds (default: run until "
                        "stopped)")  # fmt: skip
    add_redis_password_option(parser)
    parser.set_defaults(run=run)


#: The scheduler's lock lives this long unless renewed (a dead scheduler's successor waits as long).
LOCK_MS = 30_000
#: A scheduler looks at the lock and the schedule this often.
TICK_S = 1.0

_HOLD = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
_DUE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local next_at = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < next_at then return 0 end
redis.call('SET', KEYS[1], now + tonumber(ARGV[1]))
return 1
"""


def schedule(client: redis.Redis, key: str, groups: list[tuple[str, list[str], float]],
             rounds: int, stopped: Callable[[], bool]) -> int:  # fmt: skip
    """Push each group ``(name, urls, every_s)`` as a new round every ``every_s`` seconds while
    this process holds the scheduler lock ``<key>:scheduler``; each group's next round time is
    kept in Redis (``<key>:next_round:<name>``), so a scheduler that takes over keeps the
    schedule. Returns the rounds this process pushed."""
    me = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    hold, due = client.register_script(_HOLD), client.register_script(_DUE)
    pushed, holding = 0, False
    try:
        while not stopped() and not (rounds and pushed >= rounds):
            try:
                holding_now = bool(hold(keys=[f"{key}:scheduler"], args=[me, LOCK_MS]))
                if holding_now != holding:
                    holding = holding_now
                    print(f"scheduler {me}: " + ("holding the lock" if holding else
                          "another scheduler holds the lock; waiting"), flush=True)
                for name, urls, every_s in groups if holding else ():
                    if due(keys=[f"{key}:next_round:{name}"], args=[int(every_s * 1000)]):
                        crawl_round, length = push_seeds(client, key, urls)
                        pushed += 1
                        print(f"pushed {len(urls)} seed URLs to {key} as round {crawl_round} "
                              f"({length} waiting)", flush=True)  # fmt: skip
            except redis.ConnectionError as error:  # Redis away: try again next tick
                print(f"scheduler {me}: Redis unreachable ({error}); retrying", file=sys.stderr)
            time.sleep(TICK_S)
    finally:
        if holding:  # let a successor take over at once
            with contextlib.suppress(redis.RedisError):
                if client.get(f"{key}:scheduler") == me.encode():
                    client.delete(f"{key}:scheduler")
    return pushed


def push_seeds(client: redis.Redis, key: str, urls: list[str]) -> tuple[int, int]:
    """RPUSH the URLs to ``key`` as one new round (the counter ``<key>:round``, :mod:`crawler.rounds`):
    (the round, the list's new length)."""
    crawl_round = int(client.incr(f"{key}:round"))
    return crawl_round, int(client.rpush(key, *(seed_entry(url, crawl_round) for url in urls)))


def run(args: argparse.Namespace) -> int:
    sites = []
    if args.sites:
        try:
            sites = load_sites(args.sites)
        except SitesError as error:
            print(f"newscrawl seed: error: {error}", file=sys.stderr)
            return 2
    urls = collect_seeds("seed", args.urls, args.seeds, required=not sites)
    if urls is None:
        return 2
    client = connect_redis(args.redis, args.redis_password_file)
    if args.sites:
        store_sites(client, sites)
        print(f"stored the rules of {len(sites)} sites for the workers ({SITES_KEY})")
    if args.every > 0:
        stop = threading.Event()
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stop.set())
        groups = [(site.origin, site.start_urls, site.every or args.every) for site in sites]
        if urls:
            groups.append(("seeds", urls, args.every))
        schedule(client, args.key, groups, args.rounds, stop.is_set)
        return 0
    urls = urls + [url for site in sites for url in site.start_urls]
    crawl_round, length = push_seeds(client, args.key, urls)
    print(f"pushed {len(urls)} seed URLs to {args.key} as round {crawl_round} ({length} waiting)")
    return 0
