"""Shared politeness: two `newscrawl worker` processes on one slow local site (real article pages,
MIT-licensed sets, tests/fixtures/SOURCES.md) never exceed the per-site concurrency, counted at the
server, and keep a robots.txt Crawl-delay between them."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import redis

from tests.crawler.demo_helpers import newscrawl, start_newscrawl
from tests.crawler.http_helpers import send, serve

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
ARTICLES = sorted(FIXTURES.glob("cx_bbc-*.html")) + sorted(FIXTURES.glob("aeb-*.html"))
DELAY_S = 0.4


class SlowCountingSite(BaseHTTPRequestHandler):
    """``/`` links to every article; each response takes DELAY_S; in-flight requests counted."""

    lock = threading.Lock()
    in_flight = most = 0
    starts: list[tuple[float, str]] = []
    robots = b"User-agent: *\nAllow: /\n"

    def do_GET(self) -> None:
        cls = type(self)
        with cls.lock:
            cls.in_flight += 1
            cls.most = max(cls.most, cls.in_flight)
            cls.starts.append((time.monotonic(), self.path))
        try:
            time.sleep(DELAY_S)
            if self.path == "/robots.txt":
                body, kind = cls.robots, "text/plain"
            elif self.path == "/":
                links = "".join(f'<a href="/news/story-{n:05d}">Story {n}</a> '
                                for n in range(len(ARTICLES)))  # fmt: skip
                body, kind = f"<html><body>{links}</body></html>".encode(), "text/html"
            else:
                body, kind = ARTICLES[int(self.path[-5:])].read_bytes(), "text/html"
            send(self, body, kind)
        finally:
            with cls.lock:
                cls.in_flight -= 1

    def log_message(self, *args: object) -> None:
        pass


def _crawl(url: str, base: str, tmp_path: Path, *settings: str) -> None:
    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    assert newscrawl("seed", "--redis", url, f"{base}/").returncode == 0
    logs = [tmp_path / f"w{n}.log" for n in range(2)]
    workers = [start_newscrawl(
        "worker", "--redis", url, "--out", str(tmp_path / f"w{n}"), "--idle-timeout", "3",
        "--depth", "1", "--no-autothrottle", "--progress-interval", "0",
        "-s", "CONCURRENT_REQUESTS=4", "-s", "NEWSCRAWL_SIBLINGS_ENABLED=False", *settings,
        log=log.open("wb"),
    ) for n, log in enumerate(logs)]  # fmt: skip
    assert [w.wait(180) for w in workers] == [0, 0], [log.read_text()[-2000:] for log in logs]


def _reset(robots: bytes) -> None:
    SlowCountingSite.in_flight = SlowCountingSite.most = 0
    SlowCountingSite.starts = []
    SlowCountingSite.robots = robots


def test_two_workers_never_exceed_the_site_concurrency(redis_server: str, tmp_path: Path) -> None:
    _reset(b"User-agent: *\nAllow: /\n")
    url = redis_server.rsplit("/", 1)[0] + "/7"
    with serve(SlowCountingSite) as base:
        _crawl(url, base, tmp_path, "-s", "NEWSCRAWL_SITE_CONCURRENCY=2")
    pages = [p for _, p in SlowCountingSite.starts if p.startswith("/news/")]
    assert sorted(set(pages)) == [f"/news/story-{n:05d}" for n in range(len(ARTICLES))]
    assert SlowCountingSite.most <= 2  # 2 workers x 4 concurrent requests would reach 8


@pytest.mark.slow  # 14-20 s of crawling: out of the default run (CI budget)
def test_a_robots_crawl_delay_holds_across_workers(redis_server: str, tmp_path: Path) -> None:
    _reset(b"User-agent: *\nCrawl-delay: 1\n")
    url = redis_server.rsplit("/", 1)[0] + "/7"
    with serve(SlowCountingSite) as base:
        _crawl(url, base, tmp_path, "-s", "NEWSCRAWL_SITE_CONCURRENCY=4")
    starts = [t for t, p in SlowCountingSite.starts if p != "/robots.txt"]
    assert len(starts) == len(ARTICLES) + 1
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert min(gaps) >= 0.9, gaps  # Crawl-delay 1 s, whichever worker sent the request
