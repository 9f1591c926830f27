"""URLs ``urllib`` cannot split, in a page: ``urljoin`` raises ``ValueError`` on a bracketed host
that is no IPv6 address (``http://[::1``) or a host NFKC normalisation breaks. Written in a
page's ``<base>``, canonical URL, ``og:image``, JSON-LD author or links, one cost the whole
extraction (the crawl dropped the page as ``extract_exception``); now it costs that URL only.
Real pages: cx_bbc (MIT) and gerapy_listdetail (Apache-2.0), tests/fixtures/SOURCES.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from extractors import extract
from extractors.dwsie import default_node_model
from extractors.errors import BadURL
from extractors.pageinfo import page_info, paper_shape
from tests.fixture_pages import fixture, page_bytes

BAD = ("http://[::1", "http://a\u2100b.example")  # Invalid IPv6 URL; NFKC makes "a/cb"
LIST = Path(__file__).parents[1] / "fixtures" / "eval" / "list_records" / "pages" / "00003.html"


def _in_head(page: bytes, markup: str) -> bytes:
    hostile, n = re.subn(rb"<head[^>]*>", lambda m: m.group() + markup.encode(), page, count=1)
    assert n == 1
    return hostile


@pytest.mark.parametrize("bad", BAD)
def test_a_head_of_urls_that_do_not_split_leaves_the_article_as_it_was(bad: str) -> None:
    url = "https://www.bbc.com/news/x"
    clean = page_bytes(fixture("cx_bbc-00000.html"))
    hostile = _in_head(clean, f'<base href="{bad}"><link rel="canonical" href="{bad}/x">'
                              f'<meta property="og:image" content="{bad}/i.jpg">')
    ours, theirs = extract(hostile, url=url).to_dict(), extract(clean, url=url).to_dict()
    assert ours["body"] and ours["body"] == theirs["body"] and ours["title"] == theirs["title"]
    assert ours["canonical_url"] == theirs["canonical_url"] and ours["image"] == theirs["image"]
    assert "not an absolute http(s) URL" in str(ours["extraction"]["notes"]["canonical_url"])


@pytest.mark.parametrize("bad", BAD)
def test_list_links_that_do_not_split_are_left_out_of_the_records(bad: str) -> None:
    clean = LIST.read_bytes()
    hostile = clean.replace(b'href="', f'href="{bad}/'.encode(), 5)
    assert hostile.count(bad.encode()) == 5
    url = "https://news.example/list/"
    for page in (hostile, _in_head(clean, f'<base href="{bad}">')):
        shape = paper_shape(page_info(page, default_node_model(), url=url))
        assert shape["page_type"] == "LP" and len(shape["titles"]) > 10
        assert not any(bad in t["href"] for t in shape["titles"])


def test_a_page_url_that_does_not_split_is_bad_input() -> None:
    with pytest.raises(BadURL) as info:
        extract(b"<html><body><p>text</p></body></html>", url="http://[::1/a")
    assert info.value.reason == "bad_url"
