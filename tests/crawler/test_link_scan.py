"""The link scan's shortcuts (a repeated href read once, an off-site ASCII link dropped before its
normalisation, the extension test by set look-up) keep the result of the full road: every href
joined, made safe by ``safe_url_string``, joined again, then filtered by scheme, by Scrapy's
``url_has_any_extension`` and by site."""

from __future__ import annotations

import doctest
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from scrapy.http import HtmlResponse
from scrapy.linkextractors import IGNORED_EXTENSIONS
from scrapy.utils.url import url_has_any_extension
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

import crawler.link_scan
from crawler.link_scan import (
    KnownLinks,
    _bases,
    _hrefs,
    _ignored_extension,
    _link,
    _site_of,
    scan_page,
)
from crawler.scope import FETCHABLE_SCHEMES, site_origin
from extractors.page import parse_page

URL = "http://www.news.example:8080/world/today.html"
HREFS = [
    "/a/1.html", "/a/1.html", "a/2.html", "../up.html", "?page=2", "#top", "",
    "http://news.example:8080/a/3.html",  # www. dropped: same site
    "HTTP://WWW.NEWS.EXAMPLE:8080/a/4.html",  # case
    "http://news.example:80/a/5.html",  # another port: another site
    "https://news.example:8080/a/6.html",  # another scheme: another site
    "http://other.example/a/7.html", "//other.example/x", "//news.example:8080/a/8.html",
    "http:\\\\news.example:8080\\a\\9.html",  # backslashes, read as slashes by safe_url_string
    "http:\\\\other.example\\a\\10.html",
    # off-site to urlsplit (host after the "@"), on-site once safe_url_string reads the
    # backslash as a slash: it must take the full road
    "http://www.news.example:8080\\@other.example/a/17.html",
    "http://bücher.example/a/11.html", "/a/ümlaut 12.html", "/a/%7Etilde.html",
    "/files/report.PDF", "/files/archive.tar.gz", "/files/x.zip;v=1", "/a;b/13.html",
    "/img/photo.jpg?size=2", "/a/14.html#comments", " /a/15.html\n", "javascript:void(0)",
    "mailto:desk@news.example", "http://[::1/bad", "http://news.example:99999/bad",
    "http://news.example:8080/a/16.html", "/a/16.html",
]


def _full_road(hrefs: list[str], url: str, encoding: str = "utf-8", base: str = "") -> list[str]:
    """Every link normalised in full, then filtered (the scan before its shortcuts)."""
    site, found = site_origin(url), {}
    deny = ["." + e for e in IGNORED_EXTENSIONS]
    joined_to = urljoin(url, base.split('"')[1]) if base else url
    for href in hrefs:
        try:
            link = safe_url_string(urljoin(joined_to, strip_html5_whitespace(href)),
                                   encoding=encoding)
            link = urljoin(url, link)
            parts = urlsplit(link)
        except ValueError:
            continue
        if parts.scheme not in FETCHABLE_SCHEMES or url_has_any_extension(link, deny):
            continue
        if site_origin(link) == site:
            found.setdefault(link, None)
    return list(found)


def _page(hrefs: list[str]) -> bytes:
    anchors = "".join(f'<li><a href="{h}">link</a></li>' for h in hrefs)
    return f'<html><head><meta charset="utf-8"><title>t</title></head><body><ul>{anchors}' \
           f'<map><area href="/a/area.html"></map></ul><p>{"text " * 50}</p></body></html>' \
        .encode()


def test_scan_keeps_the_links_of_the_full_road() -> None:
    response = HtmlResponse(URL, body=_page(HREFS), encoding="utf-8")
    links = scan_page(response).links
    assert links == _full_road(HREFS + ["/a/area.html"], URL)
    known = KnownLinks()  # read twice through the spider's kept outcomes: the same
    assert scan_page(response, known=known).links == links
    assert scan_page(response, known=known).links == links
    assert "http://www.news.example:8080/@other.example/a/17.html" in links  # the full road
    assert "http://www.news.example:8080/a/%C3%BCmlaut%2012.html" in links
    assert not any(urlsplit(link).hostname == "other.example" or link.endswith(".tar.gz")
                   for link in links)


def test_links_kept_from_earlier_pages_of_the_site_read_as_on_this_page() -> None:
    """Absolute and root-relative links are kept for the site's next pages; relative ones (even
    one spelt like a scheme) and another <base> are read again."""
    hrefs = ["/a/1.html", "http-guide.html", "https://news.example/a/2.html", "./x.html",
             "http://www.news.example:8080/a/3.html", "/files/report.pdf"]
    pages = [("http://www.news.example:8080/world/today.html", ""),
             ("http://www.news.example:8080/sport/deep/page.html", ""),
             ("http://www.news.example:8080/sport/deep/page.html",
              '<base href="http://news.example:8080/other/">'),
             ("https://news.example/a/9.html", "")]
    known = KnownLinks()
    for url, base in pages:
        body = _page(hrefs).replace(b"<title>", base.encode() + b"<title>")
        links = scan_page(HtmlResponse(url, body=body, encoding="utf-8"), known=known).links
        assert links == _full_road(hrefs + ["/a/area.html"], url, base=base), url
    assert len(known) > 0  # the later pages read from it
    small = KnownLinks(max_links=2)
    for n in range(5):
        small.put((("s", "o", "utf-8"), f"/a/{n}"), None)
    assert len(small) <= 2


#: hrefs an off-site test before the join could misread: no host (the join takes the base's),
#: characters urlsplit removes or safe_url_string reads as a slash, a bad port or IPv6 literal
ABSOLUTE_HREFS = [
    "http:///a/18.html", "http://?q=1", "https://#f", "http://", "https://",
    "http://www.news.exa\tmple:8080/a/19.html", "http://www.news.example:8080\n/a/20.html",
    "http://other.example\\@www.news.example:8080/a/21.html",
    "http://www.news.example:8080\\a\\22.html", "http://[::1]:8080/a", "http://[::1/bad",
    "http://news.example:99999/bad", "http://news.example:port/x", "http://user@other.example/a",
    "http://www.news.example:8080@other.example/a", "https://www.news.example:8080/a/23.html",
    "http://news.example:8080?x=1", "http://NEWS.example:8080/a/24.html", "http://bücher.example/",
]


def _joined_road(href: str, joined_to: str, base: str) -> str | None:
    """The full road after the scan's first shortcut (an ASCII link whose site differs once
    joined with the base is dropped), as the scan read every href before it tested absolute
    ones before the join. (The shortcut alone differs from the full road on hrefs without a
    host, ``http:///a``, under a ``<base>`` of another scheme: the second join would take the
    page's host.)"""
    try:
        joined = urljoin(joined_to, href)
        if joined.isascii() and "\\" not in joined and site_origin(joined) != site_origin(URL):
            return None
    except ValueError:
        return None
    return (_full_road([href], URL, base=base) or [None])[0]


def test_each_href_reads_as_before_its_site_was_tested_before_the_join() -> None:
    """``_link``, whose absolute ``http(s)`` hrefs are tested for their site before the join,
    gives each href the outcome it had when every href was joined first, on a page with and
    without a ``<base>`` of another scheme and host."""
    site = site_origin(URL)
    for base in ("", '<base href="https://news.example:8080/other/">'):
        joined_to = urljoin(URL, base.split('"')[1]) if base else URL
        for href in HREFS + ABSOLUTE_HREFS:
            href = strip_html5_whitespace(href)
            expected = _joined_road(href, joined_to, base)
            assert _link(href, joined_to, URL, site, "utf-8") == expected, (base, href)


def _walked(page) -> tuple[list, list]:
    """The hrefs and ``<base>`` elements as a walk of the whole tree reads them."""
    return ([e.get("href") for e in page.root.iter("a", "area")],
            list(page.root.iter("base")))


def test_hrefs_and_bases_from_the_node_table_are_those_of_a_walk() -> None:
    """The scan reads the body's links and ``<base>`` from the node table, and walks the rest
    (the head, a body holding an ``<area>``): the same hrefs (None for an ``<a>`` without one,
    ``""`` for an empty one) and bases, in document order, on every fixture page and on pages
    with links and a ``<base>`` in odd places."""
    crafted = [
        b'<html><head><base href=""><a href="/head.html">h</a></head><body><a name="x">n</a>'
        b'<a href="">e</a><a href="/1.html">1</a><base href="/b/"><a>no</a></body></html>',
        b'<html><body><a href="/1.html">1</a><map><area href="/area.html"></map>'
        b'<a href="">e</a></body></html>',
        b'<html><body><p><a href="/1.html">1</a></p></body></html><a href="/after.html">a</a>',
        b'<a href="/bare.html">no html, head or body</a><base href="http://other.example/">',
        b'<html><body><noscript><a href="/ns.html">only here</a></noscript></body></html>',
    ]
    bodies = crafted + [p.read_bytes() for p in sorted(FIXTURE_PAGES.glob("*.html"))]
    kinds = set()
    for body in bodies:
        try:
            page = parse_page(body, url="http://www.news.example/dir/page.html")
        except Exception:  # noqa: BLE001 - a page the scan refuses has no links
            continue
        hrefs, bases = _walked(page)
        assert _hrefs(page) == hrefs, body[:80]
        assert list(_bases(page)) == bases, body[:80]
        kinds |= {"none" for h in hrefs if h is None} | {"empty" for h in hrefs if h == ""}
        kinds |= {"base"} if bases else set()
    assert kinds == {"none", "empty", "base"}
    first = parse_page(crafted[0], url=URL)
    assert _hrefs(first) == ["/head.html", None, "", "/1.html", None]
    assert [b.get("href") for b in _bases(first)] == ["", "/b/"]


def test_extension_test_agrees_with_scrapys() -> None:
    deny = ["." + e for e in IGNORED_EXTENSIONS]
    paths = ["/a.pdf", "/a.PDF", "/a.b/c", "/x.tar.gz", "/x.gz", "/f.zip;v=1", "/a;b/c.html",
             "/.pdf", "/pdf", "", "/a/b.html", "/a.mp4/", "/a.jpeg;x/y.png", "/a.doc;"]
    for path in paths:
        assert _ignored_extension(path) == url_has_any_extension("http://h" + path, deny), path


FIXTURE_PAGES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
TRICKY_URLS = [  # heads urlsplit reads apart from the whole URL if the head were cut wrongly
    "http://www.news.example:8080", "HTTP://WWW.NEWS.EXAMPLE/a", "https://news.example?x=1",
    "http://news.example#frag", "http://user:pw@news.example:81/a", "http://news.example:/a",
    "http:/\t/news.example/a://b", " \x01http://news.example/a", "http://news.\nexample/a",
    "http:////news.example/a", "mailto:desk@news.example://x", "a b:c://news.example/x",
    "//news.example/a://b", "http://[::1]:8080/a", "http://[::1/bad", "http://h:99999/x",
    "http://h:port/x", "javascript:void(0)", "news.example/a", "", "://x", "http://",
    "http://[::1]x/", "ftp://news.example/a?b://c", "http://bücher.example/a",
]


def _site_or_error(url: str, site: object) -> str:
    try:
        return site(url)
    except ValueError as exc:
        return f"ValueError: {exc}"


def test_site_of_a_url_head_is_site_origin_of_the_whole_url() -> None:
    """``_site_of`` reads a URL's site from its head, kept per head: the same site, or the same
    error, as ``site_origin`` of the whole URL, for every link of the fixture pages (joined with
    their page's address, as the scan joins them) and for heads cut at each delimiter."""
    urls = list(TRICKY_URLS)
    for path in sorted(FIXTURE_PAGES.glob("*.html")):
        page = f"http://www.{path.stem[:20]}.example/dir/page.html"
        for href in set(re.findall(rb'href\s*=\s*["\']([^"\']*)', path.read_bytes())):
            try:
                urls.append(urljoin(page, href.decode("utf-8", "replace").strip()))
            except ValueError:
                continue
    assert len(urls) > 1000
    for url in urls + urls:  # the second time from the kept heads
        assert _site_or_error(url, _site_of) == _site_or_error(url, site_origin), url


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(crawler.link_scan)
    assert result.attempted > 0 and result.failed == 0
