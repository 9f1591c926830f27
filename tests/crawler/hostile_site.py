"""A local site of real pages plus hostile ones (tests/crawler/hostile_pages.py), and its crawl.

``/`` links to three real articles (MIT fixtures) and to every hostile page of ``HOSTILE``; each
hostile page is served as the real site would (HTML, or a gzip body with ``Content-Encoding``).
:func:`crawl_site` runs a real ``newscrawl crawl`` of it in a subprocess, depth 1, and returns the
summary and the items.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from tests.crawler.demo_helpers import jsonl_items, newscrawl
from tests.crawler.hostile_pages import FIXTURES

__all__ = ["ARTICLES", "HostileSite", "crawl_site"]

#: Real articles the crawl must keep whatever the hostile pages do (MIT, tests/fixtures/SOURCES.md).
ARTICLES = {
    f"/news/{name.removesuffix('.html')}": (FIXTURES / "pages" / name).read_bytes()
    for name in ("cx_bbc-00000.html", "cx_bbc-00003.html", "cx_163-00001.html")
}


class HostileSite(BaseHTTPRequestHandler):
    """Serves ``/``, ``ARTICLES`` and ``pages`` (path → (body, gzip?)); counts requests by path."""

    pages: dict[str, tuple[bytes, bool]] = {}
    requests: list[str] = []

    def do_GET(self) -> None:
        self.requests.append(self.path)
        gzipped = False
        if self.path == "/":
            links = [*ARTICLES, *self.pages]
            body = b"<html><body><h1>Index</h1><ul>" + b"".join(
                b'<li><a href="%s">%s</a></li>' % (p.encode(), p.encode()) for p in links
            ) + b"</ul></body></html>"
        elif self.path in ARTICLES:
            body = ARTICLES[self.path]
        elif self.path in self.pages:
            body, gzipped = self.pages[self.path]
        else:
            body = b""
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        if gzipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def site_with(pages: dict[str, Callable[[], bytes]], gzipped: set[str]) -> type[HostileSite]:
    """A handler class serving ``pages`` (built now) besides the real ones."""
    built = {path: (build(), path in gzipped) for path, build in pages.items()}
    return type("Site", (HostileSite,), {"pages": built, "requests": []})


def crawl_site(base: str, out: Path, *settings: str, timeout: float = 300) -> tuple[dict, list]:
    """A real crawl of the site at ``base`` (depth 1); its summary and items."""
    result = newscrawl(
        "crawl", f"{base}/", "--out", str(out), "--no-autothrottle", "--progress-interval", "0",
        "--depth", "1", "-s", "NEWSCRAWL_SIBLING_WAIT=2",
        *[a for s in settings for a in ("-s", s)],
        timeout=timeout,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return json.loads((out / "summary.json").read_text()), jsonl_items(out)
