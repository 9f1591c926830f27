"""The chain's faster paths against the plain ones they replaced, on every real fixture page
(tests/fixtures/pages; sources in tests/fixtures/SOURCES.md): the same answers, exactly."""

from __future__ import annotations

import re
from functools import cache

import numpy as np
import pytest

from extractors import BadInput, extract
from extractors.attenuation import extract_main_text
from extractors.boilerplate import (
    CAPTION_WORDS,
    COMMENT_WORDS,
    CONSENT_WORDS,
    FURNITURE_WORDS,
    STORY_WORDS,
    WEAK_FURNITURE_WORDS,
    _word_pattern,
    page_markup,
)
from extractors.pagetype import (
    _SLUG,
    _Joined,
    _lowered,
    _slug_hrefs,
    default_page_model,
    heuristic_type,
    page_features,
)
from tests.fixture_pages import gold_lines, page_bytes


@cache
def _extractions() -> tuple:
    found = []
    for line in gold_lines():
        try:
            found.append(extract(page_bytes(line), url=line.get("url")))
        except BadInput:
            continue
    return tuple(found)


def test_every_fixture_page_is_read():
    assert len(_extractions()) >= 80


def test_the_forest_walk_gives_the_masked_walks_probabilities():
    """Both forests of the shipped page model, on the feature row of every fixture page: the
    walk through the self-looping leaves (``Forest.probability``) and the walk that masks the
    trees at a leaf (``Forest.reference_probability``) give the same float."""
    model = default_page_model()
    assert model is not None
    rows = []
    for result in _extractions():
        main = extract_main_text(result.page)
        rows.append(page_features(result.page, main.text, result.fields, result.body,
                                  heuristic_type(result.page, main)))
    for forest in (model.article, model.listing):
        fast = [forest.probability(row) for row in rows]
        plain = [forest.reference_probability(row) for row in rows]
        assert fast == plain
        assert len(set(fast)) > 10  # the pages reach many different leaves


def test_the_forest_walk_handles_a_row_of_extremes():
    """Rows no page gives (every feature very large, very small, or NaN, which goes right at
    every split as in the masked walk) still agree."""
    model = default_page_model()
    width = len(model.article.feature) and int(model.article.feature.max()) + 1
    for value in (-1e30, 0.0, 1e30, np.nan):
        row = np.full(width, value)
        for forest in (model.article, model.listing):
            assert forest.probability(row) == forest.reference_probability(row)


_LISTS = (FURNITURE_WORDS, CONSENT_WORDS, WEAK_FURNITURE_WORDS, STORY_WORDS, COMMENT_WORDS,
          CAPTION_WORDS, tuple(w for w in FURNITURE_WORDS if w not in COMMENT_WORDS))


def test_name_words_match_the_lists_as_their_word_patterns_do():
    """``NameWords.matching_words`` (set and ``str.find`` operations) against one regex pass
    per list (``NameWords.matching`` with the list's word pattern), on every fixture page."""
    hits = 0
    for result in _extractions():
        names = page_markup(result.page).names
        fast = names.matching_words(_LISTS)
        assert fast == [names.matching(_word_pattern(words)) for words in _LISTS]
        hits += sum(map(len, fast))
    assert hits > 1000


@pytest.mark.parametrize("value", ["", "relatedArticles post_share-bar", "nav\0footer",
                                   "commentsList comment-1 ad-slot"])
def test_name_words_match_made_up_names_too(value):
    from extractors.boilerplate import NameWords
    from extractors.nodetable import build_node_table
    from lxml import html

    root = html.fromstring(f'<div><p class="{value}">x</p><p id="{value}">y</p></div>')
    names = NameWords.of(build_node_table(root))
    assert names.matching_words(_LISTS) == [names.matching(_word_pattern(w)) for w in _LISTS]


def test_slug_hrefs_are_those_the_unfiltered_search_finds():
    found = 0
    for result in _extractions():
        nodes = result.page.nodes
        hrefs = [el.get("href") or "" for el, tag in zip(nodes.elements, nodes.tag) if tag == "a"]
        every = {hrefs[k] for k in _Joined(_lowered(hrefs)).matching(_SLUG)}
        assert _slug_hrefs(hrefs) == every
        found += len(every)
    assert found > 100


def _author_rows_one_by_one(page) -> list[tuple[int, str]]:
    from extractors.bylines import _AUTHOR_HREF

    nodes = page.nodes
    return [(row, el.get("href") or "") for row, (el, tag) in enumerate(zip(nodes.elements,
                                                                              nodes.tag))
            if tag == "a" and _AUTHOR_HREF.search(el.get("href") or "")]


def test_author_hrefs_searched_at_once_are_those_searched_one_by_one():
    from extractors.bylines import _author_href_rows

    found = 0
    for result in _extractions():
        rows = _author_href_rows(result.page)
        assert rows == _author_rows_one_by_one(result.page)
        found += len(rows)
    assert found > 20


@pytest.mark.parametrize("links", [
    ['/@jdoe', '/news/x', '/@jdoe/', '/@a.b/c'],  # "$" at each href's end, not the page's
    ['/author/jane\n/x', '/author/bob'],  # an href with a line break is read on its own
    ['/author/', '?x=1&author=3', '/users/login', '', '/profile/p/q#r'],
    # links with line breaks among others: each read on its own, the others at once
    ['/author/a', '/x\n/author/b', '/@c', '/users/d\n', '/author/e', '\n', '/@f\n/g', '/@h'],
    # upper case, ASCII (searched lowered) and not ("/uſers/": "ſ" is an "s" to (?i) only)
    ['/AUTHOR/Jane', '?AUTHOR=4', '/@Bob', '/People/X', '/x/ProFiles/y'],
    ['/AUTHOR/Jane', '/uſers/x', '/Users/y', '/\u212aontakt/z', '/journalistIN/ä'],
])
def test_author_hrefs_at_once_on_made_up_links(links):
    from extractors import parse_page
    from extractors.bylines import _author_href_rows

    page = parse_page("<p>" + "".join(f'<a href="{h}">{i}</a>' for i, h in enumerate(links))
                      + "</p>")
    assert [e.get("href") for e in page.root.iter("a")] == links  # line breaks kept
    assert _author_href_rows(page) == _author_rows_one_by_one(page)


def test_name_words_asked_again_answer_as_a_fresh_reading():
    """``matching_words`` keeps what it found for the next call on the page: lists asked one by
    one, in another order, then all at once, on a fresh reading of every fixture page, give what
    one regex pass per list gives."""
    from extractors.boilerplate import DIALOG_WORDS, GALLERY_WORDS, PAYWALL_WORDS, NameWords

    lists = (*_LISTS, GALLERY_WORDS, DIALOG_WORDS, PAYWALL_WORDS)
    for result in _extractions():
        names = NameWords.of(result.page.nodes)
        expected = [names.matching(_word_pattern(words)) for words in lists]
        one_by_one = [names.matching_words((words,))[0] for words in reversed(lists)]
        assert one_by_one[::-1] == expected
        assert names.matching_words(lists) == expected
        assert names.matching_words(lists) == expected  # read from what the calls kept


def test_stemmed_words_and_their_rows_read_by_bisection_are_the_plain_passes():
    """``NameWords._starting`` (the page's sorted words, each stem's run from its
    ``bisect_left``) gives the words the plain pass over every word finds
    (``word.startswith(stems)``), and ``_rows_of`` (``bisect_right`` over the starts as a list)
    the names ``np.searchsorted`` finds, on a fresh reading of every fixture page: for each
    listed stem, each list's stems, the stems of all lists at once, and made-up stems (a word's
    whole, one letter, a letter past every word)."""
    from extractors.boilerplate import (DIALOG_WORDS, GALLERY_WORDS, PAYWALL_WORDS, NameWords,
                                        _word_lists)

    lists = (*_LISTS, GALLERY_WORDS, DIALOG_WORDS, PAYWALL_WORDS)
    stems = [s for listed in _word_lists(lists)[1] for s in listed]
    found = rows = 0
    for result in _extractions():
        names = NameWords.of(result.page.nodes)
        if not names.unique:
            continue
        names.matching_words(lists)  # what the chain asks first (it keeps the words present)
        present = frozenset(names.joined.split())
        some = sorted(present)[:3]
        for asked in ([(s,) for s in stems] + [tuple(listed) for listed in _word_lists(lists)[1]]
                      + [_word_lists(lists)[3], tuple(some), ("a", "z"), ("\uffff",), ("",)]):
            plain = frozenset(word for word in present if word.startswith(asked))
            assert names._starting(asked) == plain
            found += len(plain)
        for word in present:
            spaced, places = f" {word} ", []
            at = names.joined.find(spaced)
            while at >= 0:
                places.append(at)
                at = names.joined.find(spaced, at + 1)
            plain = frozenset((np.searchsorted(names.starts, places, side="right") - 1).tolist())
            assert names._rows_of(word) == plain
            rows += len(plain)
    assert found > 100 and rows > 1000


@pytest.mark.slow  # ~35 s: five masks, four flag pairs, three readings, every page
def test_region_text_kept_per_mask_is_a_fresh_reading(monkeypatch):
    """``region_text`` keeps each mask's lines on the table (``nodes._lines``): on every fixture
    page, for the chain's body mask, the furniture mask, every row, no row and a random half,
    each asked with and without the link edges and the case joins, in one order and then the
    reverse, it gives what a reading on a table with nothing kept gives, also on a
    ``masked`` copy (which shares the kept lines); asked again, it reads what it kept."""
    from dataclasses import replace

    from extractors import attenuation
    from extractors.boilerplate import furniture_mask

    flags = [(False, False), (True, False), (False, True), (True, True)]
    rng = np.random.default_rng(28)
    asked, lines = [], 0
    for result in _extractions():
        nodes = result.page.nodes
        n = len(nodes)
        masks = [extract_main_text(result.page).keep, furniture_mask(nodes),
                 np.ones(n, dtype=bool), np.zeros(n, dtype=bool), rng.random(n) < 0.5]
        masks = [mask for mask in masks if mask is not None]
        copy = nodes.masked(masks[-1])
        for order in (flags, flags[::-1]):
            for mask in masks:
                for drop, case in order:
                    fresh = attenuation.region_text(replace(nodes, _lines={}), mask, drop, case)
                    assert attenuation.region_text(nodes, mask, drop, case) == fresh
                    assert attenuation.region_text(copy, mask, drop, case) == fresh
                    asked.append((nodes, mask, drop, case, fresh))
                    lines += fresh.count("\n") + bool(fresh)
    assert lines > 10000

    def fails(*args):
        raise AssertionError("read again")

    monkeypatch.setattr(attenuation, "_region_lines", fails)
    for nodes, mask, drop, case, fresh in asked:
        assert attenuation.region_text(nodes, mask.copy(), drop, case) == fresh


@pytest.mark.parametrize("text", [
    "", "\n", "getty images", "\nphoto: getty images", "\n(photo by getty images)\nx",
    "a\n  fotos: dpa\ngetty images)  \n\nbild: getty images\n", "getty imagesgetty images",
    "\nabbildung 4: x getty images \n photograph \u00a9 y/getty images",
    "\ncr\u00e9dits photos : z"])
def test_credit_lines_searched_apart_are_the_alternations_matches(text):
    from extractors.boilerplate import _CREDIT_LINE, _credit_matches

    assert _match_spans(_credit_matches(text)) == _match_spans(_CREDIT_LINE.finditer(text))


def _match_spans(matches) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in matches]


def test_credit_lines_of_every_fixture_page_searched_apart_are_the_alternations_matches():
    """``_credit_matches`` (the label and the agency searched apart) finds, in the lower-cased
    text ``_related_blocks`` searches, the matches of the one alternation, on every fixture
    page."""
    from extractors.boilerplate import _CREDIT_LINE, _credit_matches

    found = 0
    for result in _extractions():
        text = "\n".join(result.page.nodes.seg_text).lower()
        plain = _match_spans(_CREDIT_LINE.finditer(text))
        assert _match_spans(_credit_matches(text)) == plain
        found += len(plain)
    assert found > 10


def test_text_authors_kept_per_page_are_those_read_afresh():
    """``bylines.text_authors`` keeps its answer per page and arguments: on every fixture page,
    for the argument sets the fields step uses, the kept answer is the fresh reading's, and a
    caller changing the list it got changes no later answer."""
    from extractors.bylines import read_text_authors, text_authors

    named = 0
    for result in _extractions():
        page, sites = result.page, (result.fields.site_name or "",)
        for lang in (None, "zh", "en"):
            for as_trained in (False, True):
                fresh = read_text_authors(page, sites, lang, as_trained, result.fields.title)
                first = text_authors(page, sites, lang, as_trained, result.fields.title)
                first.append("changed by a caller")
                assert text_authors(page, sites, lang, as_trained, result.fields.title) == fresh
                named += bool(fresh)
    assert named > 50


def test_a_kept_sibling_tree_matches_as_a_fresh_one():
    """The sibling's feature tree built once and kept (``page_feature_tree``, as the crawl's
    parsed-sibling cache keeps the sibling) gives every target of its site the denoising a
    fresh tree gives, on the cx_163 and cx_bbc fixture pages, each page against the others."""
    from extractors import parse_page
    from extractors.lcs_denoise import denoise, page_feature_tree

    compared = 0
    for site in ("cx_163", "cx_bbc"):
        pages = [parse_page(page_bytes(line)) for line in gold_lines()
                 if line["file"].split("/")[-1].startswith(site)]
        assert len(pages) >= 3
        for sibling in pages:
            for target in pages:
                if target is sibling:
                    continue
                fresh = denoise(target.nodes, sibling.nodes)
                kept = denoise(target.nodes, sibling.nodes,
                               sibling_tree=page_feature_tree(sibling))
                assert page_feature_tree(sibling) is page_feature_tree(sibling)
                assert (fresh.keep is None) == (kept.keep is None)
                if fresh.keep is not None:
                    assert np.array_equal(fresh.keep, kept.keep)
                assert (fresh.clusters, fresh.candidates, fresh.reason) == (
                    kept.clusters, kept.candidates, kept.reason)
                compared += fresh.keep is not None
    assert compared >= 10


_RELATED_TEXTS = ["", "also", "related\nalso\n", "x\n  Related articles:\nread more\nALSO",
                  "related: the other story\nalso: no label\nlea: otra\nmira\n",
                  "more stories from the desk\n\n\nsee also", "not related\nrelated"]


def test_related_headings_after_line_breaks_are_those_the_anchored_search_finds():
    """``_related_headings`` (a search for a line break, then the heading pattern) against
    ``_RELATED_HEADING.finditer`` (``^`` tried at every character), on the joined text of every
    fixture page and on made-up texts."""
    from extractors.boilerplate import _RELATED_HEADING, _label_kind, _related_headings

    texts = ["\n".join(r.page.nodes.seg_text).lower() for r in _extractions()] + _RELATED_TEXTS
    found = 0
    for text in texts:
        plain = [(m.start(), _label_kind(m)) for m in _RELATED_HEADING.finditer(text)
                 if _label_kind(m) >= 0]
        assert _related_headings(text) == plain
        found += len(plain)
    assert found > 20


def test_name_marks_kept_answers_are_fresh_ones():
    """``NameMarks.containing`` keeps its answer per words: asked twice, in any order, it gives
    what a fresh search gives, on every fixture page."""
    from extractors.bylines import _AUTHOR_MARKED, _DATE_MARKED, _DATE_SKIP_WORDS, _SKIP_WORDS
    from extractors.page import name_marks

    found = 0
    for result in _extractions():
        marks = name_marks(result.page)
        for words in (_DATE_MARKED, _SKIP_WORDS, _AUTHOR_MARKED, _DATE_SKIP_WORDS, ("source",)):
            fresh = marks._containing(words)
            assert marks.containing(words) == fresh == marks.containing(words)
            assert fresh == {k for k, text in enumerate(marks.lowered)
                             if any(w in text for w in words)}
            found += len(fresh)
    assert found > 100


def test_weighted_lengths_are_the_counted_ones():
    """``pagetype._weighted_length`` (kept per text, ASCII texts not searched) against the plain
    count, on every fixture page's body and whole text (Chinese pages among them)."""
    from extractors.pagetype import _CJK, _weighted_length

    cjk = 0
    for result in _extractions():
        for text in (result.body, "".join(result.page.nodes.seg_text)):
            assert _weighted_length(text) == len(text) + 2 * len(_CJK.findall(text))
            cjk += not text.isascii() and bool(_CJK.search(text))
    assert cjk >= 3


def test_headline_segments_kept_per_title_are_fresh_ones():
    """``bylines._headline_segment`` keeps its answer per page and title: on every fixture page,
    for no title, the chosen title and a title no heading has, the fresh walk's answer."""
    from extractors.bylines import _find_headline_segment, _headline_segment

    moved = 0
    for result in _extractions():
        for title in (None, result.fields.title, "no heading reads so"):
            fresh = _find_headline_segment(result.page, title)
            assert _headline_segment(result.page, title) == fresh
            assert _headline_segment(result.page, title) == fresh
            moved += fresh > 0
    assert moved > 50


def test_cjk_bylines_kept_per_page_are_fresh_ones():
    """``bylines.cjk_byline`` keeps its answer (and the body's opening text) per page: on every
    fixture page, with and without the headline, the fresh search's names; a caller changing the
    list it got changes no later answer. Some Chinese pages give names."""
    from extractors.bylines import _body_opening, cjk_byline, _find_cjk_byline

    named = 0
    for result in _extractions():
        page, sites = result.page, (result.fields.site_name or "",)
        assert _body_opening(page) == page.body.text_content()[:len(_body_opening(page))]
        for headline in (True, False):
            fresh = _find_cjk_byline(page, sites, result.fields.title, headline)
            first = cjk_byline(page, sites, result.fields.title, headline)
            first.append("changed by a caller")
            assert cjk_byline(page, sites, result.fields.title, headline) == fresh
            named += bool(fresh)
    assert named >= 2


@pytest.mark.parametrize("anchor", ["", "12", "Next", "NEXT PAGE", "next  page", "Weiter",
                                    "\u017fuivant", "Suivant", "n\u00e4chste", "N\u00c4CHSTE",
                                    "\u00bb", ">>", "下一页", "more\n", "more\n\n", "\nmore", "Older Posts",
                                    "x"])
def test_pager_anchors_read_as_the_pattern_reads_them(anchor):
    """``_pager_anchor`` (ASCII anchors looked up lower-cased) against ``_PAGER_TEXT``'s own
    case-insensitive match, made-up anchors (a long s, which only the pattern folds to "s")."""
    from extractors.pagetype import _PAGER_TEXT, _pager_anchor

    assert _pager_anchor(anchor) == (bool(anchor) and (
        anchor.isdigit() or _PAGER_TEXT.match(anchor) is not None))


def test_pager_anchors_of_every_fixture_page_read_as_the_pattern_reads_them():
    from extractors.pagetype import _PAGER_TEXT, _pager_anchor

    pagers = 0
    for result in _extractions():
        nodes = result.page.nodes
        for row, tag in enumerate(nodes.tag):
            if tag == "a" and 0 < nodes.text[row] <= 14:
                anchor = nodes.inner_text(row).strip()
                plain = bool(anchor) and (anchor.isdigit() or _PAGER_TEXT.match(anchor) is not None)
                assert _pager_anchor(anchor) == plain
                pagers += plain
    assert pagers > 50


def test_names_read_with_their_slug_ids_as_row_by_row():
    """``NameWords.of`` (rows with an id found in C; the names built without the slug test when
    no id is a heading's slug) against the row-by-row reading, on every fixture page."""
    from extractors.boilerplate import (_HEADING_TAGS, _SLUG_WORD, MIN_SLUG_WORDS, NameWords,
                                        _heading_slug_ids)

    slugged = 0
    for result in _extractions():
        nodes = result.page.nodes
        plain: set[int] = set()
        for row, ident in enumerate(nodes.ident):
            if not ident or ident.count("-") + ident.count("_") < MIN_SLUG_WORDS - 1:
                continue
            head = row if nodes.tag[row] in _HEADING_TAGS else next(
                (r for r in range(row + 1, min(int(nodes.end[row]), row + 3) + 1)
                 if nodes.tag[r] in _HEADING_TAGS), None)
            if head is None:
                continue
            words = _SLUG_WORD.findall(ident.lower())
            heading = _SLUG_WORD.findall(nodes.elements[head].text_content().lower())
            if len(words) >= MIN_SLUG_WORDS and heading[:len(words)] == words:
                plain.add(row)
        assert _heading_slug_ids(nodes) == plain
        names = NameWords.of(nodes).names
        expected = [("" if row in plain else i) + " " + c if (i or c) else ""
                    for row, (i, c) in enumerate(zip(nodes.ident, nodes.classes))]
        custom = {row for row, tag in enumerate(nodes.tag) if "-" in tag}
        assert [n for row, n in enumerate(names) if row not in custom] == \
            [n for row, n in enumerate(expected) if row not in custom]
        slugged += bool(plain)
    assert slugged >= 1


@pytest.mark.parametrize("text", ["文：张三", "中文：李四", " 文/王五", "作者：赵六", "x文:abc",
                                  "文文：孙七", "本文：周八", "撰文：吴九 编辑：郑十"])
def test_the_cjk_label_test_after_its_character_finds_what_the_lookbehind_found(text):
    """``_CJK_LABELLED`` ("文" tested after it) against the pattern with the lookbehind before
    "文" it was written with, on made-up lines."""
    from extractors.bylines import _CJK_LABELLED

    plain = re.compile(_CJK_LABELLED.pattern.replace(r"文(?<![\u4e00-\u9fff]文)",
                                                     r"(?<![\u4e00-\u9fff])文"))
    assert plain.pattern != _CJK_LABELLED.pattern
    found = [(m.span(), m.groups()) for m in _CJK_LABELLED.finditer(text)]
    assert found == [(m.span(), m.groups()) for m in plain.finditer(text)]


def test_the_cjk_label_test_on_every_fixture_page():
    from extractors.bylines import _CJK_LABELLED

    plain = re.compile(_CJK_LABELLED.pattern.replace(r"文(?<![\u4e00-\u9fff]文)",
                                                     r"(?<![\u4e00-\u9fff])文"))
    matches = 0
    for result in _extractions():
        for text in (result.page.body.text_content(), "\n".join(result.page.nodes.seg_text)):
            found = [(m.span(), m.groups()) for m in _CJK_LABELLED.finditer(text)]
            assert found == [(m.span(), m.groups()) for m in plain.finditer(text)]
            matches += len(found)
    assert matches >= 2  # the Chinese fixture pages' labelled bylines


def _plain_name_words(value: str) -> str:
    """``name_words`` as it was written before its split went through ``str.translate``: the
    capital tested after the letter before it, the runs of other characters found by a regex."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", value).lower().replace("\0", " \0 ")
    return " " + re.sub(r"[^a-z0-9\0]+", " ", spaced) + " "


def test_name_words_split_in_c_as_the_run_pattern_split_them():
    """``name_words`` (ASCII names split by ``str.translate`` and one pass over the space runs)
    against the run pattern it replaced, on every row's names and every page's joined names of
    every fixture page."""
    from extractors.boilerplate import _TO_SPACES, name_words

    assert "x-y".translate(_TO_SPACES) == "x y"
    checked = 0
    for result in _extractions():
        nodes = result.page.nodes
        names = [f"{c} {i}" for c, i in zip(nodes.classes, nodes.ident) if c or i]
        for value in [*names, "\0".join(names)]:
            assert name_words(value) == _plain_name_words(value)
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("value", ["", " ", "\0", "a\0\0b", "--nav__Item--", "relatedArticles2Go",
                                   "x  \t\n y", "Größe teaser", "\u212aelvin-box", "İstanbul nav",
                                   "中文 nav_bar", "a\u00a0b", "AB cD eF9G", "\x1cfoo\x1fbar"])
def test_name_words_of_made_up_names_split_as_the_run_pattern_split_them(value):
    from extractors.boilerplate import name_words

    assert name_words(value) == _plain_name_words(value)


def test_the_language_model_compacted_ranks_as_the_library_loaded_it():
    """py3langid's row offsets and outputs as arrays (``language._compact_tables``): every
    language's score on every fixture page's text sample is the one a fresh identifier with the
    library's own lists gives."""
    import array

    from py3langid import langid

    from extractors.language import TEXT_SAMPLE_CHARS, _classify

    _classify("A first sentence loads the model and compacts its tables for the chain.")
    compact = langid.IDENTIFIER
    assert isinstance(compact._rowbase, array.array) and isinstance(compact.tk_output, array.array)
    plain = langid._load_identifier()
    assert isinstance(plain._rowbase, list)
    samples = [result.body[:TEXT_SAMPLE_CHARS] for result in _extractions() if result.body]
    for sample in samples:
        assert compact.rank(sample) == plain.rank(sample)
    assert len({compact.classify(s)[0] for s in samples}) >= 3  # English, German, Chinese...


def _word_search(words) -> re.Pattern:
    """The whole-word search the screen-reader lists were matched with before their set lookup."""
    return re.compile(r"(?:^|\s)(?:%s)(?=\s|$)" % "|".join(map(re.escape, words)))


_UNSEEN_NAMES = ["sr-only", "x SR-ONLY", "sr-only-focusable", "a\u00a0visually-hidden", "hidden\n",
                 "x\x1chidden", "not-hidden", "\u2028element-invisible\u2029", "hiddenx", ""]


def test_screen_reader_names_found_by_word_as_the_word_search_finds_them():
    """``screen_reader_rows``' set lookup of each name's words against the regex search of its
    lists, on every distinct name of every fixture page and on made-up names."""
    from extractors.boilerplate import (
        _HIDDEN_CLASS,
        HIDDEN_SKIP_LINKS,
        SCREEN_READER_CLASSES,
        _SCREEN_READER,
    )

    assert isinstance(_SCREEN_READER, frozenset)
    found = 0
    names = [n for result in _extractions() for n in page_markup(result.page).names.unique]
    for words, listed in ((SCREEN_READER_CLASSES, _SCREEN_READER),
                          (HIDDEN_SKIP_LINKS, _HIDDEN_CLASS)):
        search = _word_search(words)
        for name in [*names, *_UNSEEN_NAMES]:
            plain = search.search(name.lower()) is not None
            assert (not listed.isdisjoint(name.lower().split())) == plain, name
            found += plain
    assert found >= 10


def _first_letters(items) -> tuple[set[str], bool]:
    """(the characters a match of the parsed regex ``items`` can start with, whether it can
    match empty), for the node kinds the related-heading labels and ``_UI_LINE`` are written
    with."""
    from re import _constants as c

    letters: set[str] = set()
    for op, arg in items:
        if op is c.LITERAL:
            return letters | {chr(arg)}, False
        if op is c.IN and all(kind in (c.LITERAL, c.RANGE) or (kind, value) == (
                c.CATEGORY, c.CATEGORY_DIGIT) for kind, value in arg):
            for kind, value in arg:  # ``\d`` as the marker "\\d"
                letters |= {chr(value)} if kind is c.LITERAL else {"\\d"} if kind is \
                    c.CATEGORY else set(map(chr, range(value[0], value[1] + 1)))
            return letters, False
        if op is c.BRANCH:
            nullable = False
            for branch in arg[1]:
                found, empty = _first_letters(branch)
                letters |= found
                nullable |= empty
            if not nullable:
                return letters, False
        elif op is c.SUBPATTERN:
            found, empty = _first_letters(arg[3])
            letters |= found
            if not empty:
                return letters, False
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            found, empty = _first_letters(arg[2])
            letters |= found
            if arg[0] > 0 and not empty:
                return letters, False
        elif op not in (c.AT, c.ASSERT, c.ASSERT_NOT):
            raise AssertionError(f"no rule for {op}")
    return letters, True


def test_related_labels_start_with_the_letters_the_break_search_skips_to():
    """``RELATED_FIRST_LETTERS`` is every first letter of ``_RELATED_HEADING``'s labels (read
    from the parsed pattern), and the break search with its lookahead finds what the plain
    break search finds on every fixture page's lower-cased text."""
    from re import _parser

    from extractors.boilerplate import (
        _RELATED_AFTER_BREAK,
        _RELATED_HEADING,
        RELATED_FIRST_LETTERS,
    )

    parsed = list(_parser.parse(_RELATED_HEADING.pattern, _RELATED_HEADING.flags))
    assert parsed[0][0] is re._constants.AT  # "^" then the white space before the label
    letters, empty = _first_letters(parsed[2:])
    assert not empty and letters == set(RELATED_FIRST_LETTERS)
    plain = re.compile("\n" + _RELATED_HEADING.pattern.removeprefix("^"), _RELATED_HEADING.flags)
    found = 0
    for result in _extractions():
        text = "\n".join(result.page.nodes.seg_text).lower()
        fast = [(m.start(), m.groups()) for m in _RELATED_AFTER_BREAK.finditer(text)]
        assert fast == [(m.start(), m.groups()) for m in plain.finditer(text)]
        found += len(fast)
    assert found >= 10


def _plain_kept_line(line: str) -> bool:
    """The body-line test as first written (one copy of the line per condition)."""
    from extractors import _UI_LINE, _ZERO_WIDTH, UI_LABELS

    return bool(line.translate(_ZERO_WIDTH).strip()) and line.strip().lower() not in UI_LABELS \
        and not _UI_LINE.fullmatch(" ".join(line.split()).lower())


def test_ui_line_first_characters_are_those_the_pattern_can_start_with():
    """``_UI_LINE_FIRST`` and ``\\d`` are every character a ``_UI_LINE`` match can start with
    (read from the parsed pattern): a line starting otherwise cannot match."""
    from re import _parser

    from extractors import _UI_LINE, _UI_LINE_FIRST

    chars, empty = _first_letters(list(_parser.parse(_UI_LINE.pattern, _UI_LINE.flags)))
    assert not empty and chars == set(_UI_LINE_FIRST) | {"\\d"}


@pytest.mark.parametrize("line", [
    "", " ", "\u200b", " \u200d\ufeff ", "\u200bx", "Advertisement", "  READ MORE ", "Loading...",
    "12 posts", "Posts: 1,234", "  3   Replies", "Joined: Mar 4, 2011", "1.2k 3 gold badges",
    "POSTS", "٣ replies", "posts are great", "Plain text.", "İstanbul", "Ｐosts",
    "\tjoined mar 4, 2011", "x" * 300, "advertisement" + " " * 50])
def test_body_lines_kept_as_the_plain_tests_keep_them(line):
    from extractors import _kept_line

    assert _kept_line(line) == _plain_kept_line(line)


def test_body_lines_of_every_fixture_page_kept_as_the_plain_tests_keep_them():
    from extractors import _kept_line

    dropped = 0
    for result in _extractions():
        for text in ("\n".join(result.page.nodes.seg_text), result.body):
            for line in text.split("\n"):
                assert _kept_line(line) == _plain_kept_line(line), line
                dropped += not _kept_line(line)
    assert dropped >= 10


@pytest.mark.slow
def test_the_parser_reads_a_utf8_page_as_its_own_bytes_or_as_its_text_encoded():
    """``_same_utf8`` gives the page's bytes only where they are what encoding its decoded text
    gives, and the tree parsed from them (without libxml2's id table) is the tree parsed before."""
    from lxml import etree, html

    from extractors.decoding import decode_html
    from extractors.page import _ELEMENT_CLASSES, _parse, _parser, _same_utf8

    passed = 0
    for line in gold_lines():
        data = page_bytes(line)
        try:
            decoded = decode_html(data)
        except BadInput:
            continue
        own = _same_utf8(data, decoded)
        if own is None:
            continue
        passed += 1
        encoded = decoded.text.encode("utf-8", "replace")
        assert own == encoded
        parser = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                                  remove_blank_text=False, huge_tree=True)  # with the id table
        parser.set_element_class_lookup(_ELEMENT_CLASSES)
        before = html.document_fromstring(encoded, parser=parser)
        assert etree.tostring(html.document_fromstring(own, parser=_parser())) == \
            etree.tostring(before)
        assert etree.tostring(_parse(decoded.text, utf8=own)[0]) == \
            etree.tostring(_parse(decoded.text)[0])
    assert passed >= 50
    # a byte-order mark, a stray byte in UTF-8, a literal U+FFFD, another charset: encoded anew
    for data in (b"\xef\xbb\xbf<p>x</p>", b"<p>" + b"a" * 200 + b"\xff</p>",
                 ("<p>" + "a" * 200 + "\ufffd</p>").encode(),
                 '<meta charset="gbk"><p>中文</p>'.encode("gbk")):
        assert _same_utf8(data, decode_html(data)) is None
    assert _same_utf8(b"<p>x</p>", decode_html(b"<p>x</p>")) == b"<p>x</p>"


@pytest.mark.slow
def test_the_whole_page_reading_is_walked_once_and_is_a_fresh_reading(monkeypatch):
    """A page whose body came out short reads the whole page's main text for its short-body
    rule and for its page type: one walk, kept, the same as a fresh one."""
    import extractors
    from extractors import parse_page

    calls = []
    plain = extractors.extract_main_text

    def counted(page, *args, **kwargs):
        if not args and not kwargs:
            calls.append(page)
        return plain(page, *args, **kwargs)

    monkeypatch.setattr(extractors, "extract_main_text", counted)
    shared = 0
    for line in gold_lines():
        try:
            page = parse_page(page_bytes(line), url=line.get("url"))
        except BadInput:
            continue
        calls.clear()
        extract(page)
        assert len(calls) <= 1
        kept = page.memo.get("whole_page_text")
        if kept is None:
            continue
        fresh = plain(page)
        assert (kept.text, kept.region, kept.reason) == (fresh.text, fresh.region, fresh.reason)
        assert (kept.keep is None) == (fresh.keep is None)
        assert kept.keep is None or np.array_equal(kept.keep, fresh.keep)
        shared += 1
    assert shared >= 50


_MADE_UP_NAMES = ["post", "posts", "xpost", "post-1", "reply", "repliesx", "a votes b",
                  "topic_list", "comment-form", "comments", "ſpost", "post\nbody", "message-12",
                  "thread", "déposts", "answer", "answers", "answered", "vote1", ""]
_MADE_UP_PRICES = ["$12", "$ 12.50", "€9,99", "12,50 EUR", "12.50 usd", "1.5 usd", "12.50 uſd",
                   "¥ 3", "3.00$", "٣.٥٠ $", "price 10", "no digits", "£", "1,000,000.00 GBP"]


def _spans(pattern: re.Pattern, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


def test_post_and_price_patterns_match_as_the_plain_ones_do():
    """``_POST`` (each word's ``\\b`` as a lookbehind after it) and ``_PRICE`` (one leading
    class) find the same matches as the patterns as written, in every fixture page's
    lower-cased class/id names and short text segments and in made-up ones."""
    from extractors.page import name_marks
    from extractors.pagetype import _POST, _POST_PLAIN, _PRICE, _PRICE_PLAIN

    posts = prices = 0
    for result in _extractions():
        names = "\x00".join(name_marks(result.page).lowered)
        short = "\x00".join(t for t in result.page.nodes.seg_text if len(t) < 40)
        assert _spans(_POST, names) == _spans(_POST_PLAIN, names)
        assert _spans(_PRICE, short) == _spans(_PRICE_PLAIN, short)
        posts += len(_spans(_POST, names))
        prices += len(_spans(_PRICE, short))
    assert posts > 100 and prices > 20
    for text in _MADE_UP_NAMES + _MADE_UP_PRICES:
        assert _spans(_POST, text) == _spans(_POST_PLAIN, text)
        assert _spans(_PRICE, text) == _spans(_PRICE_PLAIN, text)


def test_user_hrefs_searched_lowered_are_those_the_case_insensitive_search_finds():
    from extractors.page import link_hrefs
    from extractors.pagetype import _USER, _USER_LOWER

    found = 0
    for result in _extractions():
        joined = _Joined(link_hrefs(result.page)[1])
        assert joined.matching(_USER, _USER_LOWER) == joined.matching(_USER)
        found += len(joined.matching(_USER))
    assert found > 20
    for hrefs in (["/USER/1", "/a/Profile/x", "/u/"], ["/members/é", "/People/ſ", "/uſer/x/"],
                  ["/user\n/x", "/K/", "/Members/"]):
        assert _Joined(hrefs).matching(_USER, _USER_LOWER) == _Joined(hrefs).matching(_USER)


@pytest.mark.slow
@pytest.mark.parametrize("cap", [None, 40])
def test_link_rels_read_by_the_markup_pass_give_the_metadata_a_walk_gives(monkeypatch, cap):
    """The links' ``rel`` kept by the markup pass are each link's own ``get("rel")``, and the
    metadata read with them (links without a ``rel`` not visited) is the metadata read by the
    plain walk of the body's elements (no markup pass), with and without the element cap
    binding."""
    from extractors import metadata, parse_page

    if cap is not None:
        monkeypatch.setattr(metadata, "MAX_ELEMENTS", cap)
    rels = authors = 0
    for line in gold_lines():
        try:
            page, plain_page = (parse_page(page_bytes(line), url=line.get("url")) for _ in "ab")
        except BadInput:
            continue
        nodes = page.nodes
        kept = page_markup(page).link_rels
        assert kept == {row: el.get("rel") for row, (el, tag) in enumerate(zip(nodes.elements,
                                                                                nodes.tag))
                        if tag == "a" and el.get("rel") is not None}
        read = metadata.read_metadata(page)
        assert "markup" not in plain_page.memo
        assert read == metadata.read_metadata(plain_page)
        rels += len(kept)
        authors += len(read.rel_authors)
    assert rels > 100 and authors > 5


def test_link_hrefs_read_in_the_walk_are_each_links_own():
    """The node table's links (rows and ``href``, read in its walk) are the ``<a>`` rows of the
    table with each element's ``get("href")``, on every fixture page and on its masked copy."""
    from extractors.page import link_hrefs

    links = 0
    for result in _extractions():
        page = result.page
        nodes = page.nodes
        rows = [row for row, tag in enumerate(nodes.tag) if tag == "a"]
        plain = (rows, [nodes.elements[row].get("href") or "" for row in rows])
        assert link_hrefs(page) == plain
        masked = nodes.masked(np.zeros(len(nodes), dtype=bool))
        assert (masked.link_rows, masked.link_href) == plain
        links += len(rows)
    assert links > 1000


def test_node_table_sums_are_the_plain_subtree_counts():
    """The node table's subtree sums (``_subtree_sum``, its links and paragraph codes read in
    one pass over the tags) and the furniture step's ``_subtree_any`` against sums over each
    row's subtree taken one row at a time, on every fixture page."""
    from extractors.boilerplate import _subtree_any

    tables = 0
    for result in _extractions():
        nodes = result.page.nodes
        n = len(nodes)
        if n == 0:
            continue
        tables += 1
        is_a = np.array([tag == "a" for tag in nodes.tag])
        is_p = np.array([tag == "p" for tag in nodes.tag])
        links = [int(is_a[row:nodes.end[row] + 1].sum()) for row in range(n)]
        text = [int(nodes.own_text[row:nodes.end[row] + 1].sum()) for row in range(n)]
        link_text = [int(nodes.own_link_text[row:nodes.end[row] + 1].sum()) for row in range(n)]
        with_p = [bool(is_p[row:nodes.end[row] + 1].any()) for row in range(n)]
        assert nodes.links.tolist() == links and nodes.text.tolist() == text
        assert nodes.link_text.tolist() == link_text
        assert _subtree_any(is_p, nodes.end).tolist() == with_p
        assert nodes.text.dtype == np.int64 and nodes.links.dtype == np.int32
    assert tables >= 80


def test_nonlink_text_kept_is_the_subtraction_and_read_only():
    """``NodeTable.nonlink_text``, kept once read, is ``text - link_text`` of its own table (a
    masked copy's its own), on every fixture page, and cannot be written to (a step writing
    into it would change every later step's reading)."""
    tables = 0
    for result in _extractions():
        nodes = result.page.nodes
        if len(nodes) == 0:
            continue
        tables += 1
        first = nodes.nonlink_text
        assert first is nodes.nonlink_text
        assert np.array_equal(first, nodes.text - nodes.link_text)
        with pytest.raises(ValueError):
            first[0] = -1
        half = np.arange(len(nodes)) % 2 == 0
        masked = nodes.masked(half)
        assert np.array_equal(masked.nonlink_text, masked.text - masked.link_text)
        assert np.array_equal(nodes.nonlink_text, nodes.text - nodes.link_text)
    assert tables >= 80


def _new_year_plain(markup: str, year: int) -> bool:
    """``bylines._writes_new_year``'s search as it was written: the one pattern, ``re.I``."""
    from extractors.bylines import _NEW_YEAR

    return re.search(_NEW_YEAR.format(y=year), markup, re.IGNORECASE) is not None


def _new_year_parts(markup: str, year: int) -> bool:
    from extractors.bylines import _new_year_in

    return _new_year_in(markup, year)


@pytest.mark.parametrize("text", [
    "2016-01-01", "x2016-1-01", "2016-01-011", "1.1.2016", "01. 01.2016", "101.01.2016",
    "a01/01/2016", "9/01/2016", "2016年1月01日", "Jan 1 2016", "JANUARY 01st, 2016", "jan. 1ſt 2016",
    "January 1ST,\n2016", "xjan 1 2016", "_Jan 1 2016", "éjan 1 2016", "1st of January, 2016",
    "01 OF jan. 2016", "1ſT Jan 2016", "11 Jan 2016", "01st. janvier,  2016", "Jan 1 2017",
    "1 Jan", "2016", ""])
def test_the_new_year_searches_answer_as_the_one_pattern(text):
    """``_NEW_YEAR_PARTS`` (three searches, each skipped to its first character in C) against
    the one ``re.I`` pattern they replace, on made-up dates written every way it reads."""
    for year in (2016, 2017):
        assert _new_year_parts(text, year) == _new_year_plain(text, year)


@pytest.mark.slow  # the one pattern takes ~2 s a year over the fixture pages' markup
def test_the_new_year_searches_on_every_fixture_page():
    """The same on every fixture page's markup, for two years that some of them write as 1
    January (2017 and 2024: two pages each) and one that none does."""
    from lxml import etree

    written = 0
    for result in _extractions():
        markup = etree.tostring(result.page.root, encoding="unicode", method="html")
        for year in (2017, 2018, 2024):
            found = _new_year_parts(markup, year)
            assert found == _new_year_plain(markup, year)
            written += found
    assert written >= 2


def test_heading_rows_are_the_headings_the_tree_walk_finds():
    """The node table's heading rows (``page.heading_rows``) name, tag by tag, the very elements
    ``page.body.iter(tag)`` yields, in its order, on every fixture page: the title step reads
    its ``<h1>`` and ``<h2>`` elements from them (``title._heading_elements``)."""
    from extractors.page import HEADING_TAGS, heading_rows
    from extractors.title import _heading_elements

    headings = 0
    for result in _extractions():
        page = result.page
        rows = heading_rows(page)
        assert rows == sorted(rows)
        for tag in sorted(HEADING_TAGS):
            walked = list(page.body.iter(tag))
            assert [page.nodes.elements[r] for r in rows if page.nodes.tag[r] == tag] == walked
            assert _heading_elements(page, tag) == walked
            headings += len(walked)
    assert headings > 500


def _plain_headline_segment(page, title, tags=None) -> int:
    """``bylines._find_headline_segment`` as it was: a test of every row of the table."""
    from extractors.bylines import _headline_among

    return _headline_among(page, title, tags, range(len(page.nodes.tag)))


def test_headline_segments_over_the_heading_rows_are_those_of_every_row():
    """The headline searched among the heading rows is the one the test of every row found, on
    every fixture page, for no title, the chosen title, each ``<h2>``'s and ``<h3>``'s text
    (which only those rows can read as) and a title no heading has, with the dateline's
    ``<h1>``-only headings too."""
    from extractors.bylines import DATELINE_HEADINGS, _find_headline_segment

    found = 0
    for result in _extractions():
        page, nodes = result.page, result.page.nodes
        titles = [None, result.fields.title, "no heading reads so"]
        titles += [nodes.inner_text(r) for r, t in enumerate(nodes.tag) if t in ("h2", "h3")][:3]
        for title in titles:
            for tags in (None, DATELINE_HEADINGS):
                plain = _plain_headline_segment(page, title, tags)
                assert _find_headline_segment(page, title, tags) == plain
                found += plain > 0
    assert found > 200


def test_titles_read_from_the_heading_rows_are_those_of_the_tree_walks(monkeypatch):
    """Every fixture page's title (and the title step's headings) read with the headings taken
    from the node table is what the tree walks (``body.iter``) gave."""
    from extractors import title as title_step
    from extractors.metadata import read_metadata

    read = []
    for result in _extractions():
        meta = read_metadata(result.page)
        read.append((title_step.choose_title(result.page, meta),
                     title_step._heading_rows(result.page, set(), links=True)))
    monkeypatch.setattr(title_step, "_heading_elements", lambda page, tag: page.body.iter(tag))
    for result, (chosen, headings) in zip(_extractions(), read, strict=True):
        meta = read_metadata(result.page)
        assert title_step.choose_title(result.page, meta) == chosen
        assert title_step._heading_rows(result.page, set(), links=True) == headings
    assert sum(bool(h) for _, h in read) > 50


@pytest.mark.parametrize("order", ["document", "reversed"])
def test_markup_rows_looked_up_in_order_are_each_elements_row(monkeypatch, order):
    """The markup pass finds each attribute's row by a scan from the last one's row: on every
    fixture page the facts it keeps are those of a lookup in a dict of every element, with the
    attributes in document order (the scan) and reversed (every lookup after the first falls
    back to the dict)."""
    from extractors import boilerplate

    search = boilerplate._ATTRIBUTES
    if order == "reversed":
        monkeypatch.setattr(boilerplate, "_ATTRIBUTES", lambda el: list(reversed(search(el))))
    attributes = 0
    for result in _extractions():
        nodes = result.page.nodes
        markup = boilerplate.read_markup(nodes)
        index = {el: row for row, el in enumerate(nodes.elements)}
        found = boilerplate._ATTRIBUTES(nodes.elements[0])
        rows = [(index[value.getparent()], value.attrname, str(value)) for value in found]
        assert list(markup.itemprops) == [(r, v) for r, name, v in rows if name == "itemprop"]
        assert list(markup.itemtypes) == [v for _, name, v in rows if name == "itemtype"]
        assert markup.link_rels == {r: v for r, name, v in rows if name == "rel"}
        article_body = np.zeros(len(nodes), dtype=bool)
        article_body[[r for r, name, v in rows if name == "itemprop" and v == "articleBody"]] = True
        assert (markup.article_body == article_body).all()
        hidden = np.zeros(len(nodes), dtype=bool)
        hidden[[r for r, name, v in rows if name == "hidden"
                or (name == "style" and boilerplate._HIDDEN_STYLE.search(v))]] = True
        assert (markup.hidden == hidden).all()
        assert (markup.weak_attribute >= hidden).all()
        attributes += len(rows)
    assert attributes > 2000


def test_the_heuristic_counts_headline_links_from_the_tables_link_rows():
    """``heuristic_type`` reads the links from the node table's link rows: on every fixture page,
    for the whole page's text and an empty one, the answer the pass over every row's tag gave."""
    from extractors.pagetype import (
        MIN_ARTICLE_CHARS,
        MIN_BODY_CHARS_PER_HEADLINE_LINK,
        MIN_HEADLINE_LINK_CHARS,
        MIN_LIST_LINKS,
        _weighted_length,
    )

    def plain(page, text):
        nodes = page.nodes
        is_link = np.array([tag == "a" for tag in nodes.tag], dtype=bool)
        links = int(np.count_nonzero(nodes.text[is_link] >= MIN_HEADLINE_LINK_CHARS))
        length = _weighted_length(text)
        if length >= MIN_ARTICLE_CHARS and length >= MIN_BODY_CHARS_PER_HEADLINE_LINK * links:
            return "article"
        return "list" if links >= MIN_LIST_LINKS else "other"

    answers = set()
    for result in _extractions():
        main = extract_main_text(result.page)
        for text in (main.text, ""):
            plain_answer = plain(result.page, text)
            assert heuristic_type(result.page, type(main)(text, None)) == plain_answer
            answers.add(plain_answer)
    assert answers == {"article", "list", "other"}


def test_the_two_name_structures_share_one_reading_of_the_rows():
    """``page.row_names`` (the named rows and their ``"id class"``, found in C) is what both
    ``NameWords`` and ``name_marks`` read, and each gives what its own pass gave, on every
    fixture page: the rows and texts of the old row-by-row test; ``name_marks`` (the id now
    first) finds, for every word list the byline and dateline readers ask for, the rows the old
    ``"class id"`` texts held the words in, and the page-type patterns count the same rows."""
    from collections import Counter

    from extractors.bylines import (_AUTHOR_MARKED, _DATE_MARKED, _DATE_SKIP_WORDS,
                                    _META_MARKED, _NOT_SOURCE, _PERSON_MARKED,
                                    _POST_AUTHOR_COMMENT, _SKIP_WORDS)
    from extractors.page import name_marks, row_names
    from extractors.pagetype import _CART, _COMMENT, _POST

    asked = [_DATE_MARKED, _SKIP_WORDS, _AUTHOR_MARKED, _DATE_SKIP_WORDS, _PERSON_MARKED,
             _META_MARKED, (_POST_AUTHOR_COMMENT,), *((longer,) for _, longer in _NOT_SOURCE)]
    assert not any(" " in word for words in asked for word in words)
    found = counted = 0
    for result in _extractions():
        page, nodes = result.page, result.page.nodes
        rows = [row for row, (c, i) in enumerate(zip(nodes.classes, nodes.ident)) if c or i]
        shared = row_names(nodes)
        assert shared.rows == rows
        assert shared.texts == [f"{nodes.ident[row]} {nodes.classes[row]}" for row in rows]
        marks = name_marks(page)
        assert marks.rows is page_markup(page).names.row_names.rows  # one reading, not two
        old = [f"{nodes.classes[row]} {nodes.ident[row]}".lower() for row in rows]
        for words in asked:
            assert marks.containing(words) == {k for k, text in enumerate(old)
                                               if any(w in text for w in words)}
            found += len(marks.containing(words))
        counts = Counter(marks.lowered)
        distinct, rows_of = _Joined(list(counts)), list(counts.values())
        for pattern in (_COMMENT, _POST, _CART):
            assert sum(rows_of[k] for k in distinct.matching(pattern)) == \
                sum(1 for text in old if pattern.search(text))
            counted += sum(1 for text in old if pattern.search(text))
    assert found > 100 and counted > 100


@pytest.mark.parametrize("text", ["", " ", "  ", "a", " a", "a ", "  a  b   c  ", "\0", " \0 ",
                                  "ab  \0  cd", "x y z"])
def test_one_space_makes_the_runs_one_as_the_run_pattern_did(text):
    from extractors.boilerplate import _SPACE_RUNS, _one_space

    assert _one_space(text) == _SPACE_RUNS.sub(" ", text)


def test_bylines_after_the_headline_kept_per_page_are_fresh_ones():
    """``bylines._byline_after_headline`` keeps its answer per page and arguments (the text-author
    reader, ``plain_byline`` and ``person_over_outlet`` ask it the same question): on every
    fixture page, labelled or not, under the chosen title or the first ``<h1>``, the kept answer
    is the fresh reading's, and a caller changing the list it got changes no later answer."""
    from extractors.bylines import _byline_after_headline, _read_byline_after_headline

    named = 0
    for result in _extractions():
        page, sites = result.page, (result.fields.site_name or "",)
        for labelled in (False, True):
            for title in (None, result.fields.title):
                fresh = _read_byline_after_headline(page, sites, labelled, title)
                first = _byline_after_headline(page, sites, labelled=labelled, title=title)
                first.append("changed by a caller")
                assert _byline_after_headline(page, sites, labelled=labelled, title=title) == fresh
                named += bool(fresh)
    assert named > 20


def _fuller_byline_reading_the_byline_first(names, page, sites, title):
    """``fields._fuller_byline`` as it was: the byline read first, then the declared names."""
    from extractors import bylines
    from extractors.fields import _byline_for_names

    return _byline_for_names(bylines.plain_byline(page, sites, title), names, page, sites)


def test_a_declared_name_with_a_space_is_answered_without_the_byline(monkeypatch):
    """``fields._fuller_byline`` answers [] for declared names of which one holds a space
    without reading the byline (it cannot make them a login); on every fixture page, for
    declared names built from the page's own byline (a login, a first name, full names, and
    mixes), its answer is the one of the byline read first."""
    from extractors import bylines
    from extractors.fields import _fuller_byline

    asked = 0
    for result in _extractions():
        page, sites, title = result.page, (result.fields.site_name or "",), result.fields.title
        shown = bylines.plain_byline(page, sites, title) or ["Jane Doe"]
        first = shown[0].split()[0]
        for names in ([first], [first.lower() + ".x"], ["jdoe"], shown, [first, shown[0]],
                      ["Jane Doe"], ["AFP", "Jane Doe"], [" Jane  Doe "]):
            assert _fuller_byline(list(names), page, sites, title) == \
                _fuller_byline_reading_the_byline_first(list(names), page, sites, title)
            asked += 1
    assert asked > 500

    def no_byline(*_args):
        raise AssertionError("the byline was read")

    monkeypatch.setattr(bylines, "plain_byline", no_byline)
    page = _extractions()[0].page
    assert _fuller_byline(["Jane Doe"], page, (), None) == []
    assert _fuller_byline(["jdoe", "Jane Doe"], page, (), None) == []


class _Uncounted(list):
    """A node table's tag list whose tags may not be counted."""

    def count(self, value):
        raise AssertionError(f"the tags were counted ({value!r})")


def test_body_metadata_of_a_page_under_the_cap_is_read_without_counting_its_tags():
    """``metadata._read_body`` counts the body's metadata tags only where the page has more rows
    (and ``itemprop`` rows) than ``MAX_ELEMENTS``: on every fixture page under the cap it reads,
    without counting them, what the plain walk of the body's elements reads; on the pages over
    it, counting them, the same."""
    from types import SimpleNamespace

    from extractors import metadata

    read = under = 0
    for result in _extractions():
        page = result.page
        nodes, markup = page.nodes, page_markup(page)
        found, plain = metadata.Metadata(), metadata.Metadata()
        fits = len(markup.itemprops) + len(nodes.tag) <= metadata.MAX_ELEMENTS
        tags = _Uncounted(nodes.tag) if fits else list(nodes.tag)
        under += fits
        metadata._read_body(SimpleNamespace(nodes=SimpleNamespace(elements=nodes.elements,
                                                                  tag=tags)), markup, found)
        for element in metadata._body_elements(page):
            metadata._read_element(element, plain)
        assert found == plain
        read += len(found.times) + len(found.rel_authors) + len(found.microdata)
    assert read > 50 and under > 80


def test_a_day_is_looked_for_near_its_year_as_over_the_whole_text():
    """``bylines.shows_day`` runs its forms only around the places the year is written; over the
    whole text (as it first did) the same forms give the same answer, for the day htmldate reads
    and the gold's day, on every fixture page."""
    from datetime import date

    from extractors import bylines, parse_page

    def over_the_whole_text(page, day) -> bool:
        text = "\n".join(page.nodes.seg_text)
        *plain, named = bylines.day_patterns(day)
        return any(form.search(text) for form in plain) or any(
            (found := bylines.parse_date(match.group(), None, ())[0]) is not None
            and found.day() == day for match in named.finditer(text))

    asked = shown = 0
    for gold in gold_lines():
        try:
            page = parse_page(page_bytes(gold), url=gold.get("url"))
        except BadInput:
            continue
        days = {found.day()} if (found := bylines.htmldate_fallback(page, None)) else set()
        if isinstance(gold.get("date"), str) and re.match(r"\d{4}-\d\d-\d\d", gold["date"]):
            days.add(date.fromisoformat(gold["date"][:10]))
        for day in days:
            answer = bylines.shows_day(page, day)
            assert answer == over_the_whole_text(page, day), (gold["file"], day)
            asked, shown = asked + 1, shown + answer
    assert asked > 200 and 50 < shown < asked


@pytest.mark.slow
def test_the_story_days_mask_reads_the_kept_markup_as_a_fresh_one(monkeypatch):
    """``fields._story_shows`` reads the furniture mask from the page's kept markup
    (``page_markup``), not a fresh ``read_markup``: on every fixture page, for the day each
    ``<time>`` and the page's own published day give, its answer is the one of the mask read
    with a fresh markup, and it reads no markup afresh (a fresh reading fails here)."""
    from datetime import date

    from extractors import boilerplate, bylines, fields, is_thread

    def fresh_answer(page, day) -> bool:
        mask = boilerplate.furniture_mask(page.nodes, boilerplate.read_markup(page.nodes),
                                          max_weak_share=0.0, thread=is_thread(page))
        return bylines.shows_day(page, day, (), mask)

    cases = []
    for result in _extractions():
        days = {date.fromisoformat(result.fields.published[:10])} if result.fields.published \
            else set()
        days |= {date.fromisoformat(m.group()) for m in re.finditer(
            r"\d{4}-\d\d-\d\d", " ".join(t.get("datetime") or "" for t in
                                         result.page.root.iter("time")))
                 if _is_day(m.group())}
        cases += [(result.page, day, fresh_answer(result.page, day)) for day in sorted(days)]

    def no_fresh_markup(nodes):
        raise AssertionError("the markup read afresh")

    monkeypatch.setattr(boilerplate, "read_markup", no_fresh_markup)
    for page, day, fresh in cases:
        assert fields._story_shows(page, day, ()) == fresh, (page.url, day)
    assert len(cases) > 80 and 0 < sum(fresh for *_, fresh in cases) < len(cases)


def _is_day(text: str) -> bool:
    from datetime import date

    try:
        date.fromisoformat(text)
    except ValueError:
        return False
    return True


@pytest.mark.slow
def test_story_elements_read_each_ancestors_names_once_as_the_two_tests_read_them(monkeypatch):
    """``bylines._outside_story`` reads each ancestor's class and id once for both its marks
    (comment, sidebar): on every element of every fixture page, the answer of the plain test
    that reads them once per mark, and no ancestor's read twice."""
    from collections import Counter

    from extractors import bylines

    def plain(element) -> bool:  # the test as it was, each mark reading the names itself
        furniture = False
        for ancestor in element.iterancestors():
            if ancestor.tag in bylines._STORY_TAGS:
                return False
            if ancestor.tag == "body":
                return furniture
            furniture = (furniture or ancestor.tag in bylines._FURNITURE_TAGS
                         or bylines._comment_marked(ancestor)
                         or any(word in bylines._SIDEBAR_WORDS
                                for word in bylines._class_and_id(ancestor).split()))
        return furniture

    elements = [el for result in _extractions() for el in result.page.nodes.elements]
    expected = [plain(el) for el in elements]
    reads: Counter = Counter()
    original = bylines._class_and_id

    def counted(element) -> str:
        reads[element] += 1
        return original(element)

    monkeypatch.setattr(bylines, "_class_and_id", counted)
    for element, answer in zip(elements, expected):
        reads.clear()
        assert bylines._outside_story(element) == answer
        assert max(reads.values(), default=0) <= 1
    assert len(elements) > 10_000 and 100 < sum(expected) < len(elements)


@pytest.mark.parametrize("text", [
    "3 March 2014", "March 3, 2014", "Sept. 7th, 2019 10:30 am EST", "le 7 août 2019",
    "am 24. Juli 2017", "2. ſeptember 2019", "7 ſept 2019", "7 SEPTEMBER 2019", "x7 March 2014",
    "Ärger am 3. März 2020", "Dec 1, 2015 | Nov 30, 2015", "", "no date here", "12 13 2014",
])
def test_named_dates_found_after_their_first_letter_as_without_the_test(text):
    """``dates._NAMED`` tests the first character (:data:`dates._NAMED_FIRST`) before its
    alternatives: the same matches as the pattern without the test, on made-up texts (a long
    s, which ``(?i)`` folds to "s", capitals, words before)."""
    from extractors import dates

    assert dates._NAMED_FIRST in dates._NAMED.pattern
    plain = re.compile(dates._NAMED.pattern.replace(dates._NAMED_FIRST, "", 1))
    assert [(m.span(), m.groupdict()) for m in dates._NAMED.finditer(text)] == \
        [(m.span(), m.groupdict()) for m in plain.finditer(text)]


@pytest.mark.slow
def test_named_dates_found_after_their_first_letter_on_every_fixture_page():
    """``dates._NAMED`` with its first-character test finds the matches the pattern without it
    finds in every fixture page's text (its segments one a line)."""
    from extractors import dates

    plain = re.compile(dates._NAMED.pattern.replace(dates._NAMED_FIRST, "", 1))
    found = 0
    for result in _extractions():
        text = "\n".join(result.page.nodes.seg_text)
        fast = [(m.span(), m.groupdict()) for m in dates._NAMED.finditer(text)]
        assert fast == [(m.span(), m.groupdict()) for m in plain.finditer(text)]
        found += len(fast)
    assert found > 100


#: ``dates._ISO``, ``_DMY`` and ``_MDY`` as written before their look-behind moved after their
#: first character: (the run pattern's start, the start as written).
_DATE_STARTS = {
    "_ISO": (r"(?P<y>(?:1[5-9]|20)(?<!\d{3})\d\d)", r"(?<!\d)(?P<y>(?:1[5-9]|20)\d\d)"),
    "_DMY": (r"(?P<d>\d(?<![\d.]\d)\d?)", r"(?<![\d.])(?P<d>\d{1,2})"),
    "_MDY": (r"(?P<m>\d(?<![\d/]\d)\d?)", r"(?<![\d/])(?P<m>\d{1,2})"),
}


def _date_patterns() -> list[tuple[re.Pattern, re.Pattern]]:
    """Each of the three run patterns with the pattern as written."""
    from extractors import dates

    pairs = []
    for name, (run, written) in _DATE_STARTS.items():
        pattern = getattr(dates, name)
        assert pattern.pattern.startswith(run)
        pairs.append((pattern, re.compile(written + pattern.pattern[len(run):])))
    return pairs


def _date_matches(pattern: re.Pattern, text: str) -> list:
    return [(m.span(), m.groupdict()) for m in pattern.finditer(text)]


#: Made-up texts for the three patterns: digits (ASCII and others) and dots or slashes before
#: the start, a start at the text's start, two dates in a row, overlong runs of digits.
_MADE_UP_DATES = [
    "2019-05-04", "x2019-05-04", "12019-05-04", ".2019-05-04", "1999/1/2 10:30:05Z",
    "2019年5月4日",
    "٣2019-05-04", "1519.5.4", "2120-01-01", "4.5.2019", "14.05.2019 um 10:30", "1.4.5.2019",
    "04.05.2019, 10:30", "114.05.2019", "5/4/2019", "15/4/2019", "/5/4/2019", "05/04/20191",
    "1/2/2019 3/4/2020", "٣5/4/2019", "٣4.5.2019", "", "no date", "2019-05-04T10:30+01:00",
]


@pytest.mark.parametrize("text", _MADE_UP_DATES)
def test_date_patterns_started_at_their_first_character_match_as_written(text):
    """``dates._ISO``, ``_DMY`` and ``_MDY`` start with their first character, their "no digit
    before" look-behind tested after it: the same matches (spans, groups) as written."""
    for run, written in _date_patterns():
        assert _date_matches(run, text) == _date_matches(written, text)


def test_date_patterns_start_with_every_character_the_written_ones_can():
    """Every character the patterns as written can start a match with (any digit, of any
    script, and the year's "1" and "2") starts one of the run patterns too, after any
    character."""
    for before in ("", "x", ".", "/", "5", "٣", " "):
        for code in range(0x10000):
            first = chr(code)
            if not first.isdigit():
                continue
            for rest in ("019-05-04", "9-05-04", ".5.2019", "/4/2019", "4.5.2019"):
                text = before + first + rest
                for run, written in _date_patterns():
                    assert _date_matches(run, text) == _date_matches(written, text)


@pytest.mark.slow
def test_date_patterns_started_at_their_first_character_on_every_fixture_page():
    """The three run patterns find the matches the patterns as written find in every fixture
    page's text (its segments one a line)."""
    found = 0
    pairs = _date_patterns()
    for result in _extractions():
        text = "\n".join(result.page.nodes.seg_text)
        for run, written in pairs:
            fast = _date_matches(run, text)
            assert fast == _date_matches(written, text)
            found += len(fast)
    assert found > 100


def _mark_rows_apart(marks) -> tuple[int, int, int]:
    """The three class/id counts of ``pagetype._mark_rows`` read one pattern at a time, each a
    pass over all the names (as before the one pass)."""
    from extractors.pagetype import _COMMENT, _CART, _POST, _Joined

    distinct, rows_of = _Joined(list(marks)), list(marks.values())
    comments, posts, carts = (sum(rows_of[k] for k in distinct.matching(pattern))
                              for pattern in (_COMMENT, _POST, _CART))
    return comments, posts, carts


def _name_marks_of(names: list[str]):
    """A :class:`extractors.page.NameMarks` of made-up lowered names, one row each."""
    from itertools import accumulate

    from extractors.page import NameMarks

    starts = list(accumulate((len(t) + 1 for t in names[:-1]), initial=0)) if names else []
    return NameMarks(list(range(len(names))), names, "\x00".join(names), starts)


def test_mark_rows_by_their_literal_words_are_those_of_the_three_passes():
    """``pagetype._mark_rows`` (the names holding one of ``_MARK_LITERALS``, found by
    ``str.find``, then each pattern on those names) counts the rows the three passes over every
    distinct name count, on every fixture page's names and on made-up ones: each alternative of
    the three patterns alone (a word the literals missed would count 0 there), names two or
    three patterns match, a name that matches only after another pattern's match in it."""
    from collections import Counter

    from extractors.page import name_marks
    from extractors.pagetype import _POST_WORDS, _mark_rows

    counted = [0, 0, 0]
    for result in _extractions():
        marks = name_marks(result.page)
        assert _mark_rows(marks) == _mark_rows_apart(Counter(marks.lowered))
        counted = [a + b for a, b in zip(counted, _mark_rows(marks))]
    assert min(counted) > 10
    alternatives = ["comment", "disqus", "reply", "kommentar", "评论", "discussion", "post-x",
                    "reply-x", "answer-x", "message-x", "cart", "basket", "checkout", "addto",
                    "add-to", "buy", "wishlist", "price", "sku", "quantity", "qty"]
    alternatives += [f"x {word}" for word in _POST_WORDS] + [f"{word}s" for word in _POST_WORDS]
    made_up = _MADE_UP_NAMES + alternatives + [
        "comment-cart", "cart-comment", "reply", "replies", "disqus_thread", "buy-posts", "评论",
        "commentsx", "xcomment", "padding", "address", "x\x00comment", "comment\x00x"]
    for names in [made_up, made_up[::-1]] + [[name] for name in alternatives]:
        assert _mark_rows(_name_marks_of(names)) == _mark_rows_apart(Counter(names))
    assert all(_mark_rows(_name_marks_of(alternatives)))
    assert all(any(_mark_rows(_name_marks_of([name]))) for name in alternatives)
