"""``newscrawl worker``: join a distributed crawl on Redis and work until told to stop."""

from __future__ import annotations

import argparse

from crawler.commands import add_common_crawl_options, add_redis_password_option, connect_redis
from crawler.commands.crawl import add_crawl_policy_options, crawl_overrides, run_and_report

__all__ = ["add_parser", "run"]

DESCRIPTION = """\
Joins the crawl whose shared queue is in Redis: takes requests from the shared queue, and when it
is idle pops seed URLs pushed by `newscrawl seed` and schedules them. It waits for work forever,
unless --idle-timeout S is given: then it closes once the shared queue has been empty for S seconds
(checked about every 5 s); while it has nothing to fetch it looks at the shared queue every 0.2 s
(NEWSCRAWL_QUEUE_POLL_INTERVAL). Stopping a worker never clears the shared queue. Items go to DIR (JSONL),
DIR/warc (WARC) and the Redis Stream newscrawl:items; list-page wrappers (PSNT) are shared by all
workers in the Redis hash newscrawl:wrappers.

A request taken from the shared queue is leased, not popped: if this worker dies, its requests go
back to the queue within about 35 s and another worker fetches them. While Redis is away the worker
holds what it finds (requests, items, acknowledgements) and replays it when Redis is back; away
longer than NEWSCRAWL_REDIS_MAX_OUTAGE (300 s) it stops with exit code 3, saving what it holds in
DIR/held-redis.journal, replayed by the next worker started with the same --out. The Redis password
can come from --redis-password-file or $NEWSCRAWL_REDIS_PASSWORD instead of the URL."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "worker", help="join a distributed crawl on Redis", description=DESCRIPTION
    )
    parser.add_argument(
        "--redis",
        required=True,
        metavar="URL",
        help="redis://HOST:PORT/DB holding the shared queue",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=0.0,
        metavar="S",
        help="close after the shared queue has been empty S seconds; "
        "0 = wait for work forever (default)",
    )
    add_redis_password_option(parser)
    add_crawl_policy_options(parser)
    add_common_crawl_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    connect_redis(args.redis, args.redis_password_file).close()
    # the Distributed add-on (crawler/addons.py) turns the URL into the distributed settings
    overrides = {**crawl_overrides(args), "NEWSCRAWL_REDIS_URL": args.redis,
                 "NEWSCRAWL_IDLE_TIMEOUT": args.idle_timeout}
    return run_and_report(overrides, args, seeds=[])
