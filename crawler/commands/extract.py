"""``newscrawl extract``: run the extractors on saved pages, one JSON line per page, in order.

Pages are HTML files (or standard input), or the HTML responses archived in WARC files
(``--warc FILE``, as the crawl writes them): no network is used either way.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from datetime import UTC, datetime

from extractors import SvmPolicy, extract
from extractors.errors import BadInput
from extractors.modelio import ModelError
from extractors.page import check_url
from extractors.svm_fields import policy_for
from pipelines.archive.reader import archived_pages

__all__ = ["add_parser", "extract_one", "extract_warc", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="extract title, body, page type and the article fields from saved HTML pages or WARC "
        "files",
        description="Prints one JSON line per page, in the order given: the extraction result plus "
        '"file". A page that cannot be extracted prints {"file", "error", "reason"} and the '
        "exit code is 1 once all pages are done. With --warc, the pages are the 2xx HTML response "
        "records of the WARC file, in file order (redirects, errors, robots.txt and non-HTML "
        'records are passed over); each line has "url" and "warc": {"file", "offset", "length"} '
        "of its record instead of \"file\". No network is used.",
    )
    parser.add_argument(
        "files", nargs="*", metavar="PAGE", help="HTML file, or - for standard input"
    )
    parser.add_argument(
        "--warc", action="append", default=[], metavar="FILE",
        help="a WARC file (.warc.gz or .warc) whose HTML responses are re-extracted; repeatable",
    )
    parser.add_argument(
        "--url", type=_page_url,
        help="URL of the page(s), used to resolve links and as the item url",
    )
    parser.add_argument(
        "--sibling", metavar="OTHER",
        help="a page of the same site and template: template blocks are removed by LCS matching "
        "(paper 003) before the main text is taken, on CJK pages only unless --use-sibling says "
        "otherwise; the result says whether it was used and why not",
    )
    parser.add_argument(
        "--use-sibling", choices=("auto", "always", "never"), default="auto",
        help="when --sibling is used: auto (default) only on pages whose text is Chinese, "
        "Japanese or Korean (at least 25%% of its letters CJK; LCS denoising lowers the body F1 "
        "of every Latin-script set we measured and raises it on the Chinese ones, "
        "docs/evaluation.md 'Sixth round'), always (every page: the behaviour before), never "
        "(extraction.sibling.reason says not_cjk or use_sibling=never when it was not used)",
    )
    parser.add_argument(
        "--fetched-at", metavar="ISO", type=_when,
        help="when the page was fetched (ISO 8601, default now): relative dates (\"3 hours ago\") "
        "count from it and dates more than a day after it are refused",
    )
    parser.add_argument(
        "--format", choices=("item", "dwsie"), default="item",
        help="item (default): our fields; dwsie: paper 002's shape {url, page_type (CP/LP/Unknown), "
        "titles, doc} from the DWSIE node network (docs/evaluation.md, \"DWSIE\")",
    )
    add_model_option(parser)
    parser.set_defaults(run=run)


def add_model_option(parser: argparse.ArgumentParser) -> None:
    """``--model DIR``: paper 001's SVM model (shared by extract, crawl and worker)."""
    parser.add_argument(
        "--model", metavar="DIR",
        help="switch paper 001's SVM on: it fills the title, date and author that metadata and "
        "the text rules left empty (source svm), with the model in DIR (svm_fields.npz + "
        "svm_fields.card.json, as `newscrawl train fields -o DIR` writes it; 'shipped': the "
        "package's model). Off by default: measured, it does not improve the fields "
        "(docs/evaluation.md, 'Paper 001')",
    )


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


def _page_url(value: str) -> str:
    """``--url`` refused at once (exit 2) when it does not split, rather than once per page."""
    try:
        check_url(value)
    except BadInput as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value


def extract_one(name: str, url: str | None, sibling: bytes | None = None,
                fetched_at: datetime | None = None, svm: SvmPolicy | None = None,
                fmt: str = "item", use_sibling: str = "auto") -> dict:
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
        if fmt == "dwsie":
            return {**_paper_shape(body, url, sibling), "file": name}
        result = extract(body, url=url, sibling=sibling, fetched_at=fetched_at, svm=svm,
                         use_sibling=use_sibling)
    except BadInput as error:
        return {"file": name, "error": str(error), "reason": error.reason}
    return {**result.to_dict(), "file": name}


def _paper_shape(body: bytes, url: str | None, sibling: bytes | None) -> dict:
    from extractors.dwsie import default_node_model
    from extractors.pageinfo import page_info, paper_shape

    return paper_shape(page_info(body, default_node_model(), url=url, sibling=sibling))


def extract_warc(path: Path, sibling: bytes | None = None,
                 svm: SvmPolicy | None = None, fmt: str = "item",
                 use_sibling: str = "auto") -> list[dict]:
    """The JSON-ready result of every HTML response of the WARC file ``path``."""
    pages, unread = [], []
    try:
        pages.extend(archived_pages(path))  # the pages before a damaged record are kept
    except (OSError, ValueError) as error:
        message = f"cannot read {path}: {error}"
        unread.append({"file": str(path), "error": message, "reason": "unreadable"})
    results = []
    for page in pages:
        where = {"url": page.url, "warc": page.pointer}
        if page.error:
            results.append({**where, "error": page.error, "reason": "undecodable"})
            continue
        try:
            if fmt == "dwsie":
                results.append({**_paper_shape(page.body, page.url, sibling), **where})
                continue
            result = extract(page.body, url=page.url, content_type=page.content_type,
                             sibling=sibling, svm=svm, use_sibling=use_sibling)
        except BadInput as error:
            results.append({**where, "error": str(error), "reason": error.reason})
            continue
        results.append({**result.to_dict(), **where})
    return results + unread


def run(args: argparse.Namespace) -> int:
    if not args.files and not args.warc:
        sys.stderr.write("newscrawl extract: give PAGE files or --warc FILE\n")
        return 2
    sibling = None
    if args.sibling:
        try:
            sibling = _read(args.sibling)
        except OSError as error:
            sys.stderr.write(f"newscrawl extract: cannot read sibling {args.sibling}: {error.strerror}\n")
            return 2
    try:
        svm = policy_for(args.model)
    except ModelError as error:
        sys.stderr.write(f"newscrawl extract: {error}\n")
        return 2
    results = (extract_one(name, args.url, sibling, args.fetched_at, svm, args.format,
                           args.use_sibling)
               for name in args.files)
    failed = _print(results)
    for path in args.warc:
        failed += _print(extract_warc(Path(path), sibling, svm, args.format, args.use_sibling))
    return 1 if failed else 0


def _print(results) -> int:
    """Print each result as a JSON line; return how many were errors."""
    failed = 0
    for result in results:
        failed += "error" in result
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        sys.stdout.flush()
    return failed
