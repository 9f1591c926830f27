"""Sitemaps (index, gzip, Google News) and feeds (RSS, Atom) as crawl sources, against a local site
serving real article pages (MIT-licensed sets, tests/fixtures/SOURCES.md)."""

from __future__ import annotations

import doctest
import gzip
from collections import Counter
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import crawler.sources
from crawler.sources import read_source
from extractors import extract
from pipelines.items import news_item
from tests.crawler.demo_helpers import jsonl_items, newscrawl, path_of, warc_responses
from tests.crawler.http_helpers import send, serve

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
ARTICLES = sorted(FIXTURES.glob("cx_bbc-*.html")) + sorted(FIXTURES.glob("aeb-*.html"))[:3]

NEWS_SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
{urls}
  <url><loc>https://elsewhere.example/news/story-99999</loc></url>
</urlset>"""
NEWS_URL = """  <url><loc>{base}/news/story-{n:05d}</loc><news:news>
    <news:publication><news:name>Test</news:name><news:language>en</news:language></news:publication>
    <news:publication_date>2024-05-0{d}T10:00:00+00:00</news:publication_date>
    <news:title>Sitemap title {n}</news:title></news:news></url>"""
INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>{base}/sitemap-news.xml.gz</loc></sitemap>
</sitemapindex>"""
RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Test</title>
{items}</channel></rss>"""
RSS_ITEM = """<item><title>Feed title {n}</title><link>{base}/news/story-{n:05d}</link>
<pubDate>Wed, 0{d} May 2024 08:00:00 GMT</pubDate></item>"""
ATOM = """<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">
<title>Test</title><entry><title>Atom title 5</title><link href="{base}/news/story-00005"/>
<updated>2024-05-06T09:00:00Z</updated><id>x5</id></entry></feed>"""


class SourcesSite(BaseHTTPRequestHandler):
    base = ""

    def do_GET(self) -> None:
        base = f"http://{self.headers['Host']}"
        if self.path == "/sitemap_index.xml":
            self._reply(INDEX.format(base=base).encode(), "application/xml")
        elif self.path == "/sitemap-news.xml.gz":
            bad = "  <url><loc>http://[::1/news/story-00009</loc></url>"  # urljoin raises on it
            urls = "\n".join([bad] + [NEWS_URL.format(base=base, n=n, d=n + 1) for n in range(3)])
            body = gzip.compress(NEWS_SITEMAP.format(urls=urls).encode())
            self._reply(body, "application/x-gzip")
        elif self.path == "/feed.rss":
            items = "".join(RSS_ITEM.format(base=base, n=n, d=n + 1) for n in (3, 4))
            self._reply(RSS.format(items=items).encode(), "application/rss+xml")
        elif self.path == "/atom.xml":
            self._reply(ATOM.format(base=base).encode(), "application/atom+xml")
        elif self.path.startswith("/news/story-") and int(self.path[-5:]) < len(ARTICLES):
            self._reply(ARTICLES[int(self.path[-5:])].read_bytes(), "text/html; charset=utf-8")
        else:
            self._reply(b"not found", "text/plain", 404)

    def _reply(self, body: bytes, content_type: str, status: int = 200) -> None:
        send(self, body, content_type, status)

    def log_message(self, *args: object) -> None:
        pass


def test_sitemaps_and_feeds_lead_to_their_articles(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with serve(SourcesSite) as base:
        result = newscrawl(
            "crawl", f"{base}/sitemap_index.xml", f"{base}/feed.rss", f"{base}/atom.xml",
            "--out", str(out), "--depth", "2", "--no-autothrottle", "--progress-interval", "0",
            "-s", "NEWSCRAWL_SIBLING_WAIT=0.5",
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "sources:" in result.stdout and "sitemap 2" in result.stdout
    items = {path_of(i["url"]): i for i in jsonl_items(out)}
    assert sorted(items) == [f"/news/story-{n:05d}" for n in range(6)]
    fetched = Counter(path for path, _ in warc_responses(out))
    assert fetched["/sitemap-news.xml.gz"] == 1 and not any("elsewhere" in p for p in fetched)
    for item in items.values():  # these pages date and title themselves: the page wins
        assert item["published"] and item["extraction"]["sources"]["published"] not in (
            "sitemap", "feed")


def _entries(body: bytes) -> list[tuple]:
    source = read_source(body, 10_000_000)
    return [(e.url, e.title, e.published, e.is_sitemap) for e in source.entries]


def test_readers_take_the_titles_and_dates_of_entries() -> None:
    base = "https://a.example"
    urls = NEWS_URL.format(base=base, n=1, d=2)
    sitemap = gzip.compress(NEWS_SITEMAP.format(urls=urls).encode())
    assert _entries(sitemap)[0] == (
        f"{base}/news/story-00001", "Sitemap title 1", "2024-05-02T10:00:00+00:00", False)
    rss = RSS.format(items=RSS_ITEM.format(base=base, n=3, d=4)).encode()
    assert _entries(rss) == [(f"{base}/news/story-00003", "Feed title 3",
                              "2024-05-04T08:00:00+00:00", False)]  # fmt: skip
    assert _entries(ATOM.format(base=base).encode())[0][1:3] == (
        "Atom title 5", "2024-05-06T09:00:00+00:00")
    assert _entries(INDEX.format(base=base).encode()) == [
        (f"{base}/sitemap-news.xml.gz", None, None, True)]


def test_hostile_sources_are_refused() -> None:
    bomb = gzip.compress(b"<urlset>" + b" " * 50_000_000)
    assert read_source(bomb, 10_000_000) is None  # inflates past the page cap
    entity = (b'<?xml version="1.0"?><!DOCTYPE u [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
              b'<urlset><url><loc>&x;</loc></url></urlset>')  # fmt: skip
    assert all("root:" not in e.url for e in read_source(entity, 10_000_000).entries)


def test_a_hint_fills_only_what_the_page_does_not_say() -> None:
    """A real article's extraction; its date blanked stands for a page that gives none."""
    page = {"url": "https://www.bbc.com/news/business-27107354", "fetched_at": None,
            "hint": {"title": "Sitemap title", "published": "2014-04-24", "source": "sitemap"}}
    extraction = extract(ARTICLES[0].read_bytes(), url=page["url"])
    extraction.fields.published = None
    extraction.fields.sources.pop("published", None)
    item = news_item(page, extraction).to_dict()
    assert item["published"] == "2014-04-24" and item["extraction"]["sources"]["published"] == "sitemap"
    assert item["title"] != "Sitemap title" and item["extraction"]["sources"]["title"] != "sitemap"


def test_docstring_examples() -> None:
    result = doctest.testmod(crawler.sources)
    assert result.attempted > 0 and result.failed == 0
