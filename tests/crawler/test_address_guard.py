"""SSRF and scope in a real crawl: redirects, meta refreshes and links to another port of the seed's
loopback address are never fetched, counted at the other server.

The seed site runs on 127.0.0.1:P (the seed exception lets the crawl fetch it). Its index links to a
real article (MIT fixture), to a page that answers 302 to ``http://localhost:Q/secret``, to one
whose meta refresh points at ``http://localhost:Q/meta``, to one redirecting to
``file:///etc/passwd``, and directly to ``http://127.0.0.1:Q/other-port``. The "internal" server on
port Q counts every request it gets.
"""

from __future__ import annotations

import doctest
import json
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

import crawler.downloadermiddlewares.address_guard
import crawler.scope
from tests.crawler.demo_helpers import jsonl_items, newscrawl
from tests.crawler.hostile_pages import FIXTURES
from tests.crawler.http_helpers import serve

ARTICLE = (FIXTURES / "pages" / "cx_bbc-00000.html").read_bytes()


class Internal(BaseHTTPRequestHandler):
    """The internal service a crawl must not reach: answers everything, counts it."""

    requests: list[str] = []

    def do_GET(self) -> None:
        self.requests.append(self.path)
        body = b"<html><body><p>internal secret</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def seed_site(internal_port: int) -> type[BaseHTTPRequestHandler]:
    other = f"localhost:{internal_port}"

    class Seed(Internal):
        requests: list[str] = []

        def do_GET(self) -> None:
            self.requests.append(self.path)
            status, headers, body = self.answer(self.path)
            self.send_response(status)
            for name, value in [("Content-Type", "text/html"), *headers]:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def answer(self, path: str) -> tuple[int, list[tuple[str, str]], bytes]:
            if path == "/":
                links = ["/news/business-27107354", "/redirect", "/refresh", "/file",
                         f"http://127.0.0.1:{internal_port}/other-port"]
                return 200, [], b"<html><body>" + b"".join(
                    b'<a href="%s">link</a>' % link.encode() for link in links) + b"</body></html>"
            if path == "/news/business-27107354":
                return 200, [], ARTICLE
            if path == "/redirect":
                return 302, [("Location", f"http://{other}/secret")], b""
            if path == "/file":
                return 302, [("Location", "file:///etc/passwd")], b""
            if path == "/refresh":
                meta = f'<meta http-equiv="refresh" content="0; url=http://{other}/meta">'
                return 200, [], f"<html><head>{meta}</head><body>moved</body></html>".encode()
            return 404, [], b""

    return Seed


def crawl(seed: str, out: Path, *settings: str) -> tuple[dict, list]:
    result = newscrawl(
        "crawl", f"{seed}/", "--out", str(out), "--no-autothrottle", "--progress-interval", "0",
        "--depth", "2", "-s", "NEWSCRAWL_SIBLING_WAIT=1", *[a for s in settings for a in ("-s", s)],
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return json.loads((out / "summary.json").read_text()), jsonl_items(out)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict, list, list]]:
    Internal.requests = []
    with serve(Internal) as internal:
        port = int(internal.rsplit(":", 1)[1])
        with serve(seed_site(port)) as seed:
            summary, items = crawl(seed, tmp_path_factory.mktemp("ssrf") / "out")
    yield summary, items, list(Internal.requests)


def test_docstring_examples() -> None:
    for module in (crawler.scope, crawler.downloadermiddlewares.address_guard):
        result = doctest.testmod(module)
        assert result.failed == 0


def test_the_internal_port_gets_no_request(guarded: tuple[dict, list, list]) -> None:
    assert guarded[2] == []


def test_redirect_and_meta_refresh_to_loopback_are_refused_and_counted(
    guarded: tuple[dict, list, list],
) -> None:
    summary = guarded[0]
    assert summary["refused"] == {"loopback": 2}  # the 302 and the meta refresh
    assert summary["skipped"]["refused"] == 2
    # Scrapy itself does not follow the redirect to file:///etc/passwd: the 302 is the answer
    assert summary["skipped"]["http_302"] == 1


def test_the_seed_site_itself_is_crawled(guarded: tuple[dict, list, list]) -> None:
    urls = {item["url"].rsplit("/", 1)[1] for item in guarded[1]}
    assert "business-27107354" in urls
    assert not any("secret" in item.get("body", "") for item in guarded[1])


def test_an_allowed_network_lets_the_crawl_through(tmp_path: Path) -> None:
    Internal.requests = []
    with serve(Internal) as internal:
        port = int(internal.rsplit(":", 1)[1])
        with serve(seed_site(port)) as seed:
            summary, _ = crawl(seed, tmp_path / "out", "NEWSCRAWL_ALLOWED_NETWORKS=127.0.0.0/8")
    assert {"/secret", "/meta"} <= set(Internal.requests)
    assert "/other-port" not in Internal.requests  # another site: never a link to follow
    assert summary["refused"] == {}
