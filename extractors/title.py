"""The article's headline, chosen among the titles a page declares and its headings.

Declared titles: JSON-LD ``headline``, ``og:title``, ``twitter:title``, microdata ``headline``,
``<title>``. A heading (``<h1>``, else the first ``<h2>``s) whose text one of them contains is the
headline with the site name already gone; a heading that is only the site's name (the logo ``<h1>``
of WordPress-style themes) is never the headline. Without such a heading, the first declared title
loses its site-name and section parts ("Headline - Section | Site", "Site: Headline").
"""

from __future__ import annotations

import html
import re
import unicodedata

from extractors.metadata import Metadata
from extractors.page import Page

__all__ = ["choose_title", "site_names", "strip_site_name"]

#: Separators between headline and site name in ``<title>``.
_TITLE_SPLIT = re.compile(r"\s+[|\-–—:·»«/]\s+|\s*[|｜]\s*|\s+[-–—]\s*|\s*－\s*|_|::")
_SPACES = re.compile(r"\s+")
#: Headings shorter than this are section labels, not headlines.
MIN_HEADLINE_CHARS = 4
#: Headings looked at: the first few ``<h1>`` (pages with a logo ``<h1>`` have 2-3).
MAX_HEADINGS = 5


def choose_title(page: Page, meta: Metadata) -> tuple[str | None, str | None]:
    """(headline, source) where source is ``jsonld``, ``opengraph``, ``meta``, ``microdata`` or
    ``text`` (a heading)."""
    declared = declared_titles(meta)
    sites = site_names(meta)
    headings = [h for h in (_clean(el.text_content()) for el in _headings(page))
                if len(h) >= MIN_HEADLINE_CHARS and _key(h) not in sites]
    for heading in headings:
        if any(heading in title for title, _ in declared):  # case matters: "Data science" is
            return heading, "text"                           # a label in "Free Data Science..."
    if declared:
        title, source = declared[0]
        return strip_site_name(title, sites), source
    return (headings[0], "text") if headings else (None, None)


def declared_titles(meta: Metadata) -> list[tuple[str, str]]:
    """[(title, source)] in order of trust."""
    found: list[tuple[str, str]] = []
    for obj in meta.ld_articles:
        for key in ("headline", "name"):
            if isinstance(obj.get(key), str):
                found.append((obj[key], "jsonld"))
                break
    for value in meta.ld_salvaged.get("headline", ()):
        found.append((value, "jsonld"))
    for value in meta.microdata.get("headline", ()):
        found.append((value, "microdata"))
    for key, source in (("og:title", "opengraph"), ("twitter:title", "meta")):
        found += [(v, source) for v in meta.meta.get(key, ())]
    if meta.title_tag:
        found.append((meta.title_tag, "meta"))
    return [(t, s) for t, s in ((_clean(html.unescape(t)), s) for t, s in found) if t]


def site_names(meta: Metadata) -> set[str]:
    """Normalised names the site calls itself (og:site_name, application-name, the publisher)."""
    names = [*meta.meta.get("og:site_name", ()), *meta.meta.get("application-name", ()),
             *meta.meta.get("twitter:site", ())]
    for obj in (*meta.ld_articles, *meta.ld_pages, *meta.ld_other):
        publisher = obj.get("publisher")
        if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
            names.append(publisher["name"])
        if "website" in str(obj.get("@type", "")).lower() and isinstance(obj.get("name"), str):
            names.append(obj["name"])
    return {k for k in (_key(n.lstrip("@")) for n in names) if k}


def strip_site_name(title: str, sites: set[str]) -> str:
    """``title`` without the site's name and section parts.

    >>> strip_site_name("Rain falls - Weather | Daily", {"daily"})
    'Rain falls'
    >>> strip_site_name("Daily: Rain falls all day", {"daily"})
    'Rain falls all day'
    """
    head, sep, rest = title.partition(":")
    if sep and rest.strip() and _key(head) in sites:
        title = rest.strip()
    parts = [p.strip() for p in _TITLE_SPLIT.split(title) if p and p.strip()]
    if len(parts) < 2:
        return title
    kept = [p for p in parts if _key(p) not in sites]
    if kept and len(kept) < len(parts):
        parts = kept
        if len(parts) == 1:
            return parts[0]
    longest = max(parts, key=len)
    first = parts[0]
    # "Headline - Section | Site": the first part, unless a later one is much longer (then the
    # page put the site first: "Site | Headline").
    return first if len(first) * 2 >= len(longest) else longest


def _headings(page: Page):
    h1 = list(page.body.iter("h1"))[:MAX_HEADINGS]
    return h1 if h1 else list(page.body.iter("h2"))[:MAX_HEADINGS]


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _key(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip(
        " \t\"'“”‘’«»「」『』《》()[]:;,.!?|-–—·")
