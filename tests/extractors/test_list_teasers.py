"""A two-page wrapper's records with the page's teasers of the same markup in other regions
(``extractors.pageinfo.more_teasers``), on a real same-template pair (tests/fixtures/psnt:
wcxb_dev 2961 / 2962, bbc.com, CC-BY-4.0; sources in SOURCES.md there), matched as ``newscrawl
eval`` matches them."""

from __future__ import annotations

from urllib.parse import urljoin

from extractors.dwsie import classify_nodes, default_node_model, information_length
from extractors.listrecords import Record
from extractors.pageinfo import TITLE_MIN_WORDS, crawl_records, more_teasers, psnt_records
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
