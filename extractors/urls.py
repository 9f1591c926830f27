"""The URLs a page declares about itself: its canonical URL and its main image.

Resolved against the page's ``<base>`` and URL; only absolute ``http(s)`` URLs are kept, so a
``javascript:`` or ``data:`` value in ``og:image`` (or anywhere else) is refused, with the reason
in the field's notes, and the next candidate taken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

from extractors import bylines
from extractors.metadata import Metadata
from extractors.page import Page
from extractors.tagpaths import join_url

if TYPE_CHECKING:
    from extractors.fields import Fields

__all__ = ["absolute_http", "ld_strings", "page_urls"]


def page_urls(out: Fields, page: Page, meta: Metadata) -> None:
    """Fill ``canonical_url`` (``link rel=canonical``, else ``og:url``) and ``image`` (og:image,
    JSON-LD, twitter:image, microdata, ``link rel=image_src``), absolute, http(s) only."""
    base = bylines.base_of(page)
    for href, source in [*((h, "meta") for h in meta.links.get("canonical", ())),
                         *((h, "opengraph") for h in meta.meta.get("og:url", ()))]:
        url, why = absolute_http(href, base)
        if url and out.fill("canonical_url", url.split("#")[0], source):
            break
        if why:
            out.note("canonical_url", why)
    images = [(v, "opengraph") for k in ("og:image", "og:image:secure_url", "og:image:url")
              for v in meta.meta.get(k, ())]
    images += [(v, "jsonld") for o in meta.ld_articles for v in ld_strings(o, "image")]
    images += [(v, "meta") for k in ("twitter:image", "twitter:image:src")
               for v in meta.meta.get(k, ())]
    images += [(v, "microdata") for v in meta.microdata.get("image", ())]
    images += [(v, "meta") for v in meta.links.get("image_src", ())]
    for href, source in images:
        url, why = absolute_http(href, base)
        if url and out.fill("image", url, source):
            break
        if why:
            out.note("image", why)


def absolute_http(href: str, base: str | None) -> tuple[str | None, str | None]:
    """(absolute http(s) URL, None) or (None, why it was refused).

    >>> absolute_http("/a.jpg", "https://s.org/n/x"), absolute_http("javascript:alert(1)", None)
    (('https://s.org/a.jpg', None), (None, 'refused a javascript: URL'))
    """
    href = (href or "").strip()
    if not href:
        return None, None
    scheme = href.split(":", 1)[0].lower() if ":" in href.split("/", 1)[0] else ""
    if scheme and scheme not in ("http", "https"):
        return None, f"refused a {scheme[:12]}: URL"
    url = join_url(base, href)
    parts = urlsplit(url) if url is not None else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        return None, f"not an absolute http(s) URL: {href[:80]!r}"
    return urlunsplit(parts), None


def ld_strings(obj: dict, *keys: str) -> list[str]:
    """String values of ``keys`` in a JSON-LD object (lists flattened, ``{"url"|"@id"}`` read)."""
    found: list[str] = []
    for key in keys:
        value = obj.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                found.append(item)
            elif isinstance(item, dict):
                inner = item.get("url") or item.get("@id") or item.get("name")
                if isinstance(inner, str):
                    found.append(inner)
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                found.append(str(item))
    return found[:20]
