"""``newscrawl extract``: run the extractors on saved pages, one JSON line per page, in order."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime

from extractors import extract
from extractors.errors import BadInput

__all__ = ["add_parser", "extract_one", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="extract title, body, page type and the article fields from saved HTML pages",
        description="Prints one JSON line per page, in the order given: the extraction result plus "
        '"file". A page that cannot be extracted prints {"file", "error", "reason"} and the '
        "exit code is 1 once all pages are done.",
    )
    parser.add_argument(
        "files", nargs="+", metavar="PAGE", help="HTML file, or - for standard input"
    )
    parser.add_argument(
        "--url", help="URL of the page(s), used to resolve links and as the item url"
    )
    parser.add_argument(
        "--sibling", metavar="OTHER",
        help="a page of the same site and template: template blocks are removed by LCS matching "
        "(paper 003) before the main text is taken; the result says whether it was used",
    )
    parser.add_argument(
        "--fetched-at", metavar="ISO", type=_when,
        help="when the page was fetched (ISO 8601, default now): relative dates (\"3 hours ago\") "
        "count from it and dates more than a day after it are refused",
    )
    parser.set_defaults(run=run)


def _when(value: str) -> datetime:
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 date: {value!r}") from error
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _read(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    with open(name, "rb") as page:
        return page.read()


def extract_one(name: str, url: str | None, sibling: bytes | None = None,
                fetched_at: datetime | None = None) -> dict:
    """The JSON-ready result for one page file (``-`` = stdin); errors become a result too."""
    try:
        body = _read(name)
    except OSError as error:
        return {
            "file": name,
            "error": f"cannot read {name}: {error.strerror}",
            "reason": "unreadable",
        }
    try:
        result = extract(body, url=url, sibling=sibling, fetched_at=fetched_at)
    except BadInput as error:
        return {"file": name, "error": str(error), "reason": error.reason}
    return {**result.to_dict(), "file": name}


def run(args: argparse.Namespace) -> int:
    sibling = None
    if args.sibling:
        try:
            sibling = _read(args.sibling)
        except OSError as error:
            sys.stderr.write(f"newscrawl extract: cannot read sibling {args.sibling}: {error.strerror}\n")
            return 2
    failed = 0
    for name in args.files:
        result = extract_one(name, args.url, sibling, args.fetched_at)
        failed += "error" in result
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return 1 if failed else 0
