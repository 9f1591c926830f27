"""``newscrawl induce``: a PSNT wrapper (paper 004) from two saved list pages of one template."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from extractors import parse_page
from extractors.errors import BadInput
from extractors.psnt import induce_wrapper

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "induce",
        help="induce a list-page wrapper (PSNT) from two pages of one template",
        description="Induces a PSNT wrapper (paper 004) from two list pages built from the same "
        "template: links both pages share are removed as template navigation, then the main "
        "structure, its standard links and its information structures (one per record) are "
        "found on the first page. Prints the wrapper in the paper's notation and as XPath and "
        "writes it as JSON for `newscrawl apply`. Exit code 1 (with the reason) when no wrapper "
        "can be induced, 2 when a page cannot be read or parsed.",
    )
    parser.add_argument("first", metavar="LIST1.html", help="a list page")
    parser.add_argument("second", metavar="LIST2.html", help="another list page of the template")
    parser.add_argument(
        "--url", action="append", default=[], metavar="URL",
        help="URL of LIST1, then (repeated) of LIST2; recorded in the wrapper's sources",
    )
    parser.add_argument("-o", "--output", metavar="WRAPPER.json", type=Path,
                        help="write the wrapper here (JSON); without it only print it")
    parser.set_defaults(run=run)


def _parse(name: str, url: str | None):
    with open(name, "rb") as page:
        return parse_page(page.read(), url=url)


def run(args: argparse.Namespace) -> int:
    if len(args.url) > 2:
        print("newscrawl induce: error: --url given more than twice", file=sys.stderr)
        return 2
    urls = args.url + [None] * (2 - len(args.url))
    try:
        first, second = _parse(args.first, urls[0]), _parse(args.second, urls[1])
    except OSError as error:
        print(f"newscrawl induce: error: cannot read {error.filename}: {error.strerror}",
              file=sys.stderr)
        return 2
    except BadInput as error:
        print(f"newscrawl induce: error: {error}", file=sys.stderr)
        return 2
    induced = induce_wrapper(first, second)
    if induced.wrapper is None:
        print(f"newscrawl induce: no wrapper: {induced.reason}", file=sys.stderr)
        return 1
    wrapper = induced.wrapper
    print(wrapper.notation())
    for name, xpath in wrapper.xpaths().items():
        print(f"{name}: {xpath}")
    if args.output:
        args.output.write_text(json.dumps(wrapper.to_json(), indent=1, ensure_ascii=False) + "\n",
                               encoding="utf-8")
        print(f"wrapper written to {args.output}", file=sys.stderr)
    return 0
