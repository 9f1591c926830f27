"""One list record's fields, read from its structure: title, absolute URL, date and authors.

A record (paper 004, 3.2.2: "every record holds at least one link, which points to the page the
record is about") is given as the node-table rows and text segments it spans plus its standard
link(s).

- ``title``: the first standard link's text, or only the text of the first heading (``h1``-``h6``)
  inside it when the link wraps a whole card (heading, teaser, date); for an image link, its
  ``title`` attribute or the image's ``alt``; else the next standard link's.
- ``url``: that link's ``href`` resolved against the page URL and the page's ``<base href>``; as
  written when the page has neither.
- ``date``: the text of a ``<time>`` element inside the record as printed (its ``datetime``
  attribute when it prints nothing), else the first text that matches :data:`DATE_PATTERNS`,
  returned as found in the page. Recognised: ``2024-01-31``, ``2024/1/31``, ``2024.01.31``
  (optionally followed by a time ``12:30[:45]``), ``2024年1月31日`` (time optional), ``01-31 12:30``
  and ``1月31日 12:30`` (month-day with a time, common on Chinese list pages), ``31/01/2024``,
  ``01/31/2024`` and ``31.01.2024`` (returned as written, not disambiguated), ``31 January 2024``,
  ``Jan 31, 2024``, ``January 31 2024``, and relative ages ``3 hours ago``, ``14m ago``, ``2h ago``,
  ``5分钟前``/``2小时前``/``3天前``, ``昨天``/``今天`` (with an optional time).
- ``authors``: the text of the innermost elements inside the record whose class, id, ``rel`` or
  ``itemprop`` says ``author`` or ``byline`` (a leading "By" removed; a byline box that also holds
  the date yields its inner author element), else a ``作者：NAME`` segment; none otherwise.

>>> DATE_PATTERNS.search("Posted 2024年3月5日 10:20 by X").group(0)
'2024年3月5日 10:20'
>>> DATE_PATTERNS.search("Updated Jan 5, 2024").group(0)
'Jan 5, 2024'
>>> DATE_PATTERNS.search("3 hours ago").group(0)
'3 hours ago'
>>> DATE_PATTERNS.search("14m ago").group(0), DATE_PATTERNS.search("am 22.05.2019").group(0)
('14m ago', '22.05.2019')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from extractors.page import Page
from extractors.tagpaths import join_url, link_href, normalise_space

__all__ = ["DATE_PATTERNS", "Record", "base_url", "build_record", "link_title"]

_MONTHS = (r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
           r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?")
_TIME = r"(?:\s*\d{1,2}:\d{2}(?::\d{2})?)"
DATE_PATTERNS = re.compile("|".join((
    rf"\b(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?!\d){_TIME}?",
    rf"(?:19|20)\d\d\s*年\s*\d{{1,2}}\s*月\s*\d{{1,2}}\s*日{_TIME}?",
    rf"(?<!\d)\d{{1,2}}\s*月\s*\d{{1,2}}\s*日{_TIME}?",
    rf"(?<![\d-])(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01]){_TIME}",
    r"\b\d{1,2}/\d{1,2}/(?:19|20)\d\d\b",
    r"\b\d{1,2}\.\d{1,2}\.(?:19|20)\d\d\b",
    rf"\b\d{{1,2}}\s+{_MONTHS}\s+(?:19|20)\d\d\b",
    rf"\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d\d\b",
    r"\b\d{1,3}\s+(?:second|minute|hour|day|week|month|year)s?\s+ago\b",
    r"\b\d{1,3}\s?(?:s|m|h|d|w|min|mins|hr|hrs)\s+ago\b",
    r"\d{1,3}\s*(?:秒|分钟|小时|天|周|个月|年)前",
    rf"(?:昨天|今天|前天){_TIME}?",
)), re.IGNORECASE)
_AUTHOR_MARK = re.compile(r"author|byline", re.IGNORECASE)
_BY = re.compile(r"^\s*(?:by|von|par|por)\s+", re.IGNORECASE)
_ZH_AUTHOR = re.compile(r"作者\s*[:：]\s*(\S{1,30})")


@dataclass(slots=True)
class Record:
    """One record of a list page."""

    title: str
    url: str                      # absolute when the page URL or <base href> is known
    date: str | None = None       # as found in the record
    authors: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        """``{"title", "url", "published", "authors"}`` (the item shape of the crawl)."""
        return {"title": self.title, "url": self.url, "published": self.date,
                "authors": list(self.authors)}


def base_url(page: Page) -> str | None:
    """The URL relative links of ``page`` resolve against: its ``<base href>`` joined to its URL.

    >>> from extractors.page import parse_page
    >>> html = '<html><head><base href="/news/"></head><body><a href="a">x</a></body></html>'
    >>> base_url(parse_page(html, url="https://s.com/x/y")), base_url(parse_page(html))
    ('https://s.com/news/', '/news/')
    """
    for href in page.root.xpath("/html/head/base/@href | /html/body//base/@href"):
        href = str(href).strip()
        if href:
            return join_url(page.url, href) or page.url
    return page.url


def build_record(page: Page, rows: tuple[int, int], segments: tuple[int, int], links: list[int],
                 base: str | None) -> Record | None:
    """The record spanning node-table ``rows`` (inclusive) and ``segments`` (half-open), titled
    and linked by the first of its standard ``links`` that has a target; None when none has."""
    nodes = page.nodes
    title, url = "", None
    for row in links:
        href = link_href(nodes.elements[row])
        if href is not None and base:
            href = join_url(base, href)
        if href is None:
            continue
        text = link_title(page, row)
        if url is None:
            url = href
        if text:
            title = text
            break
    if url is None:
        return None
    return Record(title, url, _date(page, rows, segments), _authors(page, rows, segments))


_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def link_title(page: Page, row: int) -> str:
    """The title a link gives its record: its first heading's text, else its text, else its
    ``title`` attribute or an image's ``alt``; "" when it has none."""
    nodes = page.nodes
    for inner in range(row + 1, int(nodes.end[row]) + 1):
        if nodes.tag[inner] in _HEADINGS and nodes.text[inner] > 0:
            return normalise_space(nodes.inner_text(inner))
    text = normalise_space(nodes.inner_text(row))
    if text:
        return text
    element = nodes.elements[row]
    for value in [element.get("title")] + element.xpath(".//img/@alt"):
        if value and value.strip():
            return normalise_space(value)
    return ""


def _date(page: Page, rows: tuple[int, int], segments: tuple[int, int]) -> str | None:
    nodes = page.nodes
    for row in range(rows[0], rows[1] + 1):
        if nodes.tag[row] == "time":
            printed = normalise_space(nodes.inner_text(row))
            value = printed or (nodes.elements[row].get("datetime") or "").strip()
            if value:
                return value
    for text in nodes.seg_text[segments[0]:segments[1]]:
        found = DATE_PATTERNS.search(text)
        if found:
            return normalise_space(found.group(0))
    return None


def _authors(page: Page, rows: tuple[int, int], segments: tuple[int, int]) -> list[str]:
    nodes = page.nodes
    marked = []
    for row in range(rows[0], rows[1] + 1):
        element = nodes.elements[row]
        marks = " ".join((nodes.classes[row], nodes.ident[row], element.get("rel") or "",
                          element.get("itemprop") or ""))
        if _AUTHOR_MARK.search(marks):
            marked.append(row)
    # the innermost marked elements: a byline box also holds the date and the comment count
    innermost = [r for i, r in enumerate(marked)
                 if not any(r < other <= nodes.end[r] for other in marked[i + 1:])]
    found: list[str] = []
    for row in innermost:
        name = _BY.sub("", normalise_space(nodes.inner_text(row)))
        if name and name not in found:
            found.append(name)
    if not found:
        for text in nodes.seg_text[segments[0]:segments[1]]:
            match = _ZH_AUTHOR.search(text)
            if match:
                return [match.group(1)]
    return found
