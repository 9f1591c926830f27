"""The CJK test that decides whether a page is extracted against its sibling (extractors.script)."""

from __future__ import annotations

import doctest

import pytest

import extractors.script
from extractors import extract, parse_page
from extractors.errors import BadInput
from extractors.script import CJK_MIN_SHARE, cjk_share, is_cjk, page_cjk_share, page_is_cjk
from tests.fixture_pages import fixture, page_bytes

CHINESE = ["cx_163-00001.html", "cx_163-00002.html", "cx_163-00003.html"]
LATIN = ["cx_bbc-00000.html", "cx_bbc-00003.html", "aeb-00001.html", "aeb-00039.html",
         "trafilatura_eval-00491.html", "wcxb_dev-00948.html"]


def test_docstring_examples() -> None:
    result = doctest.testmod(extractors.script, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("name", CHINESE)
def test_chinese_pages_are_cjk_body_and_page(name: str) -> None:
    page = parse_page(page_bytes(fixture(name)))
    assert cjk_share(extract(page).body) > 0.9 and page_cjk_share(page.nodes) > 0.9
    assert is_cjk(extract(page).body) and page_is_cjk(page.nodes)


@pytest.mark.parametrize("name", LATIN)
def test_latin_and_cyrillic_pages_are_not(name: str) -> None:
    """English, Russian (aeb-00039), Polish (trafilatura_eval-00491) pages: far below the line."""
    page = parse_page(page_bytes(fixture(name)))
    assert cjk_share(extract(page).body) < 0.05 and page_cjk_share(page.nodes) < 0.05
    assert not page_is_cjk(page.nodes)


def test_threshold_sits_in_the_measured_gap() -> None:
    """Above the highest non-CJK body measured (0.177), below the lowest Chinese one (0.298)."""
    assert 0.177 < CJK_MIN_SHARE < 0.298


class _Segments:
    """A node table's text column alone, as :func:`page_is_cjk` reads it."""

    def __init__(self, *segments: str) -> None:
        self.seg_text = list(segments)


def test_page_is_cjk_is_the_share_test_where_it_skips_the_letters() -> None:
    """``page_is_cjk`` counts the letters only once its sample holds a CJK character: the same
    answer as the share against :data:`CJK_MIN_SHARE`, on every fixture page and at the edges
    (one CJK character among three letters is exactly the line; one past the sample counts for
    nothing; a text without letters)."""
    from tests.fixture_pages import FIXTURES  # noqa: PLC0415

    cases = [_Segments("中abc"), _Segments("中abcd"), _Segments("a" * 20_000, "中文" * 50_000),
             _Segments("a" * 15_000, "中文" * 50_000), _Segments("12 3,4"), _Segments()]
    for path in sorted((FIXTURES / "pages").glob("*.html")):
        try:
            cases.append(parse_page(path.read_bytes()).nodes)
        except BadInput:
            continue
    answers = [page_is_cjk(nodes) for nodes in cases]
    assert answers == [page_cjk_share(nodes) >= CJK_MIN_SHARE for nodes in cases]
    assert answers[:6] == [True, False, False, True, False, False]
    assert 5 <= sum(answers[6:]) < len(answers) - 16  # Chinese pages and others
