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
  at once. Instead of a pointer table, the score rows are kept (16-bit) and the backtracking decides
  each step from them with the tie order; rows of target nodes that resemble nothing are not stored.
  Memory grows with ``N·M`` (the similarity bytes and the stored rows); pairs beyond ``MAX_CELLS``
  are not attempted: the result says so and the caller falls back to attenuation alone.
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
#: Table cells (``len(S1) * len(S2)``) above which matching is refused (up to 3 bytes per cell).
MAX_CELLS = 40_000_000
#: Clusters whose score is within this many points of the best one are content too.
CLOSE_SCORE_MARGIN = 2
#: Points for the first three ranks of each indicator (paper 003, section 2.5).
RANK_POINTS = (5, 3, 1)
#: The page's "main visual area": the middle band of the document's text, as a share of it.
MAIN_AREA = (0.1, 0.8)

_FULL = 7  # similarity numerator of 1.0


@dataclass(slots=True)
class Denoised:
    """Rows of the target's node table that hold content, or why none were chosen."""

    keep: np.ndarray | None           # bool mask over target rows (content subtrees), None if failed
    clusters: list[list[int]] = field(default_factory=list)  # chosen clusters (node-table rows)
    candidates: int = 0
    reason: str | None = None


def denoise(target: NodeTable, sibling: NodeTable, threshold: float | None = None,
            max_cells: int = MAX_CELLS) -> Denoised:
    """Find the target's content by matching it against ``sibling`` (a page of the same template).

    ``threshold`` is ``Ts``; None reads :data:`SIMILARITY_THRESHOLD` at call time (``newscrawl eval
    --lcs-ts`` sets it for a sweep)."""
    threshold = SIMILARITY_THRESHOLD if threshold is None else threshold
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
    scores, row_of = _fill_scores(sim)
    return _backtrack(sim, scores, row_of, int(np.ceil(threshold * _FULL - 1e-9)))


def _similarities(t1: FeatureTree, t2: FeatureTree, threshold: float) -> np.ndarray:
    """``CompareTwoCNode`` for every pair, as numerators over 7 (zero where not computed).

    A pair can only be non-zero when its parents are similar (rule 3), so the matrix is filled from
    the similar pairs downwards: the children of each similar pair ``(p, q)`` are compared, all pairs
    of one generation at once. Level order keeps each node's children contiguous, which turns
    "children of p" into a range. Every pair is visited at most once (its parents' pair is unique).
    """
    n, m = len(t1.order), len(t2.order)
    sim = np.zeros((n, m), dtype=np.uint8)
    parent_min = int(np.ceil(threshold * _FULL - 1e-9))  # parents similar: sim > Ts (def. 6)
    if n == 0 or m == 0 or t1.tag[0] != t2.tag[0]:
        return sim
    sim[0, 0] = _FULL  # rule 2: body against body (both sequences start at body)
    start1, count1 = _child_ranges(t1.parent_pos)
    start2, count2 = _child_ranges(t2.parent_pos)
    p, q = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    while len(p):
        i, j = _child_pairs(p, q, start1, count1, start2, count2)
        if len(i) == 0:
            break
        values = _compare(t1, t2, i, j)
        sim[i, j] = values
        similar = values > parent_min
        p, q = i[similar], j[similar]
    return sim


def _child_ranges(parent_pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First child position and child count of every position (children are contiguous)."""
    n = len(parent_pos)
    count = np.bincount(parent_pos[parent_pos >= 0], minlength=n)
    start = np.full(n, n, dtype=np.int64)
    has_parent = np.flatnonzero(parent_pos >= 0)
    np.minimum.at(start, parent_pos[has_parent], has_parent)
    return start, count


def _child_pairs(p, q, start1, count1, start2, count2) -> tuple[np.ndarray, np.ndarray]:
    """All (child of p[k], child of q[k]) pairs, for every k, as two flat arrays."""
    c1, c2 = count1[p], count2[q]
    sizes = c1 * c2
    keep = sizes > 0
    p, q, c1, c2, sizes = p[keep], q[keep], c1[keep], c2[keep], sizes[keep]
    total = int(sizes.sum())
    pair = np.repeat(np.arange(len(p)), sizes)
    offset = np.arange(total) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    i = start1[p][pair] + offset // c2[pair]
    j = start2[q][pair] + offset % c2[pair]
    return i, j


def _compare(t1: FeatureTree, t2: FeatureTree, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Rules 1 and 4–6 of CompareTwoCNode for pairs whose parents are similar (rules 2–3 done)."""
    same_tag = t1.tag[i] == t2.tag[j]
    c1, c2 = t1.content[i], t2.content[j]
    same_html = c1 & c2 & (t1.fingerprint[i] == t2.fingerprint[j])
    shared = (t1.features[i] == t2.features[j]).sum(axis=1)
    value = np.where(c1 | c2, same_html * _FULL, shared)
    return np.where(same_tag, value, 0).astype(np.uint8)


def _fill_scores(sim: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The accumulated-similarity table, one row per ``S1`` node that has a non-zero similarity.

    Returns ``(scores, row_of)``: ``scores[row_of[i + 1], j + 1]`` is the score of prefixes
    ``S1[..i]``, ``S2[..j]``; row and column 0 are the empty prefixes. A row whose similarities are
    all zero leaves the scores as they were (``max(prev[j-1], prev[j], cur[j-1]) = prev[j]`` since
    rows never decrease), so it shares the previous row instead of storing a copy.
    """
    n, m = sim.shape
    active = sim.any(axis=1)
    dtype = np.uint16 if _FULL * min(n, m) < np.iinfo(np.uint16).max else np.uint32
    scores = np.zeros((int(active.sum()) + 1, m + 1), dtype=dtype)
    row_of = np.zeros(n + 1, dtype=np.int64)
    diag = np.empty(m, dtype=dtype)
    k = 0
    for i in range(n):
        if not active[i]:
            row_of[i + 1] = k
            continue
        prev, k = scores[k], k + 1
        np.add(prev[:-1], sim[i], out=diag)
        np.maximum(diag, prev[1:], out=diag)
        np.maximum.accumulate(diag, out=scores[k, 1:])
        row_of[i + 1] = k
    return scores, row_of


def _backtrack(sim: np.ndarray, scores: np.ndarray, row_of: np.ndarray, template_min: int
               ) -> np.ndarray:
    """Walk back from the last cell with the paper's tie order (pair, skip ``S2``, skip ``S1``);
    collect the ``S1`` positions skipped or paired below ``Ts``."""
    i, j = sim.shape[0] - 1, sim.shape[1] - 1
    out: list[int] = []
    while i >= 0 and j >= 0:
        here = scores[row_of[i + 1]]
        value = here[j + 1]
        if scores[row_of[i], j] + sim[i, j] == value:
            if sim[i, j] < template_min:
                out.append(i)
            i, j = i - 1, j - 1
        elif here[j] == value:
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
    return np.concatenate(([0.0], np.cumsum(nodes.seg_len, dtype=float)))


def _count_content_tags(nodes: NodeTable, row: int, end: int) -> int:
    return sum(1 for t in nodes.tag[row:end] if t in CONTENT_TAGS)
