"""The chain's faster paths against the plain ones they replaced, on every real fixture page
(tests/fixtures/pages; sources in tests/fixtures/SOURCES.md): the same answers, exactly."""

from __future__ import annotations

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
