"""PSNT wrapper induction and application (paper 004) on real same-template list pages."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from urllib.parse import urljoin

import pytest

from extractors import parse_page
from evaluation.listmetrics import record_counts
from extractors.page import Page
from extractors.psnt import Wrapper, apply_wrapper, induce_wrapper

EVAL = Path(__file__).resolve().parents[1] / "fixtures" / "eval"  # pinned sets of the gate
SINGLES = Path(__file__).resolve().parents[1] / "fixtures" / "psnt"  # sources in SOURCES.md there
DATA = Path(os.environ.get("NEWSCRAWL_DATA", "~/.cache/newsdata")).expanduser()


@cache
def gold(name: str) -> dict:
    """The gold line of the fixture page ``name`` (``wcxb_dev-0651.html``)."""
    lines = (SINGLES / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    return next(g for g in map(json.loads, lines) if g["file"] == name)


def page(name: str) -> Page:
    return parse_page((SINGLES / name).read_bytes(), url=gold(name).get("url"))


def scores(records, name: str) -> tuple[int, int, int]:
    """(matched, predicted, gold) records of ``name`` against its hand-made gold records."""
    g = gold(name)
    matched, predicted, total, _ = record_counts([r.to_dict() | {"url": r.url} for r in records],
                                                 g["records"], g.get("url"))
    return matched, predicted, total


@pytest.fixture(scope="module")
def ifixit() -> tuple[Page, Page]:
    return page("wcxb_dev-0652.html"), page("wcxb_dev-0651.html")


def test_induction_on_a_real_pair_finds_the_product_grid(ifixit):
    induced = induce_wrapper(*ifixit)
    assert induced.reason is None
    w = induced.wrapper
    assert w.count == 1 and w.info_rpath == "article" and w.link_rpath.startswith("article.")
    assert w.main_rpath.startswith("html.body.") and not w.link_terminated
    assert induced.trace["shared_links_removed"] > 0


def test_region_falls_back_to_an_ancestor_when_no_group_structure_holds_half(ifixit):
    # /Parts: the product grid holds 49 % of the page's characters once the shared links are
    # gone, so no link group's structure qualifies as region; the nearest ancestor over half does
    induced = induce_wrapper(ifixit[1], ifixit[0])
    assert induced.trace["region_rule"] == "ancestor"
    assert scores(apply_wrapper(induced.wrapper, ifixit[1]).records,
                  "wcxb_dev-0651.html") == (24, 24, 24)


def test_wrapper_extracts_every_gold_record_of_both_pages(ifixit):
    w = induce_wrapper(*ifixit).wrapper
    for name in ("wcxb_dev-0652.html", "wcxb_dev-0651.html"):  # the second was not induced from
        found = apply_wrapper(w, page(name))
        assert found.reason is None
        assert scores(found.records, name) == (24, 24, 24)
        assert all(r.url.startswith("https://www.ifixit.com/") and r.title for r in found.records)


def test_json_round_trip_and_xpath_give_the_same_records(ifixit):
    import lxml.html

    w = induce_wrapper(*ifixit).wrapper
    again = Wrapper.from_json(json.loads(json.dumps(w.to_json())))
    assert again == w
    name = "wcxb_dev-0651.html"
    target = page(name)
    urls = [r.url for r in apply_wrapper(again, target).records]
    xpaths = w.xpaths()
    below = xpaths["standard_links"].removeprefix(xpaths["information_structures"] + "/")
    # the XPath on a plain lxml parse of the raw bytes, no newscrawl code involved
    raw = lxml.html.document_fromstring((SINGLES / name).read_bytes())
    records = raw.xpath(xpaths["records"])
    assert len(records) == len(urls) == 24
    hrefs = [record.xpath(below)[0].get("href") for record in records]
    assert urls == [urljoin(target.url, href) for href in hrefs]


@pytest.mark.parametrize("data, problem", [
    ({"format": "x"}, "not a PSNT wrapper"),
    ({"format": "newscrawl/psnt-wrapper", "version": 1}, "main_structure"),
    ({"format": "newscrawl/psnt-wrapper", "version": 1, "main_structure": {"rpath": "html.body",
      "count": 4}}, "count must be 1..3"),
    ({"format": "newscrawl/psnt-wrapper", "version": 1, "main_structure": {"rpath": "html..body",
      "count": 1}}, "not a tag name"),
    ([], "a JSON object"),
    ({"format": "newscrawl/psnt-wrapper", "version": 1, "main_structure": {"rpath": "html.body",
      "count": 1}, "standard_links": "li.a", "information_structures": "div",
      "induced_at": "2026-01-01T00:00:00+00:00"}, "do not lie on the standard links' path"),
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
    assert result.failed == 0 and result.attempted > 0


def single(name: str) -> tuple[Page, dict]:
    lines = (SINGLES / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    line = next(g for g in map(json.loads, lines) if g["file"] == name)
    return parse_page((SINGLES / name).read_bytes(), url=line.get("url")), line


def test_link_terminated_records_run_from_one_link_to_the_next():
    # aibase: each record is one <a> card placed directly in the main structure, so the third
    # part of the wrapper ends at the link (paper 3.6.2). No second page of the template exists
    # in the data, so the wrapper is induced from the page alone (second=None).
    target, line = single("gerapy_listdetail-aibase.html")
    induced = induce_wrapper(target, None)
    w = induced.wrapper
    assert induced.trace["shared_links_removed"] is None
    assert w.link_terminated and w.link_rpath == w.info_rpath == "a"
    assert w.notation().endswith("(1)(a)[a]")
    records = apply_wrapper(w, target).records
    gold_records = line["records"]
    assert [r.url for r in records] == [g["href"] for g in gold_records]  # no page URL: as written
    assert [r.title for r in records] == [g["title"] for g in gold_records]  # the card's heading
    assert [r.date for r in records] == [" ".join(g["date"].split()) for g in gold_records]


def test_link_runs_tile_the_main_structure_from_one_link_to_the_next():
    # a link-terminated record holds its link and everything after it up to the next standard
    # link (paper 3.6.2): the spans tile the main structure's rows and text segments
    from extractors.psnt import _find_main_structures, _link_runs
    from extractors.tagpaths import TagPaths

    target, _ = single("gerapy_listdetail-aibase.html")
    w = induce_wrapper(target, None).wrapper
    ((main, links),) = _find_main_structures(w, TagPaths(target))
    assert len(links) == 20
    spans = _link_runs(target, main, links)
    nodes = target.nodes
    assert [rows[0] for rows, _, _ in spans] == links
    assert [rows[1] + 1 for rows, _, _ in spans[:-1]] == links[1:]
    assert spans[-1][0][1] == nodes.end[main]
    segments = [seg for _, seg, _ in spans]
    assert all(a[1] == b[0] for a, b in zip(segments, segments[1:]))
    assert segments[-1][1] == nodes.seg_hi[main]


def test_four_or_more_data_regions_become_records_the_known_limit():
    # netease's leaderboard: twelve ranking boxes whose links share one Rpath. Separating the
    # region by them gives twelve parts (>= 4), so the main structure is the region itself and
    # every box is an information structure: PSNT returns the boxes, not the ranked articles
    # (paper 004, section 4). This test pins that behaviour.
    target, line = single("gerapy_listdetail-netease_leaderboard.html")
    induced = induce_wrapper(target, None)
    assert induced.trace["main"] == "region" and induced.trace["region_parts"] == 12
    records = apply_wrapper(induced.wrapper, target).records
    assert len(records) == 12
    matched, predicted, total, _ = record_counts([r.to_dict() | {"url": r.url} for r in records],
                                                 line["records"], None)
    assert (matched, predicted) == (0, 12) and total > 150


def test_an_information_structure_holding_several_records_is_split(monkeypatch):
    # dfa66: the announcements are the <li> of one <ul> inside a column <div>; the main structure
    # holds that column and a side menu, so the paper's information structures are the two
    # <div>s and it returns 2 records (one per <div>, 1 of the 10 gold). The extension
    # SPLIT_SHARED_STRUCTURES makes each standard link's own structure (its <li>) a record.
    import extractors.psnt as psnt

    target, line = single("gerapy_listdetail-dfa66.html")
    w = induce_wrapper(target, None).wrapper
    assert w.notation() == "html.body.div.div.div(1)(div.ul.li.a)[div]"

    def counts(records):
        return record_counts([r.to_dict() | {"url": r.url} for r in records], line["records"],
                             None)[:3]

    split = apply_wrapper(w, target).records
    assert counts(split) == (10, 14, 10)  # the 4 others: the side menu's 4 category links
    assert [r.date for r in split[4:]] == [g["date"] for g in line["records"]]
    monkeypatch.setattr(psnt, "SPLIT_SHARED_STRUCTURES", False)
    assert counts(apply_wrapper(w, target).records) == (1, 2, 10)


def test_the_ordered_link_group_separates_the_region():
    # arstechnica: a link group lying in one sub-block of the region (longer mean link text)
    # would separate it into a single part; the ordered group is chosen among the groups that
    # separate it, so the region splits into its story blocks and every gold story is found
    import extractors.psnt as psnt
    from extractors.psnt import _ordered_link_group, _region_structure, _remove_shared_links

    target, line = single("gerapy_listdetail-arstechnica.html")
    tree, _ = _remove_shared_links(target, None)
    region, _ = _region_structure(tree)
    ordered = _ordered_link_group(tree, region)
    assert tree.paths.smallest_common(*ordered) == region
    assert len(psnt.separate(tree.paths, region, ordered)) > 1
    records = apply_wrapper(induce_wrapper(target, None).wrapper, target).records
    matched, predicted, total, _ = record_counts([r.to_dict() | {"url": r.url} for r in records],
                                                 line["records"], None)
    assert matched == predicted == total == 36


def test_a_link_without_a_structure_of_its_own_does_not_split_the_record(monkeypatch):
    # gne's netease forum (GPL-3.0: read from the dataset, never copied): each thread's <th>
    # holds its title link and a "New" link (to the last reply) at the same Rpath; neither has a
    # structure of its own below the row, so the row stays one record (split, 25 "New" records)
    import extractors.psnt as psnt

    (forum,) = _dataset_pages("gne", "test_list_page/netease_forum/1.html")
    target = parse_page(forum.read_bytes())
    w = induce_wrapper(target, None).wrapper

    def counts():
        records = apply_wrapper(w, target).records
        return record_counts([r.to_dict() | {"url": r.url} for r in records],
                             forum.gold["records"], forum.base_url())[:3]

    assert counts() == (42, 42, 42)
    monkeypatch.setattr(psnt, "_own_structures", lambda paths, info, own: [
        (link, link) for link in own] if len(own) > 1 else None)
    assert counts() == (42, 67, 42)  # what splitting at every link would do


def test_a_wrapper_finds_nothing_on_another_template_and_says_why(ifixit):
    w = induce_wrapper(*ifixit).wrapper
    other, _ = single("gerapy_listdetail-aibase.html")
    found = apply_wrapper(w, other)
    assert found.records == [] and found.reason.startswith("no main structure")


def _dataset_pages(name: str, *ids: str) -> list:
    from evaluation.datasets import load_dataset

    if not (DATA / name / "gold.jsonl").is_file():
        pytest.skip(f"dataset {name} not unpacked under {DATA} (see ../shared/data/README.md)")
    pages = {p.id: p for p in load_dataset(DATA / name).pages}
    return [pages[i] for i in ids]


def test_chinese_pair_of_one_template_from_the_gne_set():
    # gne (GPL-3.0: read from the dataset, never copied): two list pages of news.163.com
    first, second = _dataset_pages("gne", "test_list_page/163/1.html", "test_list_page/163/2.html")
    a, b = parse_page(first.read_bytes()), parse_page(second.read_bytes())
    induced = induce_wrapper(a, b)
    assert induced.reason is None and induced.trace["shared_links_removed"] > 100
    for target, line in ((a, first.gold), (b, second.gold)):
        records = apply_wrapper(induced.wrapper, target).records
        matched, predicted, total, titles = record_counts(
            [r.to_dict() | {"url": r.url} for r in records], line["records"], None)
        assert matched == predicted == titles > 20  # every record found is a gold record
        assert any(r.date for r in records)


def test_identical_copies_give_no_wrapper():
    # Two byte-identical copies of one list page (the source of gerapy_listdetail shipped such
    # copies; the rebuilt set no longer has them, so the pinned aibase page is copied here):
    # every link is shared, nothing is left to induce from
    data = (SINGLES / "gerapy_listdetail-aibase.html").read_bytes()
    induced = induce_wrapper(parse_page(data), parse_page(bytes(data)))
    assert induced.wrapper is None and "share all their" in induced.reason


def test_dates_and_authors_are_read_inside_each_record():
    # 36kr (gerapy_listdetail, pinned in list_records): the gold gives each record's date as
    # printed ("20分钟前") and its author; the page has no second list page, so page alone
    folder = EVAL / "list_records"
    lines = (folder / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    line = next(g for g in map(json.loads, lines) if g["id"].endswith("list/36kr_com.html"))
    target = parse_page((folder / line["file"]).read_bytes())
    records = apply_wrapper(induce_wrapper(target, None).wrapper, target).records
    gold_records = {g["href"]: g for g in line["records"]}
    assert len(records) == len(gold_records) == 30
    for record in records:
        assert record.date == gold_records[record.url]["date"]
        assert record.authors == [gold_records[record.url]["author"]]
        assert record.to_dict()["published"] == record.date


def test_a_single_page_wrapper_reads_the_tag_paths_once_and_no_link_key(monkeypatch):
    """Induction from the page alone and the wrapper's application on it (the page-type step's
    ``listed`` check, the list step's fallback) share the page's one :class:`TagPaths`, and with
    no second page no link's href and text are read to be compared with none: the same
    wrapper and records as before, on netease's rolling news (gerapy_listdetail)."""
    from extractors import psnt, tagpaths

    name = "gerapy_listdetail-netease_rolling.html"
    before = induce_wrapper(page(name), None)
    expected = apply_wrapper(before.wrapper, page(name)).records
    built, keys = [], []
    build, link_key = tagpaths.TagPaths.__init__, psnt._link_key

    def counted_build(self, parsed):
        built.append(parsed)
        build(self, parsed)

    def counted_link_key(parsed, row):
        keys.append(row)
        return link_key(parsed, row)

    monkeypatch.setattr(tagpaths.TagPaths, "__init__", counted_build)
    monkeypatch.setattr(psnt, "_link_key", counted_link_key)
    parsed = page(name)
    induced = induce_wrapper(parsed, None)
    records = apply_wrapper(induced.wrapper, parsed).records
    assert len(built) == 1 and keys == []
    assert induced.wrapper.to_json() == before.wrapper.to_json() and induced.trace == before.trace
    assert records == expected and records
