"""Dates and authors from the visible page when its metadata gives none: bylines and datelines.

Run only for pages whose metadata left the field empty. First the elements whose class or id
names a date or an author (``class="entry-date"``, ``id="byline"``: what CMS templates write),
then the text after the headline, where bylines sit; for Chinese pages the "作者：" / "来源：" line.
"""

from __future__ import annotations

import re
from datetime import datetime

from lxml import etree

from extractors.authors import clean_authors
from extractors.dates import FoundDate, first_date_in, parse_date
from extractors.page import Page

__all__ = ["base_of", "text_authors", "text_date"]

#: Elements with a date-ish class looked at (the byline is among the first few of a page).
MAX_MARKED = 30
#: Longest text of a marked element read as a date or a byline (a dateline with place and time
#: is under ~120 characters; longer ones are whole teasers).
MAX_MARKED_CHARS = 160
#: Characters after the headline searched for a dateline (bylines sit right below the headline;
#: 1 500 covers a standfirst and an image caption in between).
AFTER_HEADLINE_CHARS = 1_500
#: Characters of body text searched for a Chinese byline (it sits above or right below the text).
MAX_BYLINE_SCAN = 20_000

_DATE_MARKED = etree.XPath(
    "//body//*[contains(@class, 'date') or contains(@class, 'time') or contains(@class, 'publish')"
    " or contains(@class, 'posted') or contains(@class, 'byline') or contains(@class, 'meta')"
    " or contains(@id, 'date') or contains(@id, 'time') or contains(@class, 'info')"
    " or contains(@class, 'Date') or contains(@class, 'Time')]")
_AUTHOR_MARKED = etree.XPath(
    "//body//*[contains(@class, 'author') or contains(@class, 'byline') or contains(@id, 'author')"
    " or contains(@class, 'Author') or contains(@class, 'writer') or contains(@class, 'autor')"
    " or contains(@class, 'reporter') or contains(@itemprop, 'author')]")
_SKIP_CLASSES = re.compile(r"(?i)comment|related|footer|sidebar|widget|bio|avatar|share|social")
_CJK_BYLINE = re.compile(r"(?:作者|记者|撰文|文|编辑|责任编辑|责编)\s*[:：/]\s*"
                         r"([\u4e00-\u9fff·]{2,5}(?:[ 、，,][\u4e00-\u9fff·]{2,5}){0,3})")


def base_of(page: Page) -> str | None:
    """The URL relative links resolve against: ``<base href>`` joined to the page URL."""
    from urllib.parse import urljoin

    for element in page.root.iterfind(".//base"):
        href = (element.get("href") or "").strip()
        if href:
            return urljoin(page.url or "", href)
    return page.url


def text_date(page: Page, fetched_at: datetime | None, langs: tuple[str, ...]
              ) -> FoundDate | None:
    """A publication date written on the page: in a date-marked element, else after the
    headline, else the first one in the body."""
    for element in _marked(_DATE_MARKED, page):
        text = " ".join(" ".join(element.itertext()).split())
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        found = first_date_in(text, fetched_at)
        if found is None and len(text) <= 60:
            found = parse_date(text, fetched_at, langs)[0]
        if found is not None:
            return found
    body_text = page.body.text_content()
    start = _headline_at(page, body_text)
    found = first_date_in(body_text[start:start + AFTER_HEADLINE_CHARS], fetched_at)
    return found or first_date_in(body_text[:20_000], fetched_at)


def text_authors(page: Page, sites: tuple[str, ...], page_lang: str | None = None) -> list[str]:
    """Names from a byline element, else from a Chinese "作者：" / "责任编辑：" line (first, on
    Chinese and Japanese pages)."""
    if page_lang in ("zh", "ja"):  # Chinese bylines name the reporter or editor in the text
        names = _cjk_byline(page, sites)
        if names:
            return names
    for element in _marked(_AUTHOR_MARKED, page):
        text = " ".join(" ".join(element.itertext()).split())
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        names, _ = clean_authors([text], sites)
        if names:
            return names
    return _cjk_byline(page, sites)


def _cjk_byline(page: Page, sites: tuple[str, ...]) -> list[str]:
    match = _CJK_BYLINE.search(page.body.text_content()[:MAX_BYLINE_SCAN])
    return clean_authors([match.group(1)], sites)[0] if match else []


def _marked(xpath: etree.XPath, page: Page):
    seen = 0
    for element in xpath(page.root):
        marks = f"{element.get('class') or ''} {element.get('id') or ''}"
        if _SKIP_CLASSES.search(marks) or element.tag in ("body", "html", "article", "main"):
            continue
        seen += 1
        if seen > MAX_MARKED:
            return
        yield element


def _headline_at(page: Page, body_text: str) -> int:
    heading = next(page.body.iter("h1"), None)
    if heading is None:
        return 0
    text = heading.text_content().strip()
    at = body_text.find(text) if text else -1
    return at + len(text) if at >= 0 else 0
