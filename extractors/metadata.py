"""The structured metadata a page declares, read from its one parse: meta tags, links, microdata,
``<time>`` elements and JSON-LD.

The head's ``meta`` and ``link`` elements, then the body's elements that can carry metadata
(``meta``, ``link``, ``time``, ``[itemprop]``, ``a[rel~=author]``) from the node table's element
list, so the tree is not walked again; JSON-LD comes from the script texts the parse kept
(:mod:`extractors.jsonld`). Nothing here interprets values (dates, names, URLs): that is
:mod:`extractors.fields`. Measured (60 wcxb_dev pages, median of each page's best of 3 runs):
``read_metadata`` 0.41 ms, an lxml parse of the same pages 1.88 ms.

Why not ``extruct``: on the same pages ``extruct.extract`` (JSON-LD, microdata, OpenGraph) takes
16.4 ms, 8.7 times the parse, because it parses the page again and walks it in Python; its
JSON-LD reader also needs the script elements our cleaned tree no longer holds. What we need from
microdata is a handful of ``itemprop`` values, which the node table's element list gives.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress, count

from lxml import etree

from extractors.jsonld import ARTICLE_TYPES, article_objects, page_jsonld, type_names
from extractors.page import Page

__all__ = ["Metadata", "read_metadata"]

#: Characters kept of an element's text used as a value (a date, a name, a section).
MAX_VALUE_CHARS = 300
#: Elements read per page by the union below (bounds a page of 100 000 ``itemprop`` spans).
MAX_ELEMENTS = 5_000

_HEAD_TAGS = ("meta", "link")
_BODY_TAGS = frozenset({"meta", "link", "time", "a"})
#: :data:`_BODY_TAGS` but the links, whose ``rel`` :class:`extractors.boilerplate.Markup` holds.
_OTHER_BODY_TAGS = _BODY_TAGS - {"a"}
_PUBLISHED_HINTS = ("publish", "posted", "entry-date", "created", "pubdate", "date-time",
                    "dateline")
_MODIFIED_HINTS = ("updated", "modified", "update")
#: Class/id words of a block beside the article (other stories' dates live there), for ``<time>``.
#: "comment": a reader's comment box dates the comment (kochbar.de's ``kb-recipe-comment-box``
#: ``<time>``s of 22-26 September under a tip of the 20th; every page with a gold date:
#: trafilatura_eval 666 -> 667, htmldate_eval 930 -> 931, no page lost on any set;
#: docs/evaluation.md, "Dates, eleventh round").
_ASIDE_MARKS = ("related", "comment")


@dataclass(slots=True)
class TimeElement:
    """A ``<time>`` element: its machine value (``datetime``), text and what its markup says."""

    value: str
    text: str
    role: str  # "published" | "modified" | "" (nothing says)
    #: Inside a block beside the article (``<aside>``, a "related" block, an embedded post): another
    #: story's date, not this one's (see :func:`_beside`).
    aside: bool = False


@dataclass(slots=True)
class Metadata:
    """Raw metadata values of a page, each list in document order."""

    meta: dict[str, list[str]] = field(default_factory=dict)
    microdata: dict[str, list[str]] = field(default_factory=dict)
    micro_authors: list[str] = field(default_factory=list)
    rel_authors: list[str] = field(default_factory=list)
    times: list[TimeElement] = field(default_factory=list)
    links: dict[str, list[str]] = field(default_factory=dict)
    ld_articles: list[dict] = field(default_factory=list)
    ld_pages: list[dict] = field(default_factory=list)
    ld_other: list[dict] = field(default_factory=list)
    ld_problems: list[str] = field(default_factory=list)
    ld_salvaged: dict[str, list[str]] = field(default_factory=dict)
    html_lang: str | None = None
    title_tag: str | None = None

    def first_meta(self, *keys: str) -> tuple[str, str] | None:
        """(value, key) of the first non-empty meta value among ``keys``, in key order."""
        for key in keys:
            for value in self.meta.get(key, ()):
                if value.strip():
                    return value.strip(), key
        return None


def read_metadata(page: Page) -> Metadata:
    """Every metadata value of ``page`` (never raises on odd markup: odd values are skipped)."""
    found = Metadata()
    root = page.root
    found.html_lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    title = root.find("head/title")
    if title is None:
        title = next(root.iter("title"), None)
    if title is not None:
        found.title_tag = _text(title)
    head = root.find("head")
    if head is not None:
        for element in head.iter(*_HEAD_TAGS):
            _read_element(element, found)
    markup = page.memo.get("markup")
    if markup is not None:  # the chain read the itemprop attributes already
        _read_body(page, markup, found)
    else:
        for element in _body_elements(page):
            _read_element(element, found)
    ld = page_jsonld(page)
    found.ld_articles, found.ld_pages = article_objects(ld.objects)
    known = {id(o) for o in (*found.ld_articles, *found.ld_pages)}
    found.ld_other = [o for o in ld.objects if id(o) not in known]
    found.ld_problems, found.ld_salvaged = ld.problems, ld.salvaged
    return found


def _body_elements(page: Page):
    """The body's elements that can carry metadata, from the node table's element list (a
    second walk of the tree, as an XPath, costs 1.5-2 ms on a large page; this ~0.8)."""
    nodes, taken = page.nodes, 0
    for element, tag in zip(nodes.elements, nodes.tag, strict=True):
        if tag in _BODY_TAGS or element.get("itemprop") is not None:
            yield element
            taken += 1
            if taken >= MAX_ELEMENTS:
                return


def _read_body(page: Page, markup, found: Metadata) -> None:
    """What ``for element in _body_elements(page): _read_element(element, found)`` reads, from
    the rows :func:`extractors.boilerplate.read_markup` found an ``itemprop`` on: no ``get()``
    per element for it, and a plain link (most of the elements read) only has its ``rel`` read
    here, as _read_element would, without the call: from ``markup.link_rels`` (the links'
    ``rel`` attributes, found by the markup pass's search), so where the :data:`MAX_ELEMENTS`
    cap cannot bind, the links without a ``rel`` are not even visited (0.17 -> 0.06 ms a page
    on big9's 80 pages, 0.36 -> 0.12 on cx_163's, a thousand links a page: median CPU in the
    chain)."""
    nodes = page.nodes
    props = {row for row, _ in markup.itemprops}
    elements, tags = nodes.elements, nodes.tag
    rels = markup.link_rels  # a link without a rel has nothing to read
    # the tags counted only where the page has more rows than the cap: the count is at most
    # the rows' (0.026 ms a page on big9's first 80, 0.044 on cx_163's, warm)
    if len(props) + len(tags) <= MAX_ELEMENTS or \
            len(props) + sum(map(tags.count, _BODY_TAGS)) <= MAX_ELEMENTS:
        # no cap to count the links under: only the links with a rel are visited
        rows = props.union(compress(count(), map(_OTHER_BODY_TAGS.__contains__, tags)), rels)
    else:
        rows = props.union(compress(count(), map(_BODY_TAGS.__contains__, tags)))
    for row in sorted(rows)[:MAX_ELEMENTS]:
        if tags[row] == "a" and row not in props:
            if "author" in rels.get(row, "").lower():
                found.rel_authors.append(_text(elements[row]))
        else:
            _read_element(elements[row], found)


def _read_element(element: etree._Element, found: Metadata) -> None:
    tag = element.tag
    if tag == "meta":
        _read_meta(element, found)
    elif tag == "link":
        rel = (element.get("rel") or "").lower()
        href = element.get("href")
        if href:
            for name in rel.split():
                found.links.setdefault(name, []).append(href.strip())
    elif tag == "time":
        found.times.append(_time(element))
    if tag == "a" and "author" in (element.get("rel") or "").lower():
        found.rel_authors.append(_text(element))
    if element.get("itemprop") and tag != "meta":
        _read_itemprop(element, found)


def _read_meta(element: etree._Element, found: Metadata) -> None:
    content = element.get("content")
    if content is None:
        return
    for attribute in ("property", "name", "itemprop", "http-equiv"):
        key = element.get(attribute)
        if key:
            # RDFa's property may name several properties: "dc:creator twitter:site_name"
            for name in key.split() if attribute == "property" else (key.strip(),):
                found.meta.setdefault(name.lower(), []).append(content)
            if attribute == "itemprop":
                _add_prop(element, key, content, found)
            return


#: Microdata types whose ``author`` / ``creator`` made a picture or a clip, not the article:
#: an ``ImageObject``'s credit ("Benoit Tessier/Reuters" on readability_testpages' citylab
#: page, read as the article's author where the byline names Sarah Archer). Every page of
#: trafilatura_eval, wcxb_dev, readability_testpages and gne: readability_testpages 54 -> 55 of
#: the 76 with a gold author, no other page with one moved; 3 pages without one lost a photo
#: credit ("Mike Blake, Reuters files", "domena publiczna") (docs/evaluation.md, "Authors, sixth
#: round").
_MEDIA_TYPES = ("imageobject", "videoobject", "audioobject", "mediaobject", "photograph")


def _of_media(element: etree._Element) -> bool:
    """Whether the item ``element`` is a property of (its nearest ancestor with ``itemscope``)
    is a picture, a video or a sound (:data:`_MEDIA_TYPES`)."""
    for item in element.iterancestors():
        if item.get("itemscope") is not None:
            return any(t in (item.get("itemtype") or "").lower() for t in _MEDIA_TYPES)
    return False


def _read_itemprop(element: etree._Element, found: Metadata) -> None:
    props = element.get("itemprop") or ""
    if "author" in props.lower() or "creator" in props.lower():
        if _of_media(element):
            return  # a picture's photographer, not the article's author
        name = None
        if element.get("itemscope") is not None:
            named = element.xpath(".//*[@itemprop='name']")
            if named:
                name = named[0].get("content") or _text(named[0])
        found.micro_authors.append(name or element.get("content") or _text(element))
        return
    if element.get("itemscope") is not None:
        return
    value = (element.get("content") or element.get("datetime") or element.get("href")
             or element.get("src") or _text(element))
    _add_prop(element, props, value, found)


def _add_prop(element: etree._Element, props: str, value: str, found: Metadata) -> None:
    """Record ``value`` under each of ``props``; a value outside an article's itemscope is kept
    under ``page:<prop>`` (a page's or a comment's date is not the article's)."""
    scope = next((a for a in element.iterancestors() if a.get("itemscope") is not None), None)
    in_article = scope is not None and bool(
        type_names({"@type": (scope.get("itemtype") or "").split()}) & ARTICLE_TYPES)
    for prop in props.split():
        key = prop.strip() if in_article else "page:" + prop.strip()
        found.microdata.setdefault(key, []).append(value)


def _time(element: etree._Element) -> TimeElement:
    marks = " ".join(filter(None, (element.get("class"), element.get("itemprop"),
                                   element.getparent().get("class")
                                   if element.getparent() is not None else None))).lower()
    role = ""
    if element.get("pubdate") is not None or any(h in marks for h in _PUBLISHED_HINTS):
        role = "published"
    elif any(h in marks for h in _MODIFIED_HINTS):
        role = "modified"
    return TimeElement((element.get("datetime") or "").strip(), _text(element), role,
                       _beside(element))


def _beside(element: etree._Element) -> bool:
    """Whether ``element`` sits in a block beside the article: an ``<aside>``, a
    ``<blockquote>`` (an embedded post: Instagram's embed carries its own ``<time>``), or an
    element whose class or id names a "related" block or a reader's comment (``_ASIDE_MARKS``;
    ``<body>``'s own classes say nothing about one element). "sidebar" was tried too and left
    out: layouts name their main column so (``id="sidebar"``, ``c-layout-sidebar-left``) and 2
    right dates were lost.

    The first ``<time>`` of a page is often a related story's ("related-posts" lists under the
    article, an ``<aside>`` of latest posts) or an embedded post's: on htmldate_eval and
    trafilatura_eval such a date was taken for the article's on 6 pages (docs/evaluation.md,
    "Dates, fifth round")."""
    for ancestor in element.iterancestors():
        tag = ancestor.tag
        if tag in ("body", "html"):
            return False
        if tag in ("aside", "blockquote"):  # a blockquote: an embedded post (Instagram's)
            return True
        marks = f"{ancestor.get('class') or ''} {ancestor.get('id') or ''}".lower()
        if any(word in marks for word in _ASIDE_MARKS):
            return True
    return False


def _text(element: etree._Element) -> str:
    return " ".join(element.text_content()[:MAX_VALUE_CHARS * 2].split())[:MAX_VALUE_CHARS]
