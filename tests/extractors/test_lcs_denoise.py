"""LCS feature-tree matching (paper 003): the vectorised table against a plain reference, and real
same-site page pairs from cx_163 and cx_bbc (MIT)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from extractors import parse_page
from evaluation.metrics import page_recall, shingle_match
from extractors.feature_tree import build_feature_tree
from extractors.lcs_denoise import SIMILARITY_THRESHOLD, denoise, match_trees
from tests.extractors.test_attenuation import NAVIGATION_LINKS
from tests.fixture_pages import body_without_link_lines, fixture, page_bytes

TAGS = ("div", "p", "span", "ul", "li", "a")


def _random_html(rng: random.Random, size: int) -> bytes:
    def node(depth: int) -> str:
        tag = rng.choice(TAGS if depth < 4 else ("p", "a", "span"))
        attrs = f' class="c{rng.randint(0, 2)}"' if rng.random() < 0.5 else ""
        attrs += f' id="i{rng.randint(0, 2)}"' if rng.random() < 0.2 else ""
        text = rng.choice(("", "alpha", "beta gamma", "delta epsilon zeta"))
        kids = "".join(node(depth + 1) for _ in range(rng.randint(0, 3) if depth < 4 else 0))
        return f"<{tag}{attrs}>{text}{kids}</{tag}>"
    return f"<html><body>{''.join(node(1) for _ in range(size))}</body></html>".encode()


def _reference_similarity(t1, t2, threshold):
    """CompareTwoCNode written from the paper, recursively, with memoisation."""
    memo: dict = {}
    full = 7

    def sim(i: int, j: int) -> int:
        if (i, j) not in memo:
            if t1.tag[i] != t2.tag[j]:
                value = 0
            elif t1.parent_pos[i] < 0 or t2.parent_pos[j] < 0:
                value = full if t1.parent_pos[i] < 0 and t2.parent_pos[j] < 0 else 0
            elif sim(t1.parent_pos[i], t2.parent_pos[j]) <= threshold * full:
                value = 0
            elif t1.content[i] and t2.content[j]:
                value = full if t1.fingerprint[i] == t2.fingerprint[j] else 0
            elif t1.content[i] != t2.content[j]:
                value = 0
            else:
                value = int((t1.features[i] == t2.features[j]).sum())
            memo[i, j] = value
        return memo[i, j]
    return sim


def _reference_candidates(t1, t2, threshold):
    """The accumulated-similarity table filled cell by cell, tie order pair > skip S2 > skip S1."""
    sim = _reference_similarity(t1, t2, threshold)
    n, m = len(t1.order), len(t2.order)
    score = [[0] * (m + 1) for _ in range(n + 1)]
    move = [[None] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            options = [(score[i - 1][j - 1] + sim(i - 1, j - 1), "pair"),
                       (score[i][j - 1], "skip_s2"), (score[i - 1][j], "skip_s1")]
            best = max(value for value, _ in options)
            score[i][j], move[i][j] = next(o for o in options if o[0] == best)
    out, i, j = [], n, m
    while i > 0 and j > 0:
        if move[i][j] == "pair":
            if sim(i - 1, j - 1) < threshold * 7:
                out.append(i - 1)
            i, j = i - 1, j - 1
        elif move[i][j] == "skip_s2":
            j -= 1
        else:
            out.append(i - 1)
            i -= 1
    out.extend(range(i))
    return sorted(out)


@pytest.mark.parametrize("threshold", [1 / 7, SIMILARITY_THRESHOLD, 4 / 7, 6 / 7])
@pytest.mark.parametrize("seed", range(25))
def test_table_agrees_with_the_reference_on_random_trees(seed, threshold):
    rng = random.Random(seed)
    a = parse_page(_random_html(rng, rng.randint(2, 6))).nodes
    b = parse_page(_random_html(rng, rng.randint(2, 6))).nodes
    t1, t2 = build_feature_tree(a), build_feature_tree(b)
    expected = _reference_candidates(t1, t2, threshold)
    assert match_trees(t1, t2, threshold).tolist() == expected


@pytest.mark.parametrize("seed", range(6))
def test_edge_cases_agree_with_the_reference(seed):
    """A page against itself, against a near copy, and against an empty body (no similar pairs
    below body, so every row but body is empty of cells)."""
    rng = random.Random(100 + seed)
    html = _random_html(rng, rng.randint(3, 8))
    a = parse_page(html).nodes
    near = parse_page(html.replace(b"beta", b"theta", 1).replace(b"<p>", b"<p>new ", 1)).nodes
    empty = parse_page(b"<html><body></body></html>").nodes
    for other in (a, near, empty):
        t1, t2 = build_feature_tree(a), build_feature_tree(other)
        for threshold in (1 / 7, SIMILARITY_THRESHOLD, 5 / 7):
            assert match_trees(t1, t2, threshold).tolist() == _reference_candidates(t1, t2,
                                                                                    threshold)
    assert match_trees(build_feature_tree(a), build_feature_tree(a)).tolist() == []


def test_a_pair_over_the_caps_is_refused_with_a_reason():
    target = parse_page(page_bytes(fixture("cx_163-00001.html"))).nodes
    sibling = parse_page(page_bytes(fixture("cx_163-00003.html"))).nodes
    for caps in ({"max_pairs": 50}, {"max_cells": 50}):
        result = denoise(target, sibling, **caps)
        assert result.keep is None and "too large" in result.reason
    assert denoise(target, sibling).keep is not None


def test_a_page_against_itself_has_no_candidates():
    nodes = parse_page(page_bytes(fixture("cx_bbc-00000.html"))).nodes
    
    tree = build_feature_tree(nodes)
    assert len(match_trees(tree, tree)) == 0


PAIRS = [("cx_163-00001.html", "cx_163-00003.html"), ("cx_bbc-00000.html", "cx_bbc-00003.html")]


@pytest.mark.parametrize(("target", "sibling"), PAIRS)
def test_real_pair_keeps_the_article_and_drops_the_template(target, sibling):
    gold = fixture(target)
    page = parse_page(page_bytes(gold))
    result = denoise(page.nodes, parse_page(page_bytes(fixture(sibling))).nodes)
    assert result.keep is not None, result.reason
    nodes = page.nodes
    kept = [nodes.seg_text[i] for i in np.flatnonzero(result.keep[nodes.seg_owner])]
    text = "\n".join(kept)
    expected = body_without_link_lines(gold, page.root)
    assert page_recall(*shingle_match(expected, text, cjk=gold["lang"] == "zh")) >= 0.9
    lines = {t.strip() for t in kept}
    navigation = {a.text_content().strip() for a in page.root.xpath(NAVIGATION_LINKS)}
    navigation = {t for t in navigation if len(t) >= 4 and t not in gold["body"]}
    assert navigation and not navigation & lines


def test_fingerprints_are_equal_exactly_when_tags_and_text_are():
    """The rolling-hash fingerprint partitions real nodes as (subtree tags, inner text) does."""
    from extractors.feature_tree import _fingerprints, _ids

    nodes = parse_page(page_bytes(fixture("cx_163-00001.html"))).nodes
    prints = _fingerprints(nodes, _ids(nodes.tag), np.ones(len(nodes), dtype=bool))
    by_content: dict = {}
    for row in range(len(nodes)):
        key = (tuple(nodes.tag[row + 1:nodes.end[row] + 1]), nodes.inner_text(row))
        by_content.setdefault(key, set()).add(int(prints[row]))
    assert all(len(v) == 1 for v in by_content.values())
    assert len(set(prints.tolist())) == len(by_content)
