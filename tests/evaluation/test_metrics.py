"""Main-text shingle metric and snippet counts against hand-computed cases."""

from __future__ import annotations

import pytest

from evaluation import metrics


def test_partial_output_counts_shingles_normalised_by_their_sum():
    # gold shingles {abcd, bcde}, output {abcd}: TP 1, FP 0, FN 1 -> halves
    assert metrics.shingle_match("a b c d e", "a b c d") == (0.5, 0.0, 0.5)


def test_shingles_are_multisets():
    # "a b c d a b c d": abcd x2, bcda, cdab, dabc; output abcd once -> TP 1, FN 4
    tp, fp, fn = metrics.shingle_match("a b c d a b c d", "a b c d")
    assert (tp, fp, fn) == pytest.approx((0.2, 0.0, 0.8))


def test_case_is_kept_and_punctuation_ignored():
    assert metrics.shingle_match("A b c d", "a b c d") == (0.0, 0.5, 0.5)
    assert metrics.shingle_match("a, b; c. d!", "a b c d") == (1.0, 0.0, 0.0)


def test_text_shorter_than_four_tokens_is_one_shingle():
    assert metrics.shingle_match("a b", "a b") == (1.0, 0.0, 0.0)
    assert metrics.shingle_match("a b", "a b c") == (0.0, 0.5, 0.5)


def test_empty_output_enters_recall_only():
    counts = metrics.shingle_match("a b c d e", "")
    assert counts == (0.0, 0.0, 1.0)
    scores = metrics.body_scores([counts])
    assert (scores["precision"], scores["recall"], scores["empty_output"]) == (0.0, 0.0, 1)


def test_empty_gold_enters_precision_only():
    counts = metrics.shingle_match("", "x y")
    assert counts == (0.0, 1.0, 0.0)
    with_empty_gold = metrics.body_scores([counts, (1.0, 0.0, 0.0)])
    assert (with_empty_gold["precision"], with_empty_gold["recall"]) == (0.5, 1.0)


def test_both_empty_enters_neither_average():
    scores = metrics.body_scores([(0.0, 0.0, 0.0), (0.5, 0.0, 0.5)])
    assert (scores["precision"], scores["recall"]) == (1.0, 0.5)


def test_aggregate_averages_per_page_then_takes_f1_of_the_averages():
    pages = [metrics.shingle_match("a b c d e", "a b c d"),  # P 1, R .5
             metrics.shingle_match("a b c d e", ""),  # recall 0, no precision
             metrics.shingle_match("", "x y")]  # precision 0, no recall
    scores = metrics.body_scores(pages)
    assert (scores["precision"], scores["recall"]) == (0.5, 0.25)
    assert scores["f1"] == pytest.approx(2 * 0.5 * 0.25 / 0.75, abs=1e-4)
    assert scores["share_f1_90"] == 0.0


def test_share_of_good_pages():
    scores = metrics.body_scores([(1.0, 0.0, 0.0), (0.5, 0.0, 0.5)])
    assert scores["share_f1_90"] == 0.5  # per-page F1 1.0 and 0.667


def test_plain_metric_turns_a_chinese_sentence_into_one_token():
    assert metrics.shingle_match("北京欢迎你", "北京欢迎") == (0.0, 0.5, 0.5)


def test_cjk_variant_counts_characters():
    # gold 北京欢迎 + 京欢迎你, output 北京欢迎: TP 1, FN 1
    assert metrics.shingle_match("北京欢迎你", "北京欢迎", cjk=True) == (0.5, 0.0, 0.5)
    assert metrics.tokenize_cjk("GDP增长5%") == ["GDP", "增", "长", "5"]


def test_snippet_counts_follow_trafilatura():
    counts = metrics.snippet_counts("Alpha  beta.\nGamma delta.", ["Alpha beta", "Epsilon"],
                                    ["Gamma", "Zeta"])
    assert counts == (1, 1, 1, 1)
    assert metrics.snippet_counts(None, ["a", "b"], ["c"]) == (0, 2, 0, 1)


def test_snippet_scores():
    scores = metrics.snippet_scores([(1, 1, 1, 1), (0, 2, 0, 1)])
    assert (scores["precision"], scores["recall"], scores["accuracy"]) == (0.5, 0.25, 0.4286)
    assert scores["f1"] == pytest.approx(2 / 6, abs=1e-4)


def test_snippet_scores_without_any_found_snippet_are_zero_not_an_error():
    assert metrics.snippet_scores([(0, 2, 0, 1)])["precision"] == 0.0
