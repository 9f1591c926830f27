"""A list page's cards (``<article>`` teasers) added to the records of the list step
(``extractors.pageinfo.more_cards``), on real pages with hand-made records (tests/fixtures/psnt:
gerapy_listdetail, Apache-2.0; wcxb_dev, CC-BY-4.0; sources in SOURCES.md there), matched as
``newscrawl eval`` matches them."""

from __future__ import annotations

from evaluation.listmetrics import record_key
from extractors.dwsie import classify_nodes, default_node_model
from extractors.pageinfo import (card_records, cards_instead, crawl_records, more_cards, psnt_records,
                                 with_cards)
from tests.extractors.test_list_confirmed import counts, fixture


def gold_urls(gold) -> list[str]:
    return [r["href"] for r in gold["records"]]


def test_the_cards_give_the_records_of_the_regions_the_list_step_did_not_read():
    # arstechnica.com's front: every annotated record is a card (<article class="card-list-square
    # category-...">: the category classes vary from card to card). A list step that read one
    # region (the first half of the cards, as a wrapper reads one main structure) gets most of
    # the other half from the cards of the same markup (12 of 18: a card whose categories share
    # no more than half its classes with every card of the region stays out), and nothing
    # else: on the code before, the list step's records were all the page published.
    gold, page = fixture("gerapy_listdetail-arstechnica.html")
    cards = [record for _classes, record in card_records(page)]
    assert counts(cards, gold) == (36, 36, 36)
    region = cards[:18]
    extra = more_cards(page, [r.url for r in region])
    matched, predicted, _gold = counts(extra, gold)
    assert matched == predicted >= 9
    assert not {r.url for r in extra} & {r.url for r in region}
    assert counts(with_cards(page, region)[0], gold) == (18 + matched, 18 + matched, 36)


def test_a_list_whose_records_are_mostly_not_cards_gets_none():
    # github.blog: the 19 post cards are annotated records, but a list of the page's other
    # links (its navigation) holding one card is not the cards' list: under half of it are
    # cards, so none is added.
    gold, page = fixture("wcxb_dev-2902.html")
    cards = [record for _classes, record in card_records(page)]
    wanted = {record_key(u, gold["url"]) for u in gold_urls(gold)}
    assert sum(record_key(r.url, gold["url"]) in wanted for r in cards) >= 19
    others = [a.get("href") for a in page.root.iter("a") if a.get("href", "").startswith("https://github.blog/")]
    listed = list(dict.fromkeys(u for u in others if u not in {r.url for r in cards}))[:6]
    assert len(listed) == 6
    assert more_cards(page, [*listed, cards[0].url]) == []
    assert len(more_cards(page, [cards[0].url, cards[1].url])) >= 17  # the same two as cards


def test_cards_of_another_markup_are_not_added():
    # ifixit.com/Parts/iPhone: the list step's 24 records are product cards (class "group
    # relative"); the page's 48 model tiles are cards too (class "group"), sharing half of the
    # class tokens, not more: they are not records and are not added.
    gold, page = fixture("wcxb_dev-0652.html")
    records, _rule = crawl_records(page, classify_nodes(page, default_node_model()), None)
    matched, predicted, _gold = counts(records, gold)
    assert matched == predicted >= 20
    tiles = [r for classes, r in card_records(page) if classes.split() == ["group"]]
    assert len(tiles) >= 40
    assert not {r.url for r in tiles} & {r.url for r in records}


def test_the_page_cards_replace_a_wrapper_that_read_another_region():
    # greenroads.com's THC gummies with its CBD gummies page (same template): the two-page PSNT
    # wrapper reads a menu (4 links, none annotated), while the page marks its 12 annotated
    # products as <article class="product-card ..."> cards. None of the wrapper's records is a
    # card and the cards are more: the cards replace them (the code before published the 4).
    gold, page = fixture("wcxb_dev-0642.html")
    _gold, sibling = fixture("wcxb_dev-0641.html")
    classes = classify_nodes(page, default_node_model())
    wrapper = psnt_records(page, sibling)
    assert counts(wrapper, gold)[0] == 0 and len(wrapper) >= 1
    assert not {r.url for _c, r in card_records(page)} & {r.url for r in wrapper}
    records, rule = crawl_records(page, classes, sibling)
    assert rule == "psnt+cards_instead"
    assert counts(records, gold) == (12, 12, 12)


def test_a_list_step_without_records_gets_no_cards():
    # the list step's "none" (no record where its readings disagree) is a precision rule: the
    # cards do not stand in for it, however many the page has.
    gold, page = fixture("wcxb_dev-0642.html")
    assert len(card_records(page)) >= 12
    assert cards_instead(page, []) == [] and more_cards(page, []) == []
    assert with_cards(page, []) == ([], "")
