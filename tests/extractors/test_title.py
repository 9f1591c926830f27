"""Headlines of real fixture pages, each guarding one rule of extractors/title.py (issue 9, fourth
round). Pages from trafilatura_eval (Apache-2.0) and wcxb_dev (CC-BY-4.0); the expected title is
the dataset's gold line (tests/fixtures/SOURCES.md). Each failed on the code before its rule."""

from __future__ import annotations

import pytest

from extractors import extract
from tests.fixture_pages import fixture, page_bytes


@pytest.mark.parametrize("name, rule", [
    ("trafilatura_eval-00881.html",
     "a kicker in the <h1> marked as its subtitle is not part of the headline"),
    ("trafilatura_eval-00504.html",
     "a forum thread's prefix label in the <h1> is not part of the headline"),
    ("wcxb_dev-00821.html",
     "a docs heading's '¶' permalink is no text: the <h1> is the declared title's headline part"),
])
def test_parts_of_a_heading_that_are_not_the_headline(name: str, rule: str) -> None:
    gold = fixture(name)
    assert extract(page_bytes(gold), url=gold["url"]).fields.title == gold["title"], rule
