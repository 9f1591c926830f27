"""The link scan of a fetched page, run in a worker thread: its same-site links, capped, or why not.

The spider needs a page's links before it yields the page item (they decide the route and the
sibling link the pairing waits on). The scan parses the page once, with the extractor's own rules
(:func:`extractors.parse_page`: the extractor's decoding, the limits of
:mod:`extractors.markup_limits`, the cleaning of paper 000), reads the links from that parse (the
``href`` values its node table read while it was built, :func:`_hrefs`), and
hands the parsed page on in the page item (``parsed``), so the extract pipeline does not decode
and parse it a second time. A page that would stall the parser (``too_many_elements``,
``too_many_attributes``) or lose text silently (``too_deep``) is refused with that reason; a page
the extractor cannot read at all (empty, binary, undecodable) has no links and goes on to the
pipeline, which counts why.

Links are read as Scrapy's default ``LinkExtractor`` reads them (``<a href>`` and ``<area href>``,
HTML5 whitespace stripped, joined with ``<base href>``, made safe with ``safe_url_string`` in the
page's encoding, links to ``IGNORED_EXTENSIONS`` files dropped), then kept when on the page's own
site (:func:`crawler.scope.site_origin`: scheme, host and port), deduplicated in page order and cut
at ``max_links`` (``capped`` says so). Links inside the subtrees the cleaning drops (``noscript``,
``template``, ``iframe``...: paper 000's noise) are not read. Why not the ``LinkExtractor`` itself:
it parses through parsel, a second parse of every page, which also hides the parser's error log
(a page cut at the depth limit could not be told apart).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lxml import etree
from scrapy.http import Response
from scrapy.linkextractors import IGNORED_EXTENSIONS
from w3lib.html import HTML5_WHITESPACE, strip_html5_whitespace
from w3lib.url import safe_url_string

from crawler.scope import FETCHABLE_SCHEMES, site_origin
from extractors.errors import BadInput, MarkupTooComplex, TooDeep, TooManyElements
from extractors.page import DEFAULT_MAX_BYTES, Page, parse_page
from extractors.script import page_is_cjk

__all__ = ["MAX_LINKS_PER_PAGE", "KnownLinks", "PageScan", "scan_page"]

#: Same-site links followed per page. The most links on one page over 2 690 pages of the evaluation
#: datasets is 3 859 (all links, not only same-site; p99 789): 5 000 keeps every real page whole
#: and bounds what one hostile page adds to the queue.
MAX_LINKS_PER_PAGE = 5_000
_LINK_TAGS = ("a", "area")
_DENY_EXTENSIONS = frozenset("." + extension for extension in IGNORED_EXTENSIONS)
#: Outcomes of absolute and root-relative hrefs a :class:`KnownLinks` keeps (about 200 bytes each:
#: 10 MB at most).
MAX_KNOWN_LINKS = 50_000
_UNKNOWN = object()
#: Extensions with a dot of their own (``tar.gz``), which the last-dot look-up cannot see.
_DENY_LONG_EXTENSIONS = tuple(e for e in _DENY_EXTENSIONS if "." in e[1:])
#: Sites of URL heads (``scheme://netloc``) kept by :func:`_site_of` (``functools.lru_cache``:
#: thread-safe, shared by the scan threads). The bench's 240 pages (``crawl-bench``'s 8 sites of
#: cx_bbc and cx_163) ask the site of 11 574 links, of 311 heads; 4 096 heads hold any one crawl's
#: recent hosts in about 1 MB (a head, its site and the cache's entry: ~300 bytes).
SITE_CACHE_SIZE = 4_096
_NETLOC_END = re.compile(r"[/?#]")
_ABSOLUTE = ("http://", "https://")
#: What ``urlsplit`` removes from a URL (tab, CR, LF) or ``safe_url_string`` reads as a slash.
_NOT_SPLIT_AS_WRITTEN = re.compile(r"[\t\r\n\\]")


class KnownLinks:
    """The outcome (the link followed, or None) of absolute and root-relative hrefs already read,
    keyed by the page's site, ``<base>`` origin, encoding and href: such an href reads the same on
    every page of its site. At most ``max_links`` entries, forgotten all at once when full. One per
    spider, shared by its scan threads (a dict's reads and writes are atomic).
    """

    def __init__(self, max_links: int = MAX_KNOWN_LINKS) -> None:
        self.max_links = max_links
        self._links: dict[tuple[tuple[str, str, str], str], str | None] = {}

    def get(self, key: tuple[tuple[str, str, str], str]) -> str | None | object:
        """The outcome kept for ``key``, or ``_UNKNOWN``."""
        return self._links.get(key, _UNKNOWN)

    def put(self, key: tuple[tuple[str, str, str], str], link: str | None) -> None:
        if len(self._links) >= self.max_links:
            self._links.clear()
        self._links[key] = link

    def __len__(self) -> int:
        return len(self._links)


@dataclass(slots=True)
class PageScan:
    """The links to follow from a page, the caps applied, or why the page is refused."""

    links: list[str] = field(default_factory=list)
    refused: str | None = None  # "too_many_elements" | "too_many_attributes" | "too_deep"
    capped: list[str] = field(default_factory=list)  # "links" when links were cut
    found: int = 0  # same-site links before the cap
    page: Page | None = None  # the parsed page, for the extract pipeline
    cjk: bool | None = None  # whether its text is CJK (asked for and parsed; extractors.script)


def scan_page(response: Response, max_links: int = MAX_LINKS_PER_PAGE,
              max_bytes: int = DEFAULT_MAX_BYTES, known: KnownLinks | None = None,
              script: bool = False) -> PageScan:
    """Scan ``response`` (in a worker thread): the checks and links of the module docstring;
    ``known``: the outcomes of hrefs read on earlier pages (the spider's); ``script``: also tell
    whether the page's text is CJK (``PageScan.cjk``, :func:`extractors.script.page_is_cjk`, ~0.5
    ms a page: here, off the reactor), which decides whether an article is paired."""
    content_type = response.headers.get(b"Content-Type")
    try:
        page = parse_page(response.body, url=response.url, max_bytes=max_bytes,
                          content_type=content_type.decode("latin-1") if content_type else None)
    except (TooManyElements, MarkupTooComplex, TooDeep) as exc:
        return PageScan(refused=exc.reason)
    except BadInput:  # nothing readable: no links; the pipeline says why
        return PageScan()
    links = _same_site_links(page, response.url, known)
    scan = PageScan(links=links[:max_links], found=len(links), page=page,
                    cjk=page_is_cjk(page.nodes) if script else None)
    if len(links) > max_links:
        scan.capped.append("links")
    return scan


def _same_site_links(page: Page, url: str, known: KnownLinks | None = None) -> list[str]:
    """The page's same-site links, in page order, each once.

    Hand-written for speed over Scrapy's ``LinkExtractor`` rules (module docstring), with the same
    result: news pages carry hundreds of links, most of them repeated (menus, teasers) or off-site
    (ads, social, other sites of the group), and the full normalisation of each (``urljoin``,
    ``safe_url_string``, ``urljoin``, the extension test) was the costliest part of the crawl around
    the extraction: 9 ms a page on the crawl bench's pages, more than the page's parse. So a repeated
    ``href`` is read once, an ASCII link whose site already differs after the first join is
    dropped before its normalisation (``safe_url_string`` keeps an ASCII URL's scheme, host and
    port but for backslashes, which it reads as slashes; non-ASCII hosts change by IDNA: links
    with either take the full road), and the outcome of an absolute or root-relative ``href``,
    which does not depend on the page's path, is kept for the site's next pages in ``known``
    (:class:`KnownLinks`): the menus and teasers of a site repeat on every page (82 % of
    those links on the crawl bench's pages were seen on an earlier page of their site).
    """
    base, site, encoding = _base_url(_bases(page), url), site_origin(url), page.encoding
    if encoding in ("unicode", "ascii"):
        encoding = "utf-8"
    base_parts = urlsplit(base)
    origin = (site, f"{base_parts.scheme}://{base_parts.netloc}", encoding)
    found: dict[str, None] = {}
    for href in dict.fromkeys(_hrefs(page)):  # each raw href once, in page order
        if href is None:
            continue
        href = href.strip(HTML5_WHITESPACE)  # strip_html5_whitespace, without a call a link
        # an absolute or root-relative link reads the same on every page of the site
        key = (origin, href) if known is not None and (href[:1] == "/" and href[:2] != "//" or
                                   href.startswith(("http://", "https://"))) else None  # fmt: skip
        link = known.get(key) if key is not None else _UNKNOWN
        if link is _UNKNOWN:
            link = _link(href, base, url, site, encoding)
            if key is not None:
                known.put(key, link)
        if link is not None:
            found[link] = None  # (a link seen already keeps its first place)
    return list(found)


def _hrefs(page: Page) -> list[str | None]:
    """The ``href`` (None when absent) of the page's ``<a>`` and ``<area>`` elements, in
    document order, read from the node table where it holds them (:attr:`NodeTable.link_href`,
    the walk of ``page.body`` that built the table read them): the scan walked the tree again
    for them (``root.iter("a", "area")``) and read each attribute a second time, 0.18 ms a
    page of the crawl bench's 240. The table has no ``<area>`` and nothing outside the body: a
    body holding an ``<area>`` (an image map: none on the bench's pages) is walked as before,
    and the few elements outside the body (the ``<head>``) are walked on their own, in their
    place. The table reads an absent ``href`` as ``""``: those rows ask their element again."""
    root, body, nodes = page.root, page.body, page.nodes
    if "area" in nodes.tag:
        return [element.get("href") for element in root.iter(*_LINK_TAGS)]
    hrefs = nodes.link_href
    if "" in hrefs:
        elements = nodes.elements
        hrefs = [href or elements[row].get("href") for row, href in zip(nodes.link_rows, hrefs)]
    if body is root:
        return hrefs
    found: list[str | None] = []
    for child in root:
        if child is body:
            found += hrefs
        else:
            found += [element.get("href") for element in child.iter(*_LINK_TAGS)]
    return found


def _bases(page: Page) -> Iterator[etree._Element]:
    """The page's ``<base>`` elements in document order: the table's ``<base>`` rows for the
    body (one test of its tags in C, where ``root.iter("base")`` walked the whole tree: 0.12 ms
    a page of the crawl bench's), ``iter`` for what lies outside it (the ``<head>``)."""
    root, body, nodes = page.root, page.body, page.nodes
    in_body = ("base" in nodes.tag)
    for child in [body] if body is root else root:
        if child is not body:
            yield from child.iter("base")
        elif in_body:
            elements = nodes.elements
            yield from (elements[row] for row, tag in enumerate(nodes.tag) if tag == "base")


def _link(href: str, base: str, url: str, site: str, encoding: str) -> str | None:
    """The followed form of one ``href`` (stripped) of the page at ``url``, or None.

    An absolute ASCII ``http(s)`` href with a host, without the characters ``urlsplit`` drops or
    ``safe_url_string`` reads as a slash, is tested for its site before it is joined with the
    page's base: the join keeps such a URL's ``scheme://netloc`` as written (another scheme than
    the base's: the href itself; the same: ``urlunparse`` of its parts), so its site is the
    joined URL's, and an off-site one is dropped without the join (25 of the 38 hrefs a page of
    the crawl bench's that no earlier page of its site held: share buttons, other sites)."""
    if href.startswith(_ABSOLUTE) and _has_host(href) and href.isascii() \
            and _NOT_SPLIT_AS_WRITTEN.search(href) is None:
        try:
            if _site_of(href) != site:
                return None
        except ValueError:  # the join raises alike, or the site of its result
            return None
    try:
        joined = urljoin(base, href)
        if joined.isascii() and "\\" not in joined and _site_of(joined) != site:
            return None
        link = urljoin(url, safe_url_string(joined, encoding=encoding))
        parts = urlsplit(link)
    except ValueError:  # a bogus link (bad port, bad IPv6 literal...)
        return None
    if parts.scheme not in FETCHABLE_SCHEMES or _ignored_extension(parts.path):
        return None
    return link if _site_of(link) == site else None


def _has_host(href: str) -> bool:
    """Whether an ``http://`` or ``https://`` href names a host (``urljoin`` takes the base's
    host for ``http:///path``).

    >>> _has_host("http://a.example/x"), _has_host("https:///x"), _has_host("http://?q")
    (True, False, False)
    """
    start = href.find("://") + 3
    return len(href) > start and href[start] not in "/?#"


def _site_of(url: str) -> str:
    """:func:`crawler.scope.site_origin` of ``url``, read from its head (``scheme://netloc``,
    up to the first ``/``, ``?`` or ``#`` after ``://``), whose site is kept: most links of a page
    share a few hosts, and ``site_origin``'s ``urlsplit``, ``hostname`` and ``port`` were a
    quarter of the link scan's CPU (cProfile of the bench's 240 pages: 0.29 of 1.12 s).

    The head gives ``urlsplit`` the same scheme and netloc as the whole URL: the scheme ends at the
    first ``:``, which is in the head, and the netloc at the first ``/?#`` after ``//``, which is
    the head's end or before it; what ``urlsplit`` strips (leading blanks, tabs and newlines
    anywhere) is stripped from the head alike. A URL without ``://`` takes ``site_origin`` itself.
    Errors are not kept, so a bad head raises again (``ValueError``), as ``site_origin`` does.

    >>> _site_of("HTTP://WWW.Example.com/a?b#c"), _site_of("https://example.com:8443?x")
    ('http://example.com:80', 'https://example.com:8443')
    """
    start = url.find("://")
    if start < 0:
        return site_origin(url)
    end = _NETLOC_END.search(url, start + 3)
    return _head_site(url if end is None else url[: end.start()])


@functools.lru_cache(maxsize=SITE_CACHE_SIZE)
def _head_site(head: str) -> str:
    return site_origin(head)


def _ignored_extension(path: str) -> bool:
    """Scrapy's ``url_has_any_extension(link, IGNORED_EXTENSIONS)`` (the path as ``urlparse``
    cuts it, lower-cased, ending in one of the extensions) by one set look-up instead of 91
    ``endswith`` calls per link.

    >>> _ignored_extension("/a/b.PDF"), _ignored_extension("/a.b/c"), _ignored_extension("/x.tar.gz")
    (True, False, True)
    >>> _ignored_extension("/f.zip;v=1"), _ignored_extension("/a;b/c.html")
    (True, False)
    """
    if ";" in path:  # urlparse's params: cut from the last segment's first ";"
        cut = path.find(";", max(path.rfind("/"), 0))
        path = path[:cut] if cut >= 0 else path
    path = path.lower()
    dot = path.rfind(".")
    if dot < 0:
        return False
    return path[dot:] in _DENY_EXTENSIONS or any(map(path.endswith, _DENY_LONG_EXTENSIONS))


def _base_url(bases: Iterable[etree._Element], url: str) -> str:
    """The first of ``bases`` with an ``href`` joined with the page's URL (Scrapy's
    ``get_base_url``), else the URL."""
    for element in bases:
        href = element.get("href")
        if href and href.strip():
            try:
                return urljoin(url, strip_html5_whitespace(href))
            except ValueError:
                return url
    return url
