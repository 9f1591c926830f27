"""The sites file: validation with named errors, and per-site rules (allow, max_pages, depth) in a
real crawl of a local site serving real article pages (MIT-licensed sets, tests/fixtures/SOURCES.md)."""

from __future__ import annotations

import doctest
import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import redis

import crawler.sites
from crawler.sites import SITES_KEY
from tests.crawler.demo_helpers import jsonl_items, newscrawl, path_of, warc_responses
from tests.crawler.http_helpers import send, serve

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
ARTICLES = sorted(FIXTURES.glob("cx_bbc-*.html")) + sorted(FIXTURES.glob("aeb-*.html"))


class TwoSections(BaseHTTPRequestHandler):
    """``/`` links to every article under /news/ and under /opinion/."""

    def do_GET(self) -> None:
        if self.path == "/":
            links = "".join(f'<a href="/{part}/story-{n:05d}">Story {n}</a> '
                            for part in ("news", "opinion") for n in range(len(ARTICLES)))
            body = f"<html><body>{links}</body></html>".encode()
        elif self.path[-5:].isdigit() and int(self.path[-5:]) < len(ARTICLES):
            body = ARTICLES[int(self.path[-5:])].read_bytes()
        else:
            body = b""
        send(self, body, status=200 if body else 404)

    def log_message(self, *args: object) -> None:
        pass


def test_allow_and_max_pages_hold_in_a_crawl(tmp_path: Path) -> None:
    out, sites = tmp_path / "out", tmp_path / "sites.toml"
    with serve(TwoSections) as base:
        sites.write_text(f'[[site]]\nname = "local"\nseeds = ["{base}/"]\ndepth = 1\n'
                         f'allow = ["/news/"]\nmax_pages = 5\nconcurrency = 1\n')  # fmt: skip
        result = newscrawl("crawl", "--sites", str(sites), "--out", str(out),
                           "--no-autothrottle", "--progress-interval", "0",
                           "-s", "NEWSCRAWL_SIBLINGS_ENABLED=False")  # fmt: skip
    assert result.returncode == 0, result.stderr
    fetched = [p for p, _ in warc_responses(out) if p != "/robots.txt"]
    assert not any(p.startswith("/opinion/") for p in fetched)  # not allowed
    assert fetched[0] == "/" and len(fetched) == 5  # max_pages: the front and 4 articles
    assert {path_of(i["url"]) for i in jsonl_items(out)} <= set(fetched)


@pytest.mark.parametrize(
    ("text", "why"),
    [('[[site]]\nseeds = ["https://a.org/"]\nmaxpages = 3\n', "unknown key 'maxpages'"),
     ('[[site]]\nseeds = ["https://a.org/", "https://b.org/"]\n', "not on the site"),
     ('[[site]]\nseeds = ["a.org"]\n', "not an absolute http(s) URL"),
     ('[[site]]\nseeds = ["https://a.org/"]\ndepth = -1\n', "depth must be an integer >= 0"),
     ('[[site]]\nseeds = ["https://a.org/"]\nallow = ["news"]\n', "path prefixes starting with /"),
     ("[[site]\n", "not TOML")],
    ids=["unknown_key", "two_sites", "bad_url", "negative_depth", "bad_prefix", "not_toml"],
)
def test_a_bad_sites_file_is_a_usage_error_naming_the_site_and_key(
    tmp_path: Path, text: str, why: str
) -> None:
    sites = tmp_path / "sites.toml"
    sites.write_text(text)
    for command in (["crawl"], ["seed", "--redis", "redis://127.0.0.1:1/0"]):
        result = newscrawl(*command, "--sites", str(sites))
        assert result.returncode == 2 and why in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


def test_seed_stores_the_rules_for_the_workers(redis_server: str, tmp_path: Path) -> None:
    url = redis_server.rsplit("/", 1)[0] + "/9"
    client = redis.Redis.from_url(url)
    client.flushdb()
    sites = tmp_path / "sites.toml"
    sites.write_text('[[site]]\nseeds = ["https://www.a.org/"]\nfeeds = ["https://a.org/rss"]\n'
                     'allow = ["/news/"]\ndelay = 2.5\n')  # fmt: skip
    result = newscrawl("seed", "--redis", url, "--sites", str(sites))
    assert result.returncode == 0, result.stderr
    stored = {k.decode(): json.loads(v) for k, v in client.hgetall(SITES_KEY).items()}
    assert stored["https://a.org:443"]["allow"] == ["/news/"]
    assert stored["https://a.org:443"]["delay"] == 2.5
    seeds = [json.loads(e)["url"] for e in client.lrange("newscrawl:seeds", 0, -1)]
    assert seeds == ["https://www.a.org/", "https://a.org/rss"]
    client.close()


def test_docstring_examples() -> None:
    result = doctest.testmod(crawler.sites)
    assert result.attempted > 0 and result.failed == 0
