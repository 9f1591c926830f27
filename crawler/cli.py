"""The ``newscrawl`` command line: demo, crawl, worker, seed, consume, extract, induce, apply,
wrappers, train, serve, eval, bench, serve-bench, crawl-bench, seen-bench."""

from __future__ import annotations

import argparse
import logging
import os
import sys

from crawler.commands import (
    apply, consume, crawl, crawl_bench, demo, extract, induce, seed, seen_bench, serve, serve_bench,
    train, worker, wrappers,
)
from evaluation import benchmark
from evaluation import cli as evaluation

logger = logging.getLogger(__name__)

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="newscrawl",
        description="Crawl news sites and extract their articles (Scrapy; embedded or distributed on Redis).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    subparsers = parser.add_subparsers(title="commands", metavar="COMMAND", required=True)
    for command in (demo, crawl, worker, seed, consume, extract, induce, apply, wrappers, train,
                    serve, serve_bench, crawl_bench, seen_bench):
        command.add_parser(subparsers)
    evaluation.register(subparsers)
    benchmark.register(subparsers)
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("newscrawl")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader of our output went away (`newscrawl apply ... | head`): stop quietly, as
        # Unix tools do. stdout now points at devnull, so the interpreter's last flush is silent.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
