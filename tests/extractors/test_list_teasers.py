"""A two-page wrapper's records with the page's teasers of the same markup in other regions
(``extractors.pageinfo.more_teasers``), on a real same-template pair (tests/fixtures/psnt:
wcxb_dev 2961 / 2962, bbc.com, CC-BY-4.0; sources in SOURCES.md there), matched as ``newscrawl
eval`` matches them."""

from __future__ import annotations

from urllib.parse import urljoin

import pytest

from extractors.dwsie import classify_nodes, default_node_model, information_length
from extractors.listrecords import Record, base_url
from extractors.page import link_hrefs
from extractors.pageinfo import (TAB_STATE_CLASSES, TITLE_MIN_WORDS, crawl_records,
                                 hidden_tab_panes, more_teasers, psnt_records)
from tests.extractors.test_list_confirmed import counts, fixture


def test_the_teasers_of_the_wrappers_markup_in_other_regions_are_added():
    # bbc.com/news with bbc.com/news/technology: the two-page wrapper reads one grid (8 of the 42
    # annotated teasers); every teaser of the page is a <div data-testid="dundee-card"> (no
    # <article>: the page's one <article> holds them all), its headline link of one markup
    # wherever the grid sits. The code before published the wrapper's 8.
    gold, page = fixture("wcxb_dev-2961.html")
    _gold, sibling = fixture("wcxb_dev-2962.html")
    wrapper = psnt_records(page, sibling)
    assert counts(wrapper, gold) == (8, 8, 42)
    records, rule = crawl_records(page, classify_nodes(page, default_node_model()), sibling)
    assert rule == "psnt+teasers"
    matched, predicted, _gold = counts(records, gold)
    assert matched == predicted >= 36
    assert records[:len(wrapper)] == wrapper


def test_a_link_of_the_markup_titled_with_fewer_words_is_not_a_teaser():
    # The same page: the teasers added are headlines (3 words or more), none a wrapper record.
    # A list read from the site menu's "Home" link brings the menu's markup, whose other links
    # ("News", "Sport", "Business", ...) are one word or two: not teasers, none added.
    gold, page = fixture("wcxb_dev-2961.html")
    _gold, sibling = fixture("wcxb_dev-2962.html")
    wrapper = psnt_records(page, sibling)
    teasers = more_teasers(page, wrapper)
    assert teasers and not {r.url for r in teasers} & {r.url for r in wrapper}
    assert all(information_length(r.title) >= TITLE_MIN_WORDS for r in teasers)
    menu = [a for a in page.root.iter("a") if a.getparent().getparent().tag == "li"
            and (a.text_content() or "").strip() in ("Home", "Sport", "Business")]
    assert len(menu) >= 3
    home = next(a for a in menu if a.text_content().strip() == "Home")
    record = Record("Home", urljoin(gold["url"], home.get("href")), None, [])
    assert more_teasers(page, [record]) == []


def test_no_records_no_teasers():
    _gold, page = fixture("wcxb_dev-2961.html")
    assert more_teasers(page, []) == []


def test_dwsie_one_list_gets_the_visible_tables_of_its_tab_boxes():
    # netease's leaderboard (gerapy_listdetail, Apache-2.0): 24 ranking boxes, each a tab bar of
    # three tabs over three tables; the annotation is the shown table of each box (199 links).
    # DWSIE types one list node per box (rule one_list, 23 right records, the code before); its
    # records' title-link markup finds the rows of every table, and the hidden tab panes (the two
    # tables of each box whose tab is not marked "active") are left out.
    gold, page = fixture("gerapy_listdetail-netease_leaderboard.html")
    records, rule = crawl_records(page, classify_nodes(page, default_node_model()), None)
    assert rule == "one_list+teasers"
    matched, predicted, actual = counts(records, gold)
    assert actual == 199 and matched == predicted >= 190


def test_the_hidden_panes_are_the_unmarked_tables_of_a_tab_box_with_its_tab_bar():
    # The same page: 24 tab boxes, 2 hidden panes each, every one a div.tabContents beside the
    # box's "active" one; a story linked only from a hidden table is not published.
    gold, page = fixture("gerapy_listdetail-netease_leaderboard.html")
    nodes, hidden = page.nodes, hidden_tab_panes(page)
    assert len(hidden) == 48
    for row, _end in hidden:
        assert nodes.classes[row] == "tabContents"
        box = int(nodes.parent[row])
        assert sum(nodes.classes[c] == "tabContents active" and int(nodes.parent[c]) == box
                   for c in range(box, int(nodes.end[box]) + 1)) == 1
    inside, outside, base = set(), set(), base_url(page)  # as the records' URLs are read
    for row, href in zip(*link_hrefs(page)):
        url = urljoin(base, href.strip()) if base else href.strip()
        (inside if any(a <= row <= e for a, e in hidden) else outside).add(url)
    records, _rule = crawl_records(page, classify_nodes(page, default_node_model()), None)
    assert inside - outside and not {r.url for r in records} & (inside - outside)


@pytest.mark.parametrize("name", ["gerapy_listdetail-money_163.html",
                                  "gerapy_listdetail-netease_rolling.html",
                                  "gerapy_listdetail-tech_163.html"])
def test_a_state_class_without_a_tab_bar_hides_nothing(name):
    # A lone "active" / "current" / "on" marks a menu's current item, a carousel's slide, a
    # selected filter: netease's pages (gerapy_listdetail) mark their channel bar's current item
    # and a news feed's current pane, with no tab bar of as many tabs marked at the same place:
    # no hidden pane.
    _gold, page = fixture(name)
    assert any(set(c.split()) & TAB_STATE_CLASSES for c in page.nodes.classes)
    assert hidden_tab_panes(page) == []


def test_a_link_titled_as_a_record_but_leading_elsewhere_is_no_teaser():
    # makersmarket.us (wcxb_dev 4852, CC-BY-4.0): DWSIE's one list reads a product's "Add To
    # Cart" button as a record (its only link of three words); the other products' buttons share
    # its markup and title and lead to other URLs: buttons, not more records (the code before
    # added four).
    gold, page = fixture("wcxb_dev-4852.html")
    records, rule = crawl_records(page, classify_nodes(page, default_node_model()), None)
    assert rule.startswith("one_list")
    assert any(r.title == "Add To Cart" for r in records)
    assert not [r for r in more_teasers(page, records) if r.title == "Add To Cart"]
    assert counts(records, gold)[:2] == (8, 9)
