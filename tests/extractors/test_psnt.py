"""PSNT wrapper induction and application (paper 004) on real same-template list pages."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from extractors import parse_page
from extractors.evaluation.listmetrics import record_counts
from extractors.page import Page
from extractors.psnt import Wrapper, apply_wrapper, induce_wrapper

# list pages of same-template pairs, pinned for the quality gate (sources in ../SOURCES.md there)
PAIRS = Path(__file__).resolve().parents[1] / "fixtures" / "eval" / "list_pairs"


@cache
def gold(name: str) -> dict:
    """The gold line of the pinned page whose source id is ``name`` (``wcxb_dev/0651``)."""
    lines = (PAIRS / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    return next(g for g in map(json.loads, lines) if g["id"] == name)


def page(name: str) -> Page:
    return parse_page((PAIRS / gold(name)["file"]).read_bytes(), url=gold(name).get("url"))


def scores(records, name: str) -> tuple[int, int, int]:
    """(matched, predicted, gold) records of ``name`` against its hand-made gold records."""
    g = gold(name)
    matched, predicted, total, _ = record_counts([r.to_dict() | {"url": r.url} for r in records],
                                                 g["records"], g.get("url"))
    return matched, predicted, total


@pytest.fixture(scope="module")
def ifixit() -> tuple[Page, Page]:
    return page("wcxb_dev/0652"), page("wcxb_dev/0651")


def test_induction_on_a_real_pair_finds_the_product_grid(ifixit):
    induced = induce_wrapper(*ifixit)
    assert induced.reason is None
    w = induced.wrapper
    assert w.count == 1 and w.info_rpath == "article" and w.link_rpath.startswith("article.")
    assert w.main_rpath.startswith("html.body.") and not w.link_terminated
    assert induced.trace["shared_links_removed"] > 0


def test_wrapper_extracts_every_gold_record_of_both_pages(ifixit):
    w = induce_wrapper(*ifixit).wrapper
    for name in ("wcxb_dev/0652", "wcxb_dev/0651"):  # the second was not induced from
        found = apply_wrapper(w, page(name))
        assert found.reason is None
        assert scores(found.records, name) == (24, 24, 24)
        assert all(r.url.startswith("https://www.ifixit.com/") and r.title for r in found.records)


def test_json_round_trip_and_xpath_give_the_same_records(ifixit):
    w = induce_wrapper(*ifixit).wrapper
    again = Wrapper.from_json(json.loads(json.dumps(w.to_json())))
    assert again == w
    target = ifixit[1]
    records = apply_wrapper(again, target).records
    hits = target.root.xpath(w.xpaths()["records"])
    links = [h.xpath(w.xpaths()["standard_links"].removeprefix(w.xpaths()["information_structures"])
                     .lstrip("/"))[0] for h in hits]
    assert [r.url for r in records] == [
        __import__("urllib.parse").parse.urljoin(target.url, a.get("href")) for a in links]


@pytest.mark.parametrize("data, problem", [
    ({"format": "x"}, "not a PSNT wrapper"),
    ({"format": "newscrawl/psnt-wrapper", "version": 1}, "main_structure"),
    ({"format": "newscrawl/psnt-wrapper", "version": 1, "main_structure": {"rpath": "html.body",
      "count": 4}}, "count must be 1..3"),
    ({"format": "newscrawl/psnt-wrapper", "version": 1, "main_structure": {"rpath": "html..body",
      "count": 1}}, "not a tag name"),
    ([], "a JSON object"),
])
def test_bad_wrapper_json_is_a_value_error_naming_the_problem(data, problem):
    with pytest.raises(ValueError, match=problem):
        Wrapper.from_json(data)


def test_the_same_page_twice_gives_no_wrapper_and_says_why(ifixit):
    induced = induce_wrapper(ifixit[0], ifixit[0])
    assert induced.wrapper is None
    assert "share" in induced.reason


@pytest.mark.parametrize("name", ["psnt", "wrapper", "tagpaths", "listrecords"])
def test_docstring_examples(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"extractors.{name}"))
    assert result.failed == 0 and result.attempted > 0 or name == "psnt"
