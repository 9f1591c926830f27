"""The crawl's meta refresh: Scrapy's answers on real pages, without decoding the whole body.

Every fixture page (287, from eight sets: UTF-8, GBK/GB18030, windows-1252... as served), then
real pages given a refresh at the start, across the 4 096th character and past it, in the
encodings a news site may serve (UTF-8, GB18030, windows-1252, UTF-16 with its BOM), each compared
with Scrapy's own ``get_meta_refresh`` on a fresh response of the same bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.settings import Settings
from scrapy.utils.misc import load_object
from scrapy.utils.response import get_meta_refresh
from scrapy.utils.test import get_crawler

import crawler.settings
from crawler.downloadermiddlewares.meta_refresh import HEAD_BYTES, meta_refresh

PAGES = Path(__file__).parents[1] / "fixtures" / "pages"
IGNORE = ("script", "noscript")  # METAREFRESH_IGNORE_TAGS' default
REFRESH = '<meta http-equiv="Refresh" content="0; url=/moved/é?a=1&amp;b=2">'


def _response(body: bytes, content_type: str = "text/html", url: str = "http://news.example/a/1"
              ) -> HtmlResponse:  # fmt: skip
    return HtmlResponse(url, body=body, headers={"Content-Type": content_type})


def _same_as_scrapy(body: bytes, content_type: str = "text/html") -> tuple:
    ours = meta_refresh(_response(body, content_type), IGNORE)
    assert ours == get_meta_refresh(_response(body, content_type), ignore_tags=IGNORE)
    return ours


def _fixture_pages() -> list[Path]:
    return sorted(PAGES.glob("*.htm*"))


def test_every_fixture_page_reads_as_scrapy_reads_it() -> None:
    pages = _fixture_pages()
    assert len(pages) > 200
    long_pages = 0
    for path in pages:
        body = path.read_bytes()
        long_pages += len(body) > HEAD_BYTES  # the head decoded alone, not the whole body
        _same_as_scrapy(body)
        _same_as_scrapy(body, "text/html; charset=utf-8")
    assert long_pages > 150


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "cp1252", "utf-16"])
def test_a_refresh_anywhere_in_real_pages_reads_as_scrapy_reads_it(encoding: str) -> None:
    names = ["cx_163-00002.html", "cx_bbc-00000.html", "aeb-00001.html"]
    found = beyond = 0
    for name in names:
        raw = (PAGES / name).read_bytes()
        text = _response(raw).text  # the page's characters, whatever it was served in
        for at in (0, text.find("<head>") + 6, 4000, 4090, 4096, 4100, 5000, len(text) // 2):
            page = text[:at] + REFRESH + text[at:]
            tag = "" if encoding == "utf-16" else f'<meta charset="{encoding}">'
            body = (tag + page).encode(encoding, "xmlcharrefreplace")  # utf-16: with its BOM
            interval, url = _same_as_scrapy(body)
            found += url is not None
            beyond += url is None
            if url is not None:  # the tag's whole url, entities and non-ASCII as Scrapy reads them
                assert interval == 0.0 and url.startswith("http://news.example/moved/")
    # refreshes read and refreshes past the 4 096 characters (or inside a script) in each encoding
    assert found >= 2 * len(names) and beyond >= 2 * len(names)


class _CountingResponse(HtmlResponse):
    """An HTML response that counts the reads of its whole decoded text."""

    text_reads = 0

    @property
    def text(self) -> str:
        type(self).text_reads += 1
        return super().text


def _crawl_meta_refresh():
    """The meta refresh downloader middleware the crawl's settings enable, built as Scrapy does."""
    settings = Settings()
    settings.setmodule(crawler.settings, priority="project")
    enabled = {**settings.getdict("DOWNLOADER_MIDDLEWARES_BASE"),
               **settings.getdict("DOWNLOADER_MIDDLEWARES")}  # fmt: skip
    paths = [path for path, order in enabled.items() if order == 580]
    assert len(paths) == 1, paths
    middleware = load_object(paths[0])
    return middleware.from_crawler(get_crawler())  # METAREFRESH_* at Scrapy's defaults


def test_the_crawl_decodes_no_whole_page_for_its_meta_refresh() -> None:
    middleware = _crawl_meta_refresh()
    body = (PAGES / "cx_bbc-00000.html").read_bytes()
    assert len(body) > 4 * HEAD_BYTES
    request = Request("http://news.example/a/1")
    _CountingResponse.text_reads = 0
    response = _CountingResponse(request.url, body=body, headers={"Content-Type": "text/html"})
    assert middleware.process_response(request=request, response=response) is response
    assert _CountingResponse.text_reads == 0  # Scrapy's decodes the 150 KB page to read 4 096
    # a page that declares a refresh is redirected, as Scrapy's middleware redirects it
    refreshed = (REFRESH + response.text).encode("utf-8")
    redirected = middleware.process_response(
        request=request, response=_response(refreshed, "text/html; charset=utf-8"))
    assert isinstance(redirected, Request)
    assert redirected.url == "http://news.example/moved/%C3%A9?a=1&b=2"


def test_a_base_or_refresh_url_that_does_not_split_keeps_the_page() -> None:
    """w3lib's ``get_base_url`` and ``get_meta_refresh`` raise ``ValueError`` on a URL urllib
    cannot split (``http://[::1``): Scrapy's middleware then loses the page as a download error.
    Ours passes it on unredirected, for the extraction to read (its links skip such a URL)."""
    middleware = _crawl_meta_refresh()
    request = Request("http://news.example/a/1")
    body = (PAGES / "cx_bbc-00000.html").read_bytes()
    refresh = '<meta http-equiv="refresh" content="0;url=http://[::1/x">'
    for head in ('<base href="http://[::1">', refresh):
        page = _response(head.encode() + body)
        with pytest.raises(ValueError):
            get_meta_refresh(page, ignore_tags=IGNORE)
        assert middleware.process_response(request=request, response=page) is page
