"""Hostile markup limits (extractors/markup_limits.py) and parse_page's reasons."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import extractors.markup_limits
from extractors import BadInput, parse_page
from extractors.markup_limits import attribute_overflow, markup_overflow
from tests.crawler.hostile_pages import deep_nesting, many_attributes, many_links

PAGES = sorted((Path(__file__).resolve().parent.parent / "fixtures" / "pages").glob("*.html"))


def test_docstring_examples() -> None:
    result = doctest.testmod(extractors.markup_limits)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_real_pages_are_within_the_limits(page: Path) -> None:
    text = page.read_text(encoding="utf-8", errors="replace")
    assert attribute_overflow(text) is None and markup_overflow(text) is None
    parse_page(page.read_bytes())  # no BadInput


@pytest.mark.parametrize(
    ("build", "reason"),
    [
        (many_attributes, "too_many_attributes"),
        (deep_nesting, "too_deep"),
        (many_links, "too_many_elements"),
    ],
)
def test_hostile_pages_are_refused_with_their_reason(build, reason: str) -> None:  # noqa: ANN001
    with pytest.raises(BadInput) as refused:
        parse_page(build())
    assert refused.value.reason == reason


def test_a_quoted_angle_bracket_does_not_hide_attributes() -> None:
    tag = "<p " + " ".join(f'a{i}=">"' for i in range(2_000)) + ">x</p>"
    assert attribute_overflow(tag) is not None


def test_attributes_inside_a_script_are_not_counted() -> None:
    script = "<script>var s = '<p " + "a=1 " * 2_000 + ">';</script><p>x</p>"
    assert attribute_overflow(script) is None
