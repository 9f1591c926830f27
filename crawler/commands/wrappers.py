"""``newscrawl wrappers``: what a crawl's wrapper store holds, and adding a wrapper to it.

``list`` prints the stored PSNT wrappers (paper 004) of an embedded crawl (``DIR/wrappers/*.json``)
or of a distributed one (the Redis hash ``newscrawl:wrappers``). ``add`` puts a wrapper written by
``newscrawl induce -o`` into such a store under the template key of a list page
(:func:`crawler.sibling_links.list_template_key`, the key the crawl looks wrappers up by), so the
next crawl applies it instead of inducing one.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from urllib.parse import urlsplit

import redis

from crawler.commands import add_redis_password_option, connect_redis
from crawler.commands.apply import load_wrapper
from crawler.sibling_links import list_template_key
from extractors.wrapper import Wrapper
from pipelines.lists.wrapper_store import (
    REDIS_KEY,
    WRAPPER_FOLDER,
    FileWrapperStore,
    RedisWrapperStore,
    StoredWrapper,
    read_stored,
)

__all__ = ["add_parser", "format_line", "store_key", "run_add", "run_list"]

logger = logging.getLogger(__name__)

DESCRIPTION = (
    "Inspect or fill the store of PSNT list-page wrappers a crawl applies (one per list-page "
    "template key): DIR/wrappers/ of `newscrawl crawl --out DIR` (embedded mode), or the Redis "
    f"hash {REDIS_KEY} with --redis URL (distributed mode)."
)


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "wrappers", help="list the wrappers a crawl's store holds, or add one from `induce -o`",
        description=DESCRIPTION,
    )
    commands = parser.add_subparsers(title="subcommands", metavar="SUBCOMMAND", required=True)
    listing = commands.add_parser(
        "list", help="one line per stored wrapper",
        description="Prints one tab-separated line per stored wrapper: template key, notation, "
        "the pages it was induced from, when, how often it has matched, and the record counts "
        "of its last matches. Unreadable entries are reported on stderr and skipped.",
    )
    _store_options(listing)
    listing.add_argument("--json", action="store_true",
                         help="print each stored wrapper as one JSON line (the stored document)")
    listing.set_defaults(run=run_list)
    adding = commands.add_parser(
        "add", help="put a wrapper from `newscrawl induce -o` into the store",
        description="Puts the wrapper of WRAPPER.json (written by `newscrawl induce -o`) into the "
        "store under the list-page template key of --url, or else of the first source URL "
        "recorded in the wrapper (`induce --url`), replacing any wrapper of that key; prints the "
        "key. The crawl then applies it to the list pages of that template instead of inducing "
        "one. Exit code 2 when the file is not a usable wrapper, no key can be derived, or the "
        "store cannot be written.",
    )
    adding.add_argument("wrapper", metavar="WRAPPER.json", help="a wrapper from newscrawl induce")
    adding.add_argument("--url", metavar="LIST_PAGE_URL",
                        help="a list page of the wrapper's template, as the crawl will fetch it")
    _store_options(adding)
    adding.set_defaults(run=run_add)


def _store_options(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", default="output", metavar="DIR",
                       help="the crawl's output folder; wrappers in DIR/wrappers "
                       "(default: %(default)s)")
    where.add_argument("--redis", metavar="URL",
                       help=f"distributed mode: redis://HOST:PORT/DB holding the hash {REDIS_KEY}")
    add_redis_password_option(parser)


def _fail(message: str) -> int:
    print(f"newscrawl wrappers: error: {message}", file=sys.stderr)
    return 2


def store_key(wrapper: Wrapper, url: str | None) -> tuple[str | None, str]:
    """The template key for ``wrapper``: of ``url``, else of its first source URL; ``(None, why)``
    when neither gives one, else ``(key, the URL it came from)``.

    >>> w = Wrapper("html.body.ul", 1, "li.a", "li", sources=["https://a.org/news/?page=2", None])
    >>> store_key(w, None), store_key(w, "https://a.org/sport/")[0]
    (('a.org/<w>/?page=<n1>', 'https://a.org/news/?page=2'), 'a.org/<w>/')
    >>> store_key(Wrapper("html.body.ul", 1, "li.a", "li"), None)[0] is None
    True
    """
    if url is None:
        url = next((source for source in wrapper.sources if source), None)
        if url is None:
            return None, ("the wrapper records no source URL (induce it with --url) and no --url "
                          "was given")
        origin = "the wrapper's source URL"
    else:
        origin = "--url"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None, f"{origin} {url!r} is not an http(s) URL with a host"
    return list_template_key(url), url


def run_add(args: argparse.Namespace) -> int:
    try:
        wrapper = load_wrapper(args.wrapper)
    except ValueError as error:
        return _fail(str(error))
    key, origin = store_key(wrapper, args.url)
    if key is None:
        return _fail(f"no template key for {args.wrapper}: {origin}")
    stored = StoredWrapper.of(key, wrapper)
    store = _store(args)
    try:
        replaced = store.get(key) is not None
        store.put(stored)
    except (OSError, redis.RedisError) as error:
        return _fail(f"cannot store the wrapper: {error}")
    others = {list_template_key(s) for s in stored.induced_from[1:]} - {key}
    if args.url is None and others:
        print(f"newscrawl wrappers: note: its other source URL has the key {sorted(others)[0]}; "
              "give --url to store it under that template", file=sys.stderr)
    note = "replaced the wrapper of" if replaced else "added a wrapper for"
    print(f"newscrawl wrappers: {note} the template of {origin}", file=sys.stderr)
    print(key)
    return 0


def _store(args: argparse.Namespace) -> FileWrapperStore | RedisWrapperStore:
    if args.redis:
        return RedisWrapperStore(connect_redis(args.redis, args.redis_password_file))
    return FileWrapperStore(Path(args.out) / WRAPPER_FOLDER)


def _stored_documents(args: argparse.Namespace) -> list[tuple[str, str | bytes]]:
    """(where, raw JSON) of every stored wrapper; the where names the file or hash field."""
    if args.redis:
        client = connect_redis(args.redis, args.redis_password_file)
        return [(f"{REDIS_KEY} field {field.decode('utf-8', 'replace')}", raw)
                for field, raw in client.hgetall(REDIS_KEY).items()]
    folder = Path(args.out) / WRAPPER_FOLDER
    return [(str(path), path.read_bytes()) for path in sorted(folder.glob("[!.]*.json"))]


def run_list(args: argparse.Namespace) -> int:
    try:
        documents = _stored_documents(args)
    except (OSError, redis.RedisError) as error:
        return _fail(f"cannot read the store: {error}")
    wrappers = []
    for where, raw in documents:
        try:
            wrappers.append(read_stored(raw))
        except ValueError as error:  # UntrustedData and UnicodeDecodeError are ValueErrors
            print(f"newscrawl wrappers: skipped {where}: {error}", file=sys.stderr)
    for stored in sorted(wrappers, key=lambda s: s.key):
        if args.json:
            print(json.dumps(stored.to_json(), ensure_ascii=False))
        else:
            print(format_line(stored))
    if not wrappers:
        where = args.redis or str(Path(args.out) / WRAPPER_FOLDER)
        print(f"newscrawl wrappers: no stored wrappers in {where}", file=sys.stderr)
    return 0


def format_line(stored: StoredWrapper) -> str:
    """One tab-separated line: key, notation, induced from, induced at, matched, last records.

    >>> format_line(StoredWrapper("a.org/<w>/", {}, "html.body.ul(1)(li.a)[li]",
    ...             ["https://a.org/news/"], "2024-05-12T10:00:00Z", 2, [9, 8])).split("\\t")
    ['a.org/<w>/', 'html.body.ul(1)(li.a)[li]', 'induced from https://a.org/news/', \
'at 2024-05-12T10:00:00Z', 'matched 2', 'last records 9,8']
    """
    sources = " ".join(stored.induced_from) or "-"
    history = ",".join(str(n) for n in stored.history) or "-"
    return "\t".join([stored.key, stored.notation, f"induced from {sources}",
                      f"at {stored.induced_at}", f"matched {stored.matched}",
                      f"last records {history}"])
