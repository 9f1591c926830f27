"""The title-ranker experiment (evaluation/title_ranker.py; docs/evaluation.md, "Titles: a learned
candidate ranker"): its candidates on real fixture pages (trafilatura_eval, Apache-2.0; sources in
tests/fixtures/SOURCES.md) and its rule-or-model choice."""

from __future__ import annotations

import numpy as np

from evaluation.fieldmetrics import title_match
from evaluation.title_ranker import FEATURES, right, title_candidates
from extractors import extract
from extractors.metadata import read_metadata
from extractors.page import parse_page
from tests.fixture_pages import fixture, page_bytes

F = {name: i for i, name in enumerate(FEATURES)}


def _candidates(name: str):
    gold = fixture(name)
    page = parse_page(page_bytes(gold), url=gold["url"])
    chain = extract(page).fields.title
    texts, x = title_candidates(page, read_metadata(page), chain)
    return gold, chain, texts, x


def test_an_articles_lone_h1_is_a_candidate_with_its_flags() -> None:
    """smava.de: the gold is the article's one <h1>, which differs from its og:title."""
    gold, chain, texts, x = _candidates("trafilatura_eval-00333.html")
    assert x.shape == (len(texts), len(FEATURES))
    right_rows = [i for i, t in enumerate(texts) if title_match(t, gold["title"])]
    assert len(right_rows) == 1
    row = x[right_rows[0]]
    assert row[F["h1"]] == row[F["h1_first"]] == row[F["lone_h1"]] == 1
    assert row[F["article_like"]] == row[F["article_like_h1"]] == 1
    assert row[F["rule"]] == 1  # the rule picks it too: its title is this page's gold
    assert title_match(chain, gold["title"])
    # the declared titles are candidates of their own, not the heading's row
    assert any(r[F["opengraph"]] == 1 and r[F["h1"]] == 0 for r in x)


def test_a_title_less_its_site_part_is_a_candidate_beside_the_whole() -> None:
    """archiv.krimiblog.de: "Krimiblog-Archiv » Post title"; the post's title is the gold, and
    the whole <title> is a candidate that was cut."""
    gold, _, texts, x = _candidates("trafilatura_eval-00150.html")
    right_rows = [i for i, t in enumerate(texts) if title_match(t, gold["title"])]
    assert right_rows
    cut = [i for i in range(len(texts)) if x[i][F["whole_cut_differs"]] == 1]
    assert cut and all(i not in right_rows for i in cut)
    assert x[:, F["rule"]].sum() == 1


def test_the_rule_stands_unless_the_model_beats_it_by_the_margin() -> None:
    """Three candidates: the rule's (wrong) and two others; the model scores the right one
    highest by 1.0 over the rule's."""
    x = np.zeros((3, len(FEATURES)))
    x[0, F["rule"]] = 1.0
    x[1, F["h1"]] = 1.0
    x[2, F["h2"]] = 1.0
    page = {"x": x, "y": np.array([False, True, False]), "rule_ok": False}
    w = np.zeros(len(FEATURES))
    w[F["h1"]] = 1.0
    assert right(w, page) is True
    assert right(w, page, margin=0.5) is True
    assert right(w, page, margin=1.5) is False  # the rule's answer stands, and it is wrong
    assert right(w, {"x": x[:0], "y": np.array([], bool), "rule_ok": False}) is False
