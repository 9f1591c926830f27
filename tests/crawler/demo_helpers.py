"""Helpers for the crawls of the demo site: expectations from its manifest, reading the outputs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator

from crawler.demo.server import NOT_FOUND, DemoSite, Reply


def newscrawl(*args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
    """Run the ``newscrawl`` CLI in a subprocess (the installed package, this interpreter)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "crawler.cli", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        **kwargs,
    )


def start_newscrawl(*args: str, log: IO[bytes]) -> subprocess.Popen:
    """Start the ``newscrawl`` CLI in the background, its output going to ``log``."""
    return subprocess.Popen(
        [sys.executable, "-m", "crawler.cli", *args],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


class Expected:
    """What a full crawl of the demo site must produce, derived from the builder's manifest."""

    def __init__(self, site: DemoSite) -> None:
        entries = site.manifest["entries"]
        self.item_paths = {e["path"] for e in entries if e["kind"] in ("index", "article")}
        self.article_paths = {e["path"] for e in entries if e["kind"] == "article"}
        #: The Chinese articles (cx_163): the only ones the crawl pairs with a sibling (LCS
        #: denoising is used on CJK pages only); the English ones (cx_bbc) say "not_cjk".
        self.cjk_article_paths = {e["path"] for e in entries if e["kind"] == "article"
                                  and (e["source"] or {}).get("dataset") == "cx_163"}
        self.fetched_paths = {e["path"] for e in entries if e["reaches_spider"]}
        self.pages_fetched = len(self.fetched_paths)
        self.skipped = Counter(e["reason"] for e in entries if e["reason"])
        self.bodies = {path: reply.body for path, reply in site.replies.items()}
        #: Every path the crawl requests: all but those robots.txt disallows (robots.txt too).
        self.requested_paths = {e["path"] for e in entries if e["reason"] != "robots"}
        #: What the server answers at each requested path.
        self.served: dict[str, Reply] = {
            path: site.replies.get(path, NOT_FOUND) for path in self.requested_paths
        }


def jsonl_items(out: Path) -> list[dict]:
    items = []
    for path in sorted(out.glob("*.jsonl")):
        items += [
            json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line
        ]
    return items


def warc_responses(out: Path) -> list[tuple[str, bytes]]:
    """(URL path, body) of every response record in the WARC files of ``out/warc``."""
    found = []
    for path in sorted((out / "warc").glob("*.warc.gz")):
        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream):
                if record.rec_type == "response":
                    uri = record.rec_headers.get_header("WARC-Target-URI")
                    found.append((urlsplit(uri).path, record.content_stream().read()))
    return found


def assert_articles_paired(items: list[dict], article_paths: set[str], cjk_paths: set[str],
                           first_pages: int = 1) -> int:
    """CJK articles (``cjk_paths``) of a template with more than one of them were extracted against
    a sibling of that template, except at most ``first_pages`` per template (a first page with no
    same-template link); the other articles were not paired at all, because their text is not CJK;
    every other item says why it has none. Returns the number of items that used a sibling."""
    assert cjk_paths and cjk_paths < article_paths
    for item in items:
        if path_of(item["url"]) in article_paths - cjk_paths:
            assert item["extraction"]["sibling"] == {"url": None, "used": False,
                                                     "reason": "not_cjk"}, item["url"]
    articles = [i for i in items if path_of(i["url"]) in cjk_paths]
    templates = Counter(i["template_key"] for i in articles)
    pairable = [i for i in articles if templates[i["template_key"]] > 1]
    used = [i for i in items if i["extraction"]["sibling"]["used"]]
    assert len(used) >= len(pairable) - first_pages * len(templates) > 0
    template_of = {i["url"]: i["template_key"] for i in items}
    for item in used:
        sibling = item["extraction"]["sibling"]
        assert sibling["url"] != item["url"] and sibling["reason"] is None
        assert template_of[sibling["url"]] == item["template_key"]
        # articles: LCS against the sibling; list pages: a PSNT wrapper induced from the pair
        method = "psnt" if item["page_type"] == "list" else "lcs+attenuation"
        assert item["extraction"]["method"] == method
    for item in items:
        if not item["extraction"]["sibling"]["used"]:
            assert item["extraction"]["sibling"]["reason"], item["url"]
    return len(used)


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def path_of(url: str) -> str:
    return urlsplit(url).path


def seen_counts(client, dupefilter_key: str) -> tuple[int, int]:
    """(article fingerprints, front fingerprints) in a shared crawl's seen sets in Redis
    (crawler.scheduling.seen: ``<key>:<bucket>`` and ``<key>:fronts:<round>``)."""
    articles = fronts = 0
    for key in client.scan_iter(match=f"{dupefilter_key}:*", count=1000):
        if key.decode().startswith(f"{dupefilter_key}:fronts:"):
            fronts += client.scard(key)
        else:
            articles += client.scard(key)
    return articles, fronts
