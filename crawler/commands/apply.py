"""``newscrawl apply``: the records a PSNT wrapper finds on saved pages, one JSON line each."""

from __future__ import annotations

import argparse
import json
import sys

from extractors import parse_page
from extractors.errors import BadInput
from extractors.psnt import Wrapper, apply_wrapper
from pipelines.lists.wrapper_store import MAX_STORED_BYTES
from pipelines.untrusted import UntrustedData, load_json

__all__ = ["add_parser", "load_wrapper", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "apply",
        help="extract list records from pages with a wrapper made by `newscrawl induce`",
        description="Applies a PSNT wrapper (JSON from `newscrawl induce`) to pages of its "
        'template and prints one JSON line per record: {"title", "url", "published", "authors", '
        '"file"}, URLs made absolute with --url and the page\'s <base href>. A page with no '
        "record prints nothing and its reason on stderr; the exit code is 1 if some page had "
        "no record or could not be read, 2 when the wrapper is unusable.",
    )
    parser.add_argument("wrapper", metavar="WRAPPER.json", help="a wrapper from newscrawl induce")
    parser.add_argument("files", nargs="+", metavar="PAGE.html", help="pages of the template")
    parser.add_argument("--url", help="URL of the page(s), to make record URLs absolute")
    parser.set_defaults(run=run)


def load_wrapper(path: str) -> Wrapper:
    """The wrapper stored at ``path``; ValueError naming the file and the problem.

    The file is untrusted: read within :data:`pipelines.lists.wrapper_store.MAX_STORED_BYTES` and
    parsed with :func:`pipelines.untrusted.load_json` (depth cap, finite numbers), so ``1e999`` or
    JSON nested 100 000 deep is a clear error, not a traceback.
    """
    try:
        with open(path, "rb") as stored:
            raw = stored.read(MAX_STORED_BYTES + 1)
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from error
    try:
        data = load_json(raw, max_bytes=MAX_STORED_BYTES)
    except UntrustedData as error:
        raise ValueError(f"{path} is not a readable wrapper: {error}") from error
    try:
        return Wrapper.from_json(data)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from error


def _records(wrapper: Wrapper, name: str, url: str | None) -> tuple[list[dict], str | None]:
    try:
        with open(name, "rb") as page:
            parsed = parse_page(page.read(), url=url)
    except OSError as error:
        return [], f"cannot read {name}: {error.strerror}"
    except BadInput as error:
        return [], str(error)
    applied = apply_wrapper(wrapper, parsed)
    return [{**r.to_dict(), "file": name} for r in applied.records], applied.reason


def run(args: argparse.Namespace) -> int:
    try:
        wrapper = load_wrapper(args.wrapper)
    except ValueError as error:
        print(f"newscrawl apply: error: {error}", file=sys.stderr)
        return 2
    failed = 0
    for name in args.files:
        records, reason = _records(wrapper, name, args.url)
        for record in records:
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
        sys.stdout.flush()
        if not records:
            failed += 1
            print(f"newscrawl apply: {name}: no records: {reason}", file=sys.stderr)
    return 1 if failed else 0
