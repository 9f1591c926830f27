"""``newscrawl crawl``: crawl real sites from seed URLs (embedded, or distributed with ``--redis``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from urllib.parse import urlsplit

from crawler.commands import (
    add_common_crawl_options,
    add_redis_password_option,
    collect_seeds,
    connect_redis,
    setting_overrides,
)
from crawler.commands.extract import add_model_option
from crawler.extensions.summary import summary_text
from extractors.modelio import ModelError
from extractors.svm_fields import policy_for
from crawler.sites import SitesError, load_sites
from crawler.runner import output_settings, project_settings, run_crawl

__all__ = ["add_parser", "crawl_overrides", "run", "run_and_report"]

DESCRIPTION = """\
Crawls the given sites: same-site links only, robots.txt obeyed and AutoThrottle on by default, a
progress line on stderr while it runs, a summary at the end. Items go to DIR as JSONL, every HTTP
exchange to DIR/warc as WARC files (each with a .cdxj index), the summary to DIR/summary.json. List
pages are extracted with PSNT wrappers kept in DIR/wrappers (JSON; a later crawl into the same DIR
reuses them) and their records are requested before their other links. With --redis the crawl is
distributed: the request queue and dupefilter live in Redis (JSON, never pickle), items are also
appended to a Redis Stream, wrappers are shared in the Redis hash newscrawl:wrappers, and any number
of `newscrawl worker --redis URL` processes can join; this process closes once the shared queue has
been empty for --idle-timeout seconds. Turn wrappers off with
-s NEWSCRAWL_WRAPPERS_ENABLED=False.

Without --redis a crawl into a DIR that holds an earlier crawl's frontier (DIR/frontier.journal,
kept even after kill -9) resumes it: pages already fetched are not fetched again, the rest are;
--fresh starts over. Each run is a round: the seeds and list-shaped pages (a path ending in /, a
listing word, a page parameter) are fetched again, articles seen in an earlier round are not
(until --refetch-after DAYS, 30 by default), so a
crawl run from cron into the same DIR writes the new articles of each run; --rounds N --every S
does the same in one process.

Exit codes: 0 done; 2 bad arguments (an invalid seed URL, an unreadable --seeds file, Redis
unreachable at start); 3 Redis was away longer than NEWSCRAWL_REDIS_MAX_OUTAGE; 4 no page could
be fetched (every fetch failed: refused connections, DNS errors, error statuses) and nothing was
written."""

#: Exit code of a crawl or worker stopped because Redis was away too long.
EXIT_REDIS_OUTAGE = 3
#: Exit code of a crawl that wrote no item because every fetch failed (refused connections, DNS
#: errors, timeouts, error statuses, refused addresses): a scheduler must not take it for success.
EXIT_NOTHING_FETCHED = 4


def _days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        days = -1.0
    if not days >= 0 or days == float("inf"):
        raise argparse.ArgumentTypeError(f"not a number of days >= 0: {text!r}")
    return days


def add_crawl_policy_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--ignore-robots", action="store_true", help="do not obey robots.txt")
    parser.add_argument(
        "--no-autothrottle",
        action="store_true",
        help="turn AutoThrottle off (fixed concurrency, no adaptive delay)",
    )
    parser.add_argument(
        "--refetch-after", type=_days, metavar="DAYS", default=None,
        help="an article fetched more than DAYS days ago may be fetched and written again, the next "
        "time a front links to it (default: 30; 0: never; NEWSCRAWL_REFETCH_AFTER_DAYS; the same "
        "on every worker)",
    )  # fmt: skip
    add_model_option(parser)  # NEWSCRAWL_FIELDS_MODEL


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "crawl", help="crawl sites from seed URLs", description=DESCRIPTION
    )
    parser.add_argument("urls", nargs="*", metavar="URL", help="seed URLs")
    parser.add_argument(
        "--seeds", metavar="FILE", help="file of seed URLs, one per line (# comments)"
    )
    parser.add_argument(
        "--redis",
        metavar="URL",
        help="distributed mode: redis://HOST:PORT/DB holding the shared queue",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=10.0,
        metavar="S",
        help="with --redis: stop once the shared queue has been empty S seconds "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--sites", metavar="FILE",
        help="a sites file (TOML, one [[site]] table per site: seeds, sitemaps, feeds, every, "
        "depth, max_pages, allow, concurrency, delay; see README 'Scheduled crawls')",
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=int, default=1, metavar="N",
        help="crawl N rounds in this process: each round fetches the seeds and list-shaped pages "
        "again and only the articles not seen before (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--every", type=float, default=3600.0, metavar="S",
        help="with --rounds: seconds from one round's start to the next's (default: %(default)s)",
    )  # fmt: skip
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="start over: forget the frontier of an earlier crawl into the same --out "
        "(embedded mode; by default such a crawl resumes)",
    )
    add_redis_password_option(parser)
    add_crawl_policy_options(parser)
    add_common_crawl_options(parser)
    parser.set_defaults(run=run)


def crawl_overrides(args: argparse.Namespace) -> dict:
    """Settings from the options shared by crawl and worker."""
    overrides: dict = {
        **output_settings(Path(args.out)),
        "CLOSESPIDER_PAGECOUNT": args.max_pages,
        "NEWSCRAWL_PROGRESS_INTERVAL": args.progress_interval,
        "ROBOTSTXT_OBEY": not args.ignore_robots,
        "AUTOTHROTTLE_ENABLED": not args.no_autothrottle,
    }
    if args.depth is not None:
        overrides["DEPTH_LIMIT"] = args.depth
    if args.model:
        overrides["NEWSCRAWL_FIELDS_MODEL"] = args.model
    if args.refetch_after is not None:
        overrides["NEWSCRAWL_REFETCH_AFTER_DAYS"] = args.refetch_after
    return overrides


def run_and_report(overrides: dict, args: argparse.Namespace, seeds: list[str]) -> int:
    """Crawl with ``overrides`` plus the ``--set`` settings, print the summary."""
    try:  # a bad --model fails here, named, before anything is fetched
        policy_for(overrides.get("NEWSCRAWL_FIELDS_MODEL"))
    except ModelError as error:
        print(f"newscrawl: error: {error}", file=sys.stderr)
        return 2
    settings = project_settings(
        {**overrides, **setting_overrides(args.set)},
        log_level="INFO" if args.verbose else "WARNING",
    )
    summary = run_crawl(settings, start_urls=seeds)
    print(summary_text(summary))
    print(
        f"items: {args.out}/   WARC + CDXJ: {Path(args.out) / 'warc'}/   "
        f"summary: {Path(args.out) / 'summary.json'}"
    )
    if summary.get("finish_reason") == "redis_outage":
        print(
            "newscrawl: error: Redis was away longer than NEWSCRAWL_REDIS_MAX_OUTAGE; this worker "
            f"stopped and saved what it held in {args.out} (a worker started with the same --out "
            "replays it)",
            file=sys.stderr,
        )
        return EXIT_REDIS_OUTAGE
    failures = fetch_failures(summary)
    if failures:
        print(f"newscrawl: error: no page could be fetched ({failures}); nothing was written",
              file=sys.stderr)
        return EXIT_NOTHING_FETCHED
    return 0


def fetch_failures(summary: dict) -> str | None:
    """What made a crawl fetch nothing, when it wrote no item and had failures; else None.

    A crawl that wrote no item without any failure (a worker that found no work, a site of
    non-HTML files) is not an error.

    >>> fetch_failures({"items_written": 0, "skipped": {"http_404": 1},
    ...                 "download_errors": {"twisted.internet.error.ConnectionRefusedError": 3}})
    'ConnectionRefusedError 3, http_404 1'
    >>> fetch_failures({"items_written": 2, "download_errors": {"x.TimeoutError": 1}}) is None
    True
    """
    if summary.get("items_written", 0):
        return None
    counts = {name.rsplit(".", 1)[-1]: n for name, n in summary.get("download_errors", {}).items()}
    counts.update({k: n for k, n in summary.get("skipped", {}).items()
                   if k.startswith(("http_", "refused", "redirect_loop", "robots"))})
    counts.update({f"refused/{k}": n for k, n in summary.get("refused", {}).items()})
    if not counts:
        return None
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items()))


def sites_overrides(path: str, depth: int | None) -> dict | None:
    """Settings for a sites file (validated here: an error names the site and the key, exit 2):
    the file for the spider, each site's pace as a Scrapy download slot, the largest depth."""
    try:
        sites = load_sites(path)
    except SitesError as error:
        print(f"newscrawl: error: {error}", file=sys.stderr)
        return None
    slots = {}
    for site in sites:
        pace = {k: v for k, v in (("concurrency", site.concurrency), ("delay", site.delay))
                if v is not None}  # fmt: skip
        host = urlsplit(site.origin).hostname or ""
        if pace:
            slots.update({host: pace, f"www.{host}": pace})
    overrides: dict = {"NEWSCRAWL_SITES_FILE": str(path), "DOWNLOAD_SLOTS": slots}
    depths = [site.depth for site in sites]
    if depth is None and all(d is not None for d in depths):
        overrides["DEPTH_LIMIT"] = max(depths)
    return overrides


def run(args: argparse.Namespace) -> int:
    sites = None
    if args.sites:
        sites = sites_overrides(args.sites, args.depth)
        if sites is None:
            return 2
    seeds = collect_seeds("crawl", args.urls, args.seeds, required=sites is None)
    if seeds is None:
        return 2
    if args.rounds < 1 or args.every < 0:
        print("newscrawl crawl: error: --rounds must be at least 1 and --every not negative",
              file=sys.stderr)
        return 2
    overrides = crawl_overrides(args)
    overrides["NEWSCRAWL_FRESH"] = args.fresh
    overrides["NEWSCRAWL_ROUNDS"] = args.rounds
    overrides["NEWSCRAWL_ROUND_EVERY"] = args.every
    overrides.update(sites or {})
    if args.redis:
        connect_redis(args.redis, args.redis_password_file).close()
        # the Distributed add-on (crawler/addons.py) turns the URL into the distributed settings
        overrides.update(NEWSCRAWL_REDIS_URL=args.redis, NEWSCRAWL_IDLE_TIMEOUT=args.idle_timeout)
    return run_and_report(overrides, args, seeds)
