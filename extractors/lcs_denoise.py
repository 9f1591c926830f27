"""Template-noise removal by LCS feature-tree similarity matching (paper 003; algorithms.md section 4).

The target page and a same-template sibling become feature trees, then level-order sequences ``S1``
(target) and ``S2`` (sibling). A table holds, for every pair of prefixes, the largest accumulated
similarity of a matching; backtracking from its last cell marks the target nodes that only the target
has (an ``S1`` node skipped) or that pair with a dissimilar node (similarity below ``Ts``): the candidate
content. Candidates are clustered by tree position and the clusters scored on six indicators; the best
cluster and those close to it are the content.

Implementation notes:

- Similarities are multiples of 1/7 (the share of 7 equal features, or 0, or 1), so they are stored as
  integer numerators 0..7 (``uint8``) and accumulated in integers: ties are exact.
- Each row of the table is ``cur[j] = max(prev[j-1] + sim[i, j], prev[j], cur[j-1])``: with
  ``a = max(prev[j-1] + sim, prev[j])``, ``cur`` is the prefix maximum of ``a``, so numpy fills a row
  at once. Only two score rows are kept; the pointers (one byte per cell) and the similarity matrix
  (one byte per cell, needed because a node's similarity depends on its parents') are what grows with
  ``N·M``. Pairs beyond ``MAX_CELLS`` are not attempted: the result says so and the caller falls back.
- Orientation: rows follow ``S1``, columns ``S2``. The paper's tie order (pair, then the direction that
  skips an ``S2`` node, then the one that skips an ``S1`` node) is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from extractors.feature_tree import CONTENT_TAGS, FeatureTree, build_feature_tree
from extractors.nodetable import NodeTable

__all__ = ["MAX_CELLS", "SIMILARITY_THRESHOLD", "Denoised", "denoise", "match_trees"]

#: ``Ts``: pairs at or above it are template. The paper gives no value. PROVISIONAL: 4/7 ≈ 0.57 (four
#: of the seven features equal), not yet swept on big9 / cx_163 / cleanportaleval; the sweep and the
#: choice belong here once the LCS chain is evaluated.
SIMILARITY_THRESHOLD = 4 / 7
#: Table cells (``len(S1) * len(S2)``) above which matching is refused (2 bytes per cell).
MAX_CELLS = 60_000_000
#: Clusters whose score is within this many points of the best one are content too.
CLOSE_SCORE_MARGIN = 2
#: Points for the first three ranks of each indicator (paper 003, section 2.5).
RANK_POINTS = (5, 3, 1)
#: The page's "main visual area": the middle band of the document's text, as a share of it.
MAIN_AREA = (0.1, 0.8)

_DIAG, _SKIP_S2, _SKIP_S1 = 0, 1, 2
_FULL = 7  # similarity numerator of 1.0


@dataclass(slots=True)
class Denoised:
    """Rows of the target's node table that hold content, or why none were chosen."""

    keep: np.ndarray | None           # bool mask over target rows (content subtrees), None if failed
    clusters: list[list[int]] = field(default_factory=list)  # chosen clusters (node-table rows)
    candidates: int = 0
    reason: str | None = None


def denoise(target: NodeTable, sibling: NodeTable, threshold: float = SIMILARITY_THRESHOLD,
            max_cells: int = MAX_CELLS) -> Denoised:
    """Find the target's content by matching it against ``sibling`` (a page of the same template)."""
    if len(target) * len(sibling) > max_cells:
        return Denoised(None, reason=f"tables too large ({len(target)}x{len(sibling)} nodes)")
    vocabulary: dict[str, int] = {}
    t1, t2 = build_feature_tree(target, vocabulary), build_feature_tree(sibling, vocabulary)
    candidates = match_trees(t1, t2, threshold)
    rows = t1.order[candidates]
    rows = rows[target.text[rows] > 0]
    if len(rows) == 0:
        return Denoised(None, reason="the sibling has every node of the target")
    chosen = _choose_clusters(target, _cluster(target, _topmost(target, rows)))
    keep = np.zeros(len(target), dtype=bool)
    for cluster in chosen:
        for row in cluster:
            keep[row:int(target.end[row]) + 1] = True
    return Denoised(keep, chosen, len(rows))


def match_trees(t1: FeatureTree, t2: FeatureTree, threshold: float = SIMILARITY_THRESHOLD
                ) -> np.ndarray:
    """Sequence indices of ``t1`` that backtracking marks as candidates (only in, or unlike, ``t2``)."""
    sim = _similarities(t1, t2, threshold)
    pointers = _fill_table(sim)
    return _backtrack(pointers, sim, int(np.ceil(threshold * _FULL - 1e-9)))


def _similarities(t1: FeatureTree, t2: FeatureTree, threshold: float) -> np.ndarray:
    """``CompareTwoCNode`` for every pair, as numerators over 7, row by row in level order."""
    n, m = len(t1.order), len(t2.order)
    sim = np.zeros((n, m), dtype=np.uint8)
    parent_min = int(np.ceil(threshold * _FULL - 1e-9))  # parents similar: sim > Ts (def. 6)
    root2 = t2.parent_pos < 0
    for i in range(n):
        same_tag = t2.tag == t1.tag[i]
        if t1.parent_pos[i] < 0:  # body: 1 against body, 0 against anything else
            sim[i] = np.where(same_tag & root2, _FULL, 0)
            continue
        parents = sim[t1.parent_pos[i], np.maximum(t2.parent_pos, 0)]
        ok = same_tag & ~root2 & (parents > parent_min)
        if t1.content[i]:
            row = np.where(t2.content & (t2.fingerprint == t1.fingerprint[i]), _FULL, 0)
        else:
            row = np.where(t2.content, 0, (t2.features == t1.features[i]).sum(axis=1))
        sim[i] = np.where(ok, row, 0)
    return sim


def _fill_table(sim: np.ndarray) -> np.ndarray:
    """The pointer table of the accumulated-similarity DP (two score rows kept)."""
    n, m = sim.shape
    pointers = np.empty((n, m), dtype=np.uint8)
    prev = np.zeros(m + 1, dtype=np.int64)  # prev[j + 1] = score(i - 1, j); prev[0] = boundary
    for i in range(n):
        diag = prev[:-1] + sim[i]
        best_in = np.maximum(diag, prev[1:])
        cur = np.maximum.accumulate(best_in)
        left = np.r_[0, cur[:-1]]  # score(i, j - 1)
        pointers[i] = np.where(diag == cur, _DIAG, np.where(left == cur, _SKIP_S2, _SKIP_S1))
        prev = np.r_[0, cur]
    return pointers


def _backtrack(pointers: np.ndarray, sim: np.ndarray, template_min: int) -> np.ndarray:
    """Walk back from the last cell; collect ``S1`` indices skipped or paired below ``Ts``."""
    i, j = pointers.shape[0] - 1, pointers.shape[1] - 1
    out: list[int] = []
    while i >= 0 and j >= 0:
        step = pointers[i, j]
        if step == _DIAG:
            if sim[i, j] < template_min:
                out.append(i)
            i, j = i - 1, j - 1
        elif step == _SKIP_S2:
            j -= 1
        else:
            out.append(i)
            i -= 1
    out.extend(range(i, -1, -1))
    return np.asarray(sorted(out), dtype=np.int64)


def _topmost(nodes: NodeTable, rows: np.ndarray) -> np.ndarray:
    """Candidates whose ancestors are not candidates (paper 003, section 2.4)."""
    rows = np.sort(rows)
    keep: list[int] = []
    covered_until = -1
    for row in rows:
        if row > covered_until:
            keep.append(int(row))
            covered_until = int(nodes.end[row])
    return np.asarray(keep, dtype=np.int64)


def _cluster(nodes: NodeTable, rows: np.ndarray) -> list[list[int]]:
    """Group candidates that share a parent, or where one's parent is the other's grandparent,
    repeatedly (union-find), until every candidate is in a cluster (paper 003, section 2.4)."""
    parent = {int(r): int(nodes.parent[r]) for r in rows}
    root = {r: r for r in parent}

    def find(r: int) -> int:
        while root[r] != r:
            root[r] = root[root[r]]
            r = root[r]
        return r

    first_child: dict[int, int] = {}
    for r, p in parent.items():
        if p in first_child:
            root[find(r)] = find(first_child[p])
        else:
            first_child[p] = r
    for r, p in parent.items():
        grandparent = int(nodes.parent[p]) if p >= 0 else -1
        if grandparent in first_child:
            root[find(r)] = find(first_child[grandparent])
    groups: dict[int, list[int]] = {}
    for r in parent:
        groups.setdefault(find(r), []).append(r)
    return [sorted(g) for g in groups.values()]


def _choose_clusters(nodes: NodeTable, clusters: list[list[int]]) -> list[list[int]]:
    """Score the clusters on the six indicators; keep the best and those close to it."""
    if len(clusters) == 1:
        return clusters
    indicators = np.array([_indicators(nodes, c) for c in clusters])
    scores = np.zeros(len(clusters))
    for column in range(indicators.shape[1]):
        sign = -1 if column == 4 else 1  # link rate penalises
        ranked = np.argsort(-indicators[:, column], kind="stable")
        for rank, idx in enumerate(ranked[:len(RANK_POINTS)]):
            if indicators[idx, column] > 0:
                scores[idx] += sign * RANK_POINTS[rank]
    best = scores.max()
    return [c for c, s in zip(clusters, scores) if s >= best - CLOSE_SCORE_MARGIN]


def _indicators(nodes: NodeTable, cluster: list[int]) -> tuple[float, ...]:
    """Text length, area, effective area, content tags, link rate, text-to-code ratio (proxies)."""
    rows = np.asarray(cluster)
    ends = nodes.end[rows] + 1
    text = float(nodes.text[rows].sum())
    elements = float((ends - rows).sum())
    area = text + elements  # box proxy: text for height, blocks for width
    total = max(1.0, float(nodes.text[0]))
    before = _text_offsets(nodes)[nodes.seg_lo[rows]]
    lo, hi = MAIN_AREA[0] * total, MAIN_AREA[1] * total
    overlap = np.clip(np.minimum(before + nodes.text[rows], hi) - np.maximum(before, lo), 0, None)
    effective = float(overlap.sum())
    content_tags = float(sum(_count_content_tags(nodes, r, e) for r, e in zip(rows, ends)))
    link_rate = float(nodes.link_text[rows].sum()) / text if text else 0.0
    return text, area, effective, content_tags, link_rate, text / elements if elements else 0.0


def _text_offsets(nodes: NodeTable) -> np.ndarray:
    """Characters of text before each segment (and one past the end)."""
    lengths = np.fromiter(map(len, map(str.strip, nodes.seg_text)), dtype=float,
                          count=len(nodes.seg_text))
    return np.concatenate(([0.0], np.cumsum(lengths)))


def _count_content_tags(nodes: NodeTable, row: int, end: int) -> int:
    return sum(1 for t in nodes.tag[row:end] if t in CONTENT_TAGS)
