"""Main-text and snippet metrics: the published definitions, reimplemented exactly.

Main text follows the scrapinghub *article-extraction-benchmark* ``evaluate.py``
(https://github.com/scrapinghub/article-extraction-benchmark, MIT): ``\\w+`` tokens (Unicode, case
kept), shingles of 4 tokens counted as multisets (a text of fewer than 4 tokens is one shorter
shingle), per-page TP/FP/FN normalised by their sum, precision averaged over the pages where
TP + FP > 0 (non-empty output), recall over the pages where TP + FN > 0 (non-empty gold), and F1
computed from those two averages. A page where both gold and output are empty has TP = FP = FN = 0
and enters neither average, as upstream.

Snippets follow trafilatura's ``tests/comparison_small.py`` ``evaluate_result``/``calculate_scores``
(https://github.com/adbar/trafilatura, Apache-2.0): a ``with`` snippet found is a true positive, a
``without`` snippet found a false positive; a missing output counts every ``with`` as a false
negative and every ``without`` as a true negative. We compare after collapsing whitespace runs on
both sides (trafilatura's ``trim``): a line break versus a space inside a snippet does not decide.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Sequence

SHINGLE_SIZE = 4  # article-extraction-benchmark ``string_shingle_matching(ngram_n=4)``
GOOD_PAGE_F1 = 0.9  # share of pages at or above this per-page F1 is reported as ``share_f1_90``

TOKEN_RE = re.compile(r"\w+", re.UNICODE)  # evaluate.py ``_TOKEN_RE`` (its IGNORECASE is inert)
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
CJK_TOKEN_RE = re.compile(rf"[{_CJK}]|[^\W{_CJK}]+", re.UNICODE)
_SPACE_RE = re.compile(r"\s+")

TpFpFn = tuple[float, float, float]


def tokenize(text: str | None) -> list[str]:
    """Split into ``\\w+`` tokens, as the benchmark does.

    >>> tokenize("Hello, wörld! 北京欢迎你。")
    ['Hello', 'wörld', '北京欢迎你']
    """
    return TOKEN_RE.findall(text or "")


def tokenize_cjk(text: str | None) -> list[str]:
    """Like :func:`tokenize`, but each CJK character (Han, kana, Hangul) is a token of its own.

    >>> tokenize_cjk("Hello, 北京欢迎你 2024年")
    ['Hello', '北', '京', '欢', '迎', '你', '2024', '年']
    """
    return CJK_TOKEN_RE.findall(text or "")


def shingles(tokens: Sequence[str], n: int = SHINGLE_SIZE) -> Counter[tuple[str, ...]]:
    """The multiset of ``n``-token shingles; fewer than ``n`` tokens make one short shingle.

    >>> sorted(shingles(["a", "b", "c", "d", "e"]).items())
    [(('a', 'b', 'c', 'd'), 1), (('b', 'c', 'd', 'e'), 1)]
    >>> shingles(["a", "b"])
    Counter({('a', 'b'): 1})
    >>> shingles([])
    Counter()
    """
    found = (tuple(tokens[i:i + n]) for i in range(max(1, len(tokens) - n + 1)))
    return Counter(s for s in found if s)


def shingle_match(true: str | None, pred: str | None, cjk: bool = False) -> TpFpFn:
    """Per-page TP, FP, FN over shingles, normalised by their sum (all zero when both are empty).

    >>> shingle_match("a b c d e", "a b c d")
    (0.5, 0.0, 0.5)
    >>> shingle_match("", "")
    (0.0, 0.0, 0.0)
    """
    split = tokenize_cjk if cjk else tokenize
    t, p = shingles(split(true)), shingles(split(pred))
    tp = float(sum((t & p).values()))
    fp = float(sum((p - t).values()))
    fn = float(sum((t - p).values()))
    total = tp + fp + fn
    return (tp / total, fp / total, fn / total) if total else (0.0, 0.0, 0.0)


def page_precision(tp: float, fp: float, fn: float) -> float:
    """evaluate.py ``precision_score``."""
    if fp == fn == 0:
        return 1.0
    if tp == fp == 0:
        return 0.0
    return tp / (tp + fp)


def page_recall(tp: float, fp: float, fn: float) -> float:
    """evaluate.py ``recall_score``."""
    if fp == fn == 0:
        return 1.0
    if tp == fn == 0:
        return 0.0
    return tp / (tp + fn)


def page_f1(counts: TpFpFn) -> float:
    """F1 of one page (0 when output or gold is empty); used for the share of good pages."""
    tp, fp, fn = counts
    if tp + fp == 0 or tp + fn == 0:
        return 0.0
    p, r = page_precision(tp, fp, fn), page_recall(tp, fp, fn)
    return 2 * p * r / (p + r) if p + r else 0.0


def body_scores(per_page: Sequence[TpFpFn]) -> dict[str, float | int]:
    """Aggregate per-page counts as evaluate.py ``metrics_from_tp_fp_fns`` does.

    >>> s = body_scores([(1.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 1.0)])
    >>> s["precision"], s["recall"], s["f1"], s["share_f1_90"], s["pages"], s["empty_output"]
    (1.0, 0.5, 0.6667, 0.3333, 3, 2)
    """
    precisions = [page_precision(*c) for c in per_page if c[0] + c[1] > 0]
    recalls = [page_recall(*c) for c in per_page if c[0] + c[2] > 0]
    precision = statistics.fmean(precisions) if precisions else 0.0
    recall = statistics.fmean(recalls) if recalls else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    good = sum(1 for c in per_page if page_f1(c) >= GOOD_PAGE_F1)
    return {
        "precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
        "share_f1_90": round(good / len(per_page), 4) if per_page else 0.0,
        "pages": len(per_page), "empty_output": len(per_page) - len(precisions),
    }


def trim(text: str) -> str:
    """Collapse whitespace runs to one space (trafilatura's ``trim``).

    >>> trim("  a\\n\\n b ")
    'a b'
    """
    return _SPACE_RE.sub(" ", text).strip()


def snippet_counts(output: str | None, with_: Iterable[str], without: Iterable[str]
                   ) -> tuple[int, int, int, int]:
    """(TP, FN, FP, TN) for one page, as trafilatura's ``evaluate_result``.

    >>> snippet_counts("Keep this text. Home", ["Keep this", "lost"], ["Home", "Login"])
    (1, 1, 1, 1)
    >>> snippet_counts(None, ["a"], ["b", "c"])
    (0, 1, 0, 2)
    """
    with_, without = list(with_), list(without)
    if not output:
        return 0, len(with_), 0, len(without)
    text = trim(output)
    tp = sum(1 for s in with_ if trim(s) in text)
    fp = sum(1 for s in without if trim(s) in text)
    return tp, len(with_) - tp, fp, len(without) - fp


def snippet_scores(counts: Iterable[tuple[int, int, int, int]]) -> dict[str, float | int]:
    """Summed counts to precision, recall, F1 (2TP / (2TP + FP + FN)) and accuracy.

    >>> s = snippet_scores([(1, 1, 1, 1), (2, 0, 0, 2)])
    >>> s["precision"], s["recall"], s["f1"], s["accuracy"], s["tp"], s["fp"], s["pages"]
    (0.75, 0.75, 0.75, 0.75, 3, 1, 2)
    """
    tp = fn = fp = tn = pages = 0
    for a, b, c, d in counts:
        tp, fn, fp, tn, pages = tp + a, fn + b, fp + c, tn + d, pages + 1
    return {
        "precision": _ratio(tp, tp + fp), "recall": _ratio(tp, tp + fn),
        "f1": _ratio(2 * tp, 2 * tp + fp + fn), "accuracy": _ratio(tp + tn, tp + tn + fp + fn),
        "tp": tp, "fn": fn, "fp": fp, "tn": tn, "pages": pages,
    }


def _ratio(num: float, den: float) -> float:
    return round(num / den, 4) if den else 0.0
