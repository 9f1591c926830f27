"""Attenuation main text on real article pages, scored against the datasets' gold text."""

from __future__ import annotations

import re

import pytest

from extractors import extract, parse_page
from extractors.attenuation import clean_tree, extract_main_text, find_subject_region
from evaluation.metrics import page_precision, page_recall, shingle_match
from tests.fixture_pages import body_without_link_lines, fixture, gold_lines, page_bytes

ARTICLES = [g for g in gold_lines() if g["page_type"] == "article" and g.get("body")]
#: One bar for every fixture article (they were picked by encoding and site, not by score).
MIN_PRECISION, MIN_RECALL = 0.8, 0.85
NAVIGATION_LINKS = ("//nav//a | //header//a | //footer//a | //*[contains(@class, 'nav') or "
                    "contains(@id, 'nav') or contains(@class, 'menu') or contains(@class, 'foot')]//a")


#: modernfarmer.com's sidebar holds a hidden "republish this story" form with a copy of the
#: headline (an ``h1``), which guards it from the furniture mask; the walk takes the story's
#: column and the sidebar together (precision 0.57, recall 1.0). Letting no hidden ``h1`` guard
#: was measured (wcxb_dev 2 pages up, 2 down) and left out.
HIDDEN_HEADLINE_COPY = pytest.mark.xfail(strict=True, reason="a hidden form with the headline")
#: Known misses, each a measured trade: vanguard's fund-type cards are named ``teaser`` inside
#: the story's region and its gold keeps them (``extractors.TEASER_WORDS``: trafilatura_eval
#: snippets 0.9360 -> 0.9370 for this page's 0.05; recall 0.77); cx_bbc world-asia-40871854's
#: silver gold starts at the story's sixth paragraph (kept for its embedded tweet; precision
#: 0.74 against a gold missing the story's opening); yahoo-2's gold (Readability.js's output)
#: opens with the five captions of the story's slideshow, which the chain leaves out as it leaves
#: out every caption gallery (recall 0.71; the page is a fixture for its byline).
KNOWN_MISSES = {
    "pages/wcxb_dev-00324.html": HIDDEN_HEADLINE_COPY,
    "pages/wcxb_dev-01273.html": pytest.mark.xfail(strict=True, reason="teaser cards in its gold"),
    "pages/cx_bbc-00112.html": pytest.mark.xfail(strict=True, reason="silver gold lacks the lead"),
    "pages/readability_testpages-00126.html": pytest.mark.xfail(
        strict=True, reason="gold holds a slideshow's five captions before the story"),
}
BODY_CASES = [pytest.param(g, marks=KNOWN_MISSES[g["file"]]) if g["file"] in KNOWN_MISSES else g
              for g in ARTICLES]


@pytest.mark.parametrize("gold", BODY_CASES, ids=[g["file"] for g in ARTICLES])
def test_body_matches_the_gold_text(gold):
    document = page_bytes(gold)
    body = extract(document, url=gold["url"]).body
    expected = body_without_link_lines(gold, parse_page(document).root)
    counts = shingle_match(expected, body, cjk=gold["lang"] == "zh")
    assert page_precision(*counts) >= MIN_PRECISION
    assert page_recall(*counts) >= MIN_RECALL


def _navigation_texts(document: bytes, gold_body: str) -> list[str]:
    """Anchor texts of the page's nav/header/footer links that the gold body does not contain
    (a leaked menu shows up as lines of the output equal to these)."""
    tree = parse_page(document).root
    gold = re.sub(r"\s+", " ", gold_body)
    texts = {re.sub(r"\s+", " ", a.text_content()).strip()
             for a in tree.xpath(NAVIGATION_LINKS)}
    return [t for t in texts if len(t) >= 8 and t not in gold]


#: A teaser list whose items carry a one-line description under the link has a link density near 0.5,
#: under DLmax, so attenuation alone keeps it (paper 000's known weakness); template matching against a
#: sibling (paper 003) is what removes such blocks.
TEASERS_KEPT = pytest.mark.xfail(strict=True, reason="teaser list with descriptions: DL < DLmax")
#: modernfarmer.com: the sidebar the hidden headline copy guards (below) holds a menu link.
HIDDEN_HEADLINE_COPY_NAV = pytest.mark.xfail(strict=True, reason="a sidebar guarded by a hidden h1")
#: Substack's cards of other posts set in the essay (wcxb_dev techworld-with-milan) keep their
#: publication's name, which the page's header links to; only their "Read more" line goes.
EMBEDDED_POST_CARDS = pytest.mark.xfail(strict=True, reason="another post's card, its site name")
#: Readability's hidden-nodes and visibility-hidden test pages hold no link at all: nothing to
#: leave out (checked by ``test_pages_without_links_are_left_out_of_the_navigation_test``).
NO_LINKS = ("pages/readability_testpages-00042.html", "pages/readability_testpages-00114.html")
#: Medium's lazy-image-1: its links named as navigation, header or footer ones are icons and
#: "Sign in", under the 8 characters ``_navigation_texts`` asks for (checked by
#: ``test_a_page_with_no_navigation_text_is_left_out_of_the_navigation_test``).
NO_NAVIGATION_TEXT = ("pages/readability_testpages-00051.html",)
NAVIGATION_MISSES = {"pages/aeb-00179.html": TEASERS_KEPT,
                     "pages/wcxb_dev-00324.html": HIDDEN_HEADLINE_COPY_NAV,
                     "pages/wcxb_dev-00764.html": EMBEDDED_POST_CARDS}
NAVIGATION_ARTICLES = [g for g in ARTICLES if g["file"] not in NO_LINKS + NO_NAVIGATION_TEXT]
NAVIGATION_CASES = [pytest.param(g, marks=NAVIGATION_MISSES[g["file"]])
                    if g["file"] in NAVIGATION_MISSES else g for g in NAVIGATION_ARTICLES]


def _articles(files: tuple[str, ...]) -> list[dict]:
    """The fixture articles of these files, in this order (a KeyError names one that is none)."""
    by_file = {g["file"]: g for g in ARTICLES}
    return [by_file[name] for name in files]


@pytest.mark.parametrize("gold", _articles(NO_LINKS), ids=NO_LINKS)
def test_pages_without_links_are_left_out_of_the_navigation_test(gold):
    assert parse_page(page_bytes(gold)).root.xpath("//a") == []


@pytest.mark.parametrize("gold", _articles(NO_NAVIGATION_TEXT), ids=NO_NAVIGATION_TEXT)
def test_a_page_with_no_navigation_text_is_left_out_of_the_navigation_test(gold):
    document = page_bytes(gold)
    assert parse_page(document).root.xpath(NAVIGATION_LINKS)  # named links, none with a text
    assert _navigation_texts(document, gold["body"]) == []


@pytest.mark.parametrize("gold", NAVIGATION_CASES, ids=[g["file"] for g in NAVIGATION_ARTICLES])
def test_navigation_is_left_out(gold):
    document = page_bytes(gold)
    lines = {line.strip() for line in extract(document).body.splitlines()}
    navigation = _navigation_texts(document, gold["body"])
    assert navigation, "the page should have navigation links for this test to mean anything"
    assert [t for t in navigation if t in lines] == []


def test_walk_stops_above_the_paragraphs():
    page = parse_page(b"<html><body><div id=nav><a href=/a>Home page</a><a href=/b>World news</a>"
                      b"</div><div id=main><p>" + b"First paragraph of the story. " * 6 + b"</p><p>"
                      + b"Second paragraph, a little longer than the first. " * 6 + b"</p></div>"
                      b"</body></html>")
    region = find_subject_region(page.nodes)
    assert page.nodes.elements[region].get("id") == "main"


def test_link_lists_are_pruned_but_inline_links_kept():
    page = parse_page(b"<html><body><div><p>Rain fell on <a href=/t>the town</a> all night long, "
                      b"and the river rose.</p><p>More rain is expected tomorrow morning.</p>"
                      b"<ul><li><a href=/1>Related story one</a></li><li><a href=/2>Related story two"
                      b"</a></li></ul></div></body></html>")
    main = extract_main_text(page)
    assert "Rain fell on the town all night long" in main.text
    assert "Related story" not in main.text
    keep = clean_tree(page.nodes, main.region)
    assert not keep[page.nodes.tag.index("ul")]


def test_page_of_links_only_gives_a_reason():
    page = parse_page(b"<html><body><a href=/1>one</a> <a href=/2>two</a></body></html>")
    main = extract_main_text(page)
    assert (main.text, main.reason) == ("", "no non-link text on the page")


def test_the_landmark_rows_cache_is_per_thread():
    # The crawl extracts pages in several worker threads: a cache shared between them could hand
    # one page's footer rows to another page's walk between the check and the read. Each thread
    # keeps its own last table (white-box: the race itself is a few bytecodes wide under the GIL
    # and could not be made to show in a stress run).
    import threading

    from extractors.attenuation import _OFF_ROWS, _off_story_rows

    first, second = (parse_page(page_bytes(fixture(name))).nodes
                     for name in ("wcxb_dev-00586.html", "aeb-00058.html"))
    mine = _off_story_rows(first)
    other: list = []
    worker = threading.Thread(target=lambda: other.append(_off_story_rows(second)))
    worker.start()
    worker.join()
    assert other[0] != mine and other[0] == _off_story_rows_plain(second)
    assert _OFF_ROWS.__dict__["tags"] is first.tag and _off_story_rows(first) == mine


def _off_story_rows_plain(nodes):
    from extractors.attenuation import OFF_STORY_TAGS

    return [row for row, tag in enumerate(nodes.tag) if tag in OFF_STORY_TAGS]
