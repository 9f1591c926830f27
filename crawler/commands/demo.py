"""``newscrawl demo``: serve the bundled demo site on a loopback port and crawl it with the full pipeline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from crawler.commands import add_common_crawl_options, setting_overrides
from crawler.demo.server import DemoServer, load_site
from crawler.extensions.summary import summary_text
from crawler.runner import output_settings, project_settings, run_crawl

__all__ = ["add_parser", "crawl_settings", "run"]

HELP = "serve the bundled demo site (real news pages from a WARC) and crawl it"
DESCRIPTION = """\
Serves the demo site (30 real news pages from the MIT-licensed cx_163 and cx_bbc datasets, generated
index pages, a robots.txt and a few bad-input URLs, all replayed from crawler/demo/site.warc.gz) on
127.0.0.1, crawls it with the full pipeline (WARC archive, extraction, a PSNT wrapper induced from
the two generated section pages, JSONL sink), and prints a summary. AutoThrottle is turned off for the demo because the site is on loopback; robots.txt is obeyed.
With --serve-only it only serves the site until interrupted."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("demo", help=HELP, description=DESCRIPTION)
    parser.add_argument(
        "--serve-only",
        action="store_true",
        help="serve the demo site and wait (Ctrl-C to stop); no crawl",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=0,
        help="port on 127.0.0.1 to serve on (default: 0 = any free port)",
    )
    add_common_crawl_options(
        parser, depth_default="the demo site's own depth (2: index, section, article)"
    )
    parser.set_defaults(run=run)


def crawl_settings(out: Path, depth_limit: int, args: argparse.Namespace) -> dict:
    """Settings of the demo crawl: loopback, so no AutoThrottle and more parallel requests."""
    return {
        **output_settings(out),
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        "DOWNLOAD_DELAY": 0,
        "DEPTH_LIMIT": depth_limit if args.depth is None else args.depth,
        "CLOSESPIDER_PAGECOUNT": args.max_pages,
        "NEWSCRAWL_PROGRESS_INTERVAL": args.progress_interval,
        "NEWSCRAWL_FRESH": True,  # the demo always crawls its site from the start
    }


def serve_only(server: DemoServer) -> int:
    print(f"serving the demo site at {server.base_url}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def run(args: argparse.Namespace) -> int:
    site = load_site()
    server = DemoServer(site, port=args.port)
    if args.serve_only:
        return serve_only(server)
    server.start()
    try:
        out = Path(args.out)
        print(
            f"crawling the demo site at {server.base_url}/ into {out}/", file=sys.stderr, flush=True
        )
        overrides = {
            **crawl_settings(out, site.manifest["depth_limit"], args),
            **setting_overrides(args.set),
        }
        settings = project_settings(overrides, log_level="INFO" if args.verbose else "WARNING")
        summary = run_crawl(settings, start_urls=server.seed_urls())
    finally:
        server.stop()
    print(summary_text(summary))
    print(f"items: {out}/   WARC + CDXJ: {out / 'warc'}/   summary: {out / 'summary.json'}")
    return 0
