"""The items the extract pipeline emits, typed: ``NewsArticle`` and ``NewsList``, built here and
turned into their JSON shape here (``to_dict``; docs/item.schema.json describes that shape).

Both carry an :class:`ItemIdentity` (id, URLs, site, fetch and archive provenance). An article's
fields (title, dates, authors, language, canonical URL...) are :class:`extractors.fields.Fields`
itself, flattened into the item: adding a field is one edit in ``Fields`` plus its line in the
schema and docs/CONTRACT.md. Field names are ours, snake_case like the rest of the item
(``published``, ``authors`` as a list of names, ``language``, ``image``), not Zyte's ``Article``
camelCase; docs/CONTRACT.md maps them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from w3lib.url import canonicalize_url

from extractors.fields import Fields

__all__ = [
    "ItemIdentity",
    "NewsArticle",
    "NewsList",
    "article_item",
    "item_id",
    "news_item",
    "page_content_type",
    "sibling_note",
    "site_of",
]

#: Where a page's fields can come from besides the page: the sitemap or feed that listed it.
HINT_SOURCES = ("sitemap", "feed")


@dataclass(slots=True)
class ItemIdentity:
    """What every item says about the page it came from."""

    id: str
    url: str
    canonical_url: str
    site: str
    fetched_at: str | None
    page_type: str
    template_key: str | None
    route: str | None
    referer: str | None
    warc: dict | None
    #: Fetched again after an earlier lease of its request expired (a worker died holding it).
    redelivered: bool = False

    @classmethod
    def of(cls, page: dict[str, Any], page_type: str, canonical: str | None) -> ItemIdentity:
        """From a page item; ``canonical`` (the page's declared canonical URL) is used for the
        id only when it is on the page's own site (a page cannot claim another site's id)."""
        url = page["url"]
        own = canonical if canonical and same_site(canonical, url) else None
        return cls(item_id(own or url), url, own or url, site_of(url), page.get("fetched_at"),
                   page_type, page.get("template_key"), page.get("route"), page.get("referer"),
                   page.get("warc"), bool(page.get("redelivered")))

    def fetch_notes(self) -> dict[str, Any]:
        """What the item's ``extraction`` says of this fetch: ``redelivered`` when it is one (the
        Redis Stream then adds no second entry for an id it already holds)."""
        return {"redelivered": True} if self.redelivered else {}

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "url": self.url, "canonical_url": self.canonical_url,
                "site": self.site, "fetched_at": self.fetched_at, "page_type": self.page_type,
                "template_key": self.template_key, "route": self.route, "referer": self.referer}


@dataclass(slots=True)
class NewsArticle:
    """An article (or other non-list page): identity, fields, main text, how it was extracted."""

    identity: ItemIdentity
    fields: Fields
    body: str
    extraction: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The item's JSON shape: identity, the fields, ``body``, ``warc``, ``extraction`` (with
        ``sources`` and ``notes`` of the fields)."""
        extraction = {**self.extraction, **self.identity.fetch_notes(),
                      "sources": dict(self.fields.sources), "notes": dict(self.fields.notes)}
        values = self.fields.values()
        values["canonical_url"] = self.identity.canonical_url
        return {**self.identity.to_dict(), **values, "body": self.body,
                "warc": self.identity.warc, "extraction": extraction}


@dataclass(slots=True)
class NewsList:
    """A list page (section front, index): its records instead of a body."""

    identity: ItemIdentity
    title: str | None
    language: str | None
    records: list[dict[str, Any]]
    extraction: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {**self.identity.to_dict(), "title": self.title, "language": self.language,
                "records": self.records, "warc": self.identity.warc,
                "extraction": {**self.extraction, **self.identity.fetch_notes()}}


def news_item(page: dict[str, Any], extraction: Any) -> NewsArticle:
    """The ``NewsArticle`` of a page item and its :class:`extractors.Extraction`."""
    found = extraction.to_dict()
    identity = ItemIdentity.of(page, found["page_type"], extraction.fields.canonical_url)
    record = {**found["extraction"], "encoding": found.get("encoding"),
              "timings_ms": found.get("timings_ms", {})}
    record.pop("sources", None)
    record.pop("notes", None)
    hint = page.get("hint")
    if isinstance(hint, dict) and hint.get("source") in HINT_SOURCES:
        # the sitemap or feed entry the page was found in: only where the page says nothing
        extraction.fields.fill("title", hint.get("title"), hint["source"])
        extraction.fields.fill("published", hint.get("published"), hint["source"])
    declared = extraction.fields.canonical_url
    if declared and identity.canonical_url != declared:
        extraction.fields.note("canonical_url", f"{declared} is on another site: not used")
    return NewsArticle(identity, extraction.fields, found.get("body") or "", record)


def article_item(
    page: dict[str, Any], extraction: Any, sibling: Any, no_sibling: str | None
) -> dict[str, Any]:
    """The JSON shape of the ``NewsArticle`` of a page item, its :class:`extractors.Extraction`,
    and the sibling it was extracted against (``sibling``: a page with a ``url``, or None and
    ``no_sibling`` saying why), noted in ``extraction.sibling``."""
    news = news_item(page, extraction).to_dict()
    news["extraction"]["sibling"] = sibling_note(sibling, no_sibling, extraction.sibling)
    return news


def sibling_note(sibling: Any, no_sibling: str | None, used: dict | None) -> dict[str, Any]:
    """``extraction.sibling`` of a news item: the sibling URL, whether LCS used it, and why not.

    >>> from types import SimpleNamespace
    >>> sibling_note(None, "no same-template link on the page", None)
    {'url': None, 'used': False, 'reason': 'no same-template link on the page'}
    >>> page = SimpleNamespace(url="https://a.org/n/x-y")
    >>> sibling_note(page, None, {"used": True, "reason": None})
    {'url': 'https://a.org/n/x-y', 'used': True, 'reason': None}
    """
    if sibling is None:
        return {"url": None, "used": False, "reason": no_sibling}
    used = used or {"used": False, "reason": "sibling not passed to the extractor"}
    return {"url": sibling.url, "used": bool(used["used"]), "reason": used.get("reason")}


def item_id(url: str) -> str:
    """SHA-1 of the canonicalised URL: one id for one article fetched by two URLs.

    >>> item_id("https://a.org/n?b=2&a=1#top") == item_id("https://a.org/n?a=1&b=2")
    True
    """
    return hashlib.sha1(canonicalize_url(url).encode("utf-8")).hexdigest()


def same_site(first: str, second: str) -> bool:
    """Whether two URLs are on one site (the same registered name, roughly: the last two host
    labels, three under a two-letter country code's ``co.``/``com.``).

    >>> same_site("https://www.bbc.co.uk/a", "https://news.bbc.co.uk/b")
    True
    >>> same_site("https://evil.example/a", "https://bbc.com/b")
    False
    """
    return _registered(first) == _registered(second) != ""


def _registered(url: str) -> str:
    labels = (urlsplit(url).hostname or "").lower().split(".")
    keep = 3 if len(labels) >= 3 and len(labels[-1]) == 2 and len(labels[-2]) <= 3 else 2
    return ".".join(labels[-keep:])


def site_of(url: str) -> str:
    """The host of ``url``, lower-cased, without a leading ``www.``.

    >>> site_of("https://WWW.BBC.com/news/business-27107354")
    'bbc.com'
    """
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def page_content_type(page: dict[str, Any]) -> str | None:
    """The first Content-Type value of a page item's ``response_headers`` (any case of the name;
    ``{name: [values]}`` or ``{name: str}``), or None: how the hall and the sibling room read a
    page's declared type alike."""
    for key, values in (page.get("response_headers") or {}).items():
        if key.lower() == "content-type":
            return values if isinstance(values, str) else (values[0] if values else None)
    return None
