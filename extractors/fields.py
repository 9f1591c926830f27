"""Article fields read from the page's own markup: for now the title.

The title is chosen among the page's declared titles (``og:title``, ``twitter:title``, ``<title>``) and
its headings: a ``<h1>`` (else ``<h2>``) whose text is contained in a declared title is the headline
with the site name already stripped; otherwise the declared title with its site-name part removed
(the longest part when split at `` | ``, `` - ``, `` – ``, ``_``).
"""

from __future__ import annotations

import re

from extractors.page import Page

__all__ = ["extract_title"]

#: Separators between headline and site name in ``<title>``.
_TITLE_SPLIT = re.compile(r"\s+[|\-–—:·»]\s+|_|\s*｜\s*|\s*－\s*")
_SPACES = re.compile(r"\s+")
#: Headings shorter than this are section labels, not headlines.
MIN_HEADLINE_CHARS = 4


def extract_title(page: Page) -> str | None:
    """The article's headline, or ``None`` when the page declares none."""
    declared = _declared_titles(page)
    headings = [h for h in (_clean(el.text_content()) for el in _headings(page))
                if len(h) >= MIN_HEADLINE_CHARS]
    for heading in headings:
        if any(heading in title for title in declared):
            return heading
    if declared:
        return _strip_site_name(declared[0])
    return headings[0] if headings else None


def _declared_titles(page: Page) -> list[str]:
    root = page.root
    found = [el.get("content") for el in root.iterfind(".//meta[@property='og:title']")]
    found += [el.get("content") for el in root.iterfind(".//meta[@name='twitter:title']")]
    found += [el.text_content() for el in root.iterfind(".//title")]
    return [t for t in (_clean(x) for x in found if x) if t]


def _headings(page: Page):
    h1 = list(page.body.iter("h1"))
    return h1 if h1 else list(page.body.iter("h2"))[:5]


def _strip_site_name(title: str) -> str:
    parts = [p.strip() for p in _TITLE_SPLIT.split(title) if p and p.strip()]
    return max(parts, key=len) if len(parts) > 1 else title


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text).strip()
