"""Sitemaps and feeds as sources: the article links they list, with the title and date they give.

A seed (or a link) whose response is a sitemap (``<urlset>``, ``<sitemapindex>``, gzip-compressed or
not) or a feed (RSS 0.9x/1.0/2.0, Atom) is not a page to extract: the spider reads its entries and
requests their URLs. Each entry's title and publication date travel with the request
(``meta[HINT_META]``) into the page item, where they fill the article's ``title`` and ``published``
when the page itself gives none (``extraction.sources`` then says ``sitemap`` or ``feed``). The
entries of a sitemap index are sitemaps, requested as such. Sitemaps and feeds are fronts
(:mod:`crawler.rounds`): fetched again each round.

Feeds are read by feedparser (every RSS and Atom dialect). Sitemaps are read here with lxml
(entities never resolved, no network): Scrapy's ``scrapy.utils.sitemap.Sitemap`` keeps only the
direct children of ``<url>`` and so drops Google News' nested ``<news:news>`` (``publication_date``,
``title``); its ``gunzip`` (bounded) is used for ``.gz`` bodies. Only same-site URLs are kept (as for
links), at most ``MAX_ENTRIES`` per document.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import UTC, datetime

from lxml import etree

__all__ = ["HINT_META", "MAX_ENTRIES", "Entry", "Source", "read_source", "source_kind"]

#: Request meta key: ``{"title", "published", "source"}`` of the entry a request came from.
HINT_META = "newscrawl_hint"
#: Entries read from one sitemap or feed (the sitemap protocol's own limit per file).
MAX_ENTRIES = 50_000

_SNIFF_BYTES = 2048
_MARKERS = {b"<urlset": "sitemap", b"<sitemapindex": "sitemap", b"<rss": "feed",
            b"<feed": "feed", b"<rdf:rdf": "feed"}  # fmt: skip
_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(slots=True)
class Entry:
    url: str
    title: str | None = None
    published: str | None = None
    is_sitemap: bool = False  # an entry of a sitemap index


@dataclass(slots=True)
class Source:
    kind: str  # "sitemap" | "feed"
    entries: list[Entry] = field(default_factory=list)
    capped: bool = False


def source_kind(body: bytes) -> str | None:
    """``"sitemap"``, ``"feed"`` or None, from the start of a (decompressed) body.

    >>> source_kind(b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    'sitemap'
    >>> source_kind(b"<?xml version='1.0'?>\\n<rss version='2.0'><channel>"), source_kind(b"<html>")
    ('feed', None)
    """
    head = body[:_SNIFF_BYTES].lower()
    found = [(head.find(marker), kind) for marker, kind in _MARKERS.items() if marker in head]
    if not found or b"<html" in head[: min(pos for pos, _ in found)]:
        return None
    return min(found)[1]


def read_source(body: bytes, max_bytes: int) -> Source | None:
    """The entries of a sitemap or feed ``body`` (gzip allowed, inflated to at most ``max_bytes``),
    or None when it is neither."""
    if body[:2] == _GZIP_MAGIC:
        from scrapy.utils.gz import gunzip

        try:
            body = gunzip(body, max_size=max_bytes)
        except (OSError, ValueError):  # broken, or inflates past max_bytes (a bomb)
            return None
    kind = source_kind(body)
    if kind == "sitemap":
        return _sitemap(body)
    if kind == "feed":
        return _feed(body)
    return None


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1].lower() if isinstance(tag, str) else ""


def _sitemap(body: bytes) -> Source:
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True,
                             remove_comments=True, huge_tree=False)  # fmt: skip
    source = Source("sitemap")
    try:
        root = etree.fromstring(body, parser=parser)
    except etree.XMLSyntaxError:
        return source
    if root is None:
        return source
    index = _local(root.tag) == "sitemapindex"
    for element in root:
        if _local(element.tag) not in ("url", "sitemap"):
            continue
        if len(source.entries) >= MAX_ENTRIES:
            source.capped = True
            break
        values: dict[str, str] = {}
        for child in element.iter():
            name = _local(child.tag)
            if name in ("loc", "lastmod", "publication_date", "title") and child.text:
                values.setdefault(name, child.text.strip())
        if values.get("loc"):
            published = _iso(values.get("publication_date"))  # Google News (lastmod is no date
            # of publication: a page edited today would look new)
            source.entries.append(Entry(values["loc"], values.get("title"), published, index))
    return source


def _iso(value: str | None) -> str | None:
    """A W3C datetime (the sitemap's format) as ISO 8601, or None when it is not one.

    >>> _iso("2024-05-01T10:30:00+02:00"), _iso("2024-05-01"), _iso("yesterday")
    ('2024-05-01T10:30:00+02:00', '2024-05-01', None)
    """
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed.isoformat() if "T" in value else parsed.date().isoformat()


def _feed(body: bytes) -> Source:
    import io

    import feedparser

    parsed = feedparser.parse(io.BytesIO(body))  # a stream: feedparser never fetches it
    source = Source("feed")
    for entry in parsed.entries:
        if len(source.entries) >= MAX_ENTRIES:
            source.capped = True
            break
        link = entry.get("link")
        if not link:
            continue
        when = entry.get("published_parsed") or entry.get("updated_parsed")
        published = (datetime.fromtimestamp(calendar.timegm(when), UTC).isoformat()
                     if when else None)  # fmt: skip
        source.entries.append(Entry(link, (entry.get("title") or "").strip() or None, published))
    return source
