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


def test_a_hostile_tag_hidden_behind_quoted_angle_brackets_is_found() -> None:
    # every value holds a ">": no stretch between two ">" is longer than a few characters, so a
    # pre-filter that measured those stretches would pass this tag; the fast path must not
    values = " ".join(f'a{i}=">"' if i % 2 else f"b{i}='<i>x</i>'" for i in range(1_500))
    page = f"<html><body><p>x</p><div {values}>y</div></body></html>"
    assert max(map(len, page.split(">"))) < 100
    assert attribute_overflow(page) is not None
    with pytest.raises(BadInput) as refused:
        parse_page(page.encode())
    assert refused.value.reason == "too_many_attributes"
    # the same tag after a comment and a script that hold "<" and unclosed quotes
    decoy = "<!-- <a b=\" --><script>var s = '<p c=\"';</script><title>a<b</title>"
    assert attribute_overflow(decoy + page) is not None
    # around the limit, the fast path answers as the plain scanner does
    for count in (990, 1_000, 1_001, 1_200, 1_300):
        tag = "<p " + " ".join(f'a{i}=">"' for i in range(count)) + ">"
        assert attribute_overflow(tag) == _reference_overflow(tag, 1_000)
    assert attribute_overflow(tag) is not None


def _reference_overflow(text: str, limit: int) -> int | None:
    """The plain scanner loop (before the regex fast path), as the reference the fast path
    must agree with on every input."""
    ml = extractors.markup_limits
    pos = 0
    while (tag := ml._TAG_START.search(text, pos)) is not None:
        if tag.group(1) is None:
            end = text.find("-->", tag.end())
            pos = len(text) if end < 0 else end + 3
            continue
        pos, count = ml._scan_tag(text, tag.end(), limit)
        if count > limit:
            return count
        name = tag.group(1).lower()
        if name in ml._RAW_TEXT:
            end = ml._find_end(text, name, pos)
            pos = len(text) if end < 0 else end
    return None


def test_the_fast_path_agrees_with_the_plain_scanner_on_random_markup() -> None:
    import random

    pieces = ["<", ">", "=", '"', "'", " ", "\n", "/", "a", "b", "x1", "<a", "<p ", "<script",
              "<SCRIPT", "</script", "</sCrIpt", "<style>", "</style>", "<!--", "-->", "<title",
              "</title", "\u017f", "<\u017fcript", "</\u017fcript", "<!", "<xmp", "</xmp",
              "<plaintext", "\t", '="', "='", '">', "'>", "<textarea", "</textarea", "<scripts",
              "<script/", "a=1 ", 'b="x>y" ', "c ", "d=e ", "\u212a", "<\u212a"]
    rng = random.Random(14)
    found = 0
    for _ in range(20_000):
        weights = [rng.random() for _ in pieces]
        text = "".join(rng.choices(pieces, weights, k=rng.randint(1, 120)))
        for limit in (1, 2, 3, 5):
            expected = _reference_overflow(text, limit)
            assert attribute_overflow(text, limit) == expected, (text, limit)
            found += expected is not None
    assert found > 10_000  # both answers are well represented


def test_the_fast_path_passes_tags_a_step_an_attribute():
    """A tag of nearly ``limit`` quoted attributes is proven harmless by the regex itself (one
    step a ``name="value" ``): the unit-by-unit regex it replaced (three units an attribute,
    ``2 * limit`` at most) left it to the Python scanner."""
    from extractors.markup_limits import _skipper

    tag = "<p" + "".join(f' a{k}="x"' for k in range(8)) + ">text</p>"
    assert _skipper(10).match(tag).end() == len(tag)
    assert attribute_overflow(tag, limit=10) is None
    assert attribute_overflow(tag, limit=7) == 8
