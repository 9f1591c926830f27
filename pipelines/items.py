"""The items the extract pipeline emits: the fields every news item shares, built in one place.

A news item (article) and a ``NewsList`` item (list page) share their identity, provenance and
archive fields; :func:`item_fields` builds them from the page item and ``Extraction.to_dict()``.
"""

from __future__ import annotations

import hashlib
from typing import Any
from urllib.parse import urlsplit

__all__ = ["item_fields", "news_item", "site_of"]


def item_fields(page: dict[str, Any], extraction: dict[str, Any]) -> dict[str, Any]:
    """``id`` (SHA-1 of the canonical URL), ``url``, ``canonical_url``, ``site``, ``fetched_at``,
    ``page_type``, ``language``, ``template_key``, ``route``, ``referer``, ``title``, ``warc``."""
    url = page["url"]
    canonical = extraction.get("canonical_url") or url
    return {
        "id": hashlib.sha1(canonical.encode("utf-8")).hexdigest(),
        "url": url,
        "canonical_url": canonical,
        "site": site_of(url),
        "fetched_at": page.get("fetched_at"),
        "page_type": extraction["page_type"],
        "language": extraction.get("language"),
        "template_key": page.get("template_key"),
        "route": page.get("route"),
        "referer": page.get("referer"),
        "title": extraction.get("title"),
        "warc": page.get("warc"),
    }


def news_item(page: dict[str, Any], extraction: dict[str, Any]) -> dict[str, Any]:
    """The news item of the contract, from a page item and ``Extraction.to_dict()``."""
    return {
        **item_fields(page, extraction),
        "body": extraction.get("body"),
        "extraction": {
            **extraction.get("extraction", {}),
            "encoding": extraction.get("encoding"),
            "timings_ms": extraction.get("timings_ms", {}),
        },
    }


def site_of(url: str) -> str:
    """The host of ``url``, lower-cased, without a leading ``www.``.

    >>> site_of("https://WWW.BBC.com/news/business-27107354")
    'bbc.com'
    """
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")
