"""Template-noise removal by LCS feature-tree similarity matching (paper 003; algorithms.md section 4).

The target page and a same-template sibling become feature trees, then level-order sequences ``S1``
(target) and ``S2`` (sibling). A table holds, for every pair of prefixes, the largest accumulated
similarity of a matching; backtracking from its last cell marks the target nodes that only the target
has (an ``S1`` node skipped) or that pair with a dissimilar node (similarity below ``Ts``): the candidate
content. Candidates are clustered by tree position and the clusters scored on six indicators; the best
cluster and those close to it are the content.

Implementation notes:

- Similarities are multiples of 1/7 (the share of 7 equal features, or 0, or 1), so they are kept as
  integer numerators 0..7 and accumulated in integers: ties are exact. ``Ts`` is 2/7 (the sweep is
  beside :data:`SIMILARITY_THRESHOLD`; ``newscrawl eval --lcs-ts K`` reruns it).
- One generation of comparisons is one numpy equality count over 7 keys per node, a column at a
  time (the features mixed with the tag; content nodes keyed by their innerHTML fingerprint), see
  :func:`_comparison_keys`.
- The similarity matrix is sparse: a pair is non-zero only if its parents are similar, all the way
  up to body, so only pairs of nodes at the same depth, children of similar pairs, are ever
  compared (a few cells per row on real pages). Nothing of size ``N·M`` is built: the table
  ``S(i, j) = max(S(i-1, j-1) + sim[i, j], S(i, j-1), S(i-1, j))`` is the heaviest chain of
  non-zero cells strictly increasing in both indices, computed cell by cell with a staircase
  (:func:`_chain_scores`), and the backtracking walks the same path as the cell-by-cell one, in
  strides between paired cells (:func:`_backtrack`). Time and memory grow with the number of
  compared pairs, not with ``N·M``. Very large or list-heavy pages: a pair beyond ``MAX_PAIRS``
  compared pairs or ``MAX_CELLS`` non-zero cells is not matched (``Denoised.reason`` says "too
  large to match" with the counts) and the caller falls back to attenuation alone; below the caps
  memory stays in the tens of MB (``newscrawl bench --lcs-scaling`` measures it by tree size).
- Orientation: rows follow ``S1``, columns ``S2``. The paper's tie order (pair, then the direction that
  skips an ``S2`` node, then the one that skips an ``S1`` node) is kept.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

import numpy as np

from extractors.feature_tree import CONTENT_TAGS, FeatureTree, build_feature_tree
from extractors.nodetable import NodeTable

__all__ = ["MAX_CELLS", "MAX_PAIRS", "SIMILARITY_THRESHOLD", "Denoised", "TooLarge", "denoise",
           "match_trees", "page_feature_tree"]

#: ``Ts``: pairs at or above it are template (and children are compared only under pairs above
#: it). The paper gives no value. Chosen 2/7 by a sweep of ``newscrawl eval big9 cx_163
#: cleanportaleval --method lcs --lcs-ts K`` (K = 1..6; every page; CleanEval gold normalised),
#: one value for all sets, best mean body F1 (shingle F1; cx_163 CJK-aware in brackets):
#:
#:   Ts    big9    cx_163          cleanportaleval   mean
#:   1/7   0.908   0.865 (0.925)   0.903             0.892
#:   2/7   0.909   0.865 (0.925)   0.942             0.906   <- chosen
#:   3/7   0.906   0.865 (0.925)   0.942             0.904
#:   4/7   0.910   0.861 (0.923)   0.924             0.898   (the earlier provisional value)
#:   5/7   0.908   0.857 (0.920)   0.919             0.895
#:   6/7   0.913   0.821 (0.880)   0.905             0.880
#:   attenuation alone: 0.903, 0.838 (0.905), 0.905
SIMILARITY_THRESHOLD = 2 / 7
#: Node pairs compared (children of similar pairs) above which matching is refused: bounds the
#: time of the similarity step (numpy, ~0.2 µs a pair) on huge or list-heavy pages. Pairs are
#: compared in batches of ``_CHUNK`` (one parent pair's children at least, so a single pair of
#: parents with c1 x c2 children costs ~150 bytes per child pair at once).
MAX_PAIRS = 2_000_000
#: Non-zero similarities above which matching is refused (checked as they are found): the chain
#: step is a Python loop over them (~1 µs and ~100 bytes each), so this bounds it to ~0.3 s and
#: ~25 MB. Set from wcxb_dev: the largest same-group pairs we match have ~50k; rei.com product
#: lists (5-6k nodes, ~900k similar pairs) are refused.
MAX_CELLS = 200_000
#: Node pairs compared in one numpy batch (~150 bytes each while compared).
_CHUNK = 1 << 15
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
            max_pairs: int = MAX_PAIRS, max_cells: int = MAX_CELLS,
            sibling_tree: FeatureTree | None = None) -> Denoised:
    """Find the target's content by matching it against ``sibling`` (a page of the same template).

    ``threshold`` is ``Ts``; None reads :data:`SIMILARITY_THRESHOLD` at call time (``newscrawl eval
    --lcs-ts`` sets it for a sweep). ``sibling_tree``: the sibling's feature tree when the caller
    has it already (:func:`page_feature_tree`); built here otherwise."""
    threshold = SIMILARITY_THRESHOLD if threshold is None else threshold
    t1 = build_feature_tree(target)
    t2 = build_feature_tree(sibling) if sibling_tree is None else sibling_tree
    try:
        candidates = match_trees(t1, t2, threshold, max_pairs, max_cells)
    except TooLarge as exc:
        return Denoised(None, reason=f"too large to match ({len(target)}x{len(sibling)} nodes: "
                                     f"{exc})")
    rows = t1.order[candidates]
    rows = rows[target.text[rows] > 0]
    if len(rows) == 0:
        return Denoised(None, reason="the sibling has every node of the target")
    chosen = _choose_clusters(target, _cluster(target, _topmost(target, rows)))
    tops = np.fromiter((r for c in chosen for r in c), dtype=np.int64)  # disjoint subtrees
    edges = np.zeros(len(target) + 1, dtype=np.int64)
    np.add.at(edges, tops, 1)
    np.add.at(edges, target.end[tops].astype(np.int64) + 1, -1)
    keep = np.cumsum(edges[:-1]) > 0
    return Denoised(keep, chosen, len(rows))


def page_feature_tree(page) -> FeatureTree:
    """:func:`build_feature_tree` of ``page.nodes``, built once per page (kept in
    ``page.memo``; nothing changes a feature tree once built): a sibling serves every page of
    its template, and the crawl keeps it parsed (its parsed-sibling cache), so its tree is built
    once instead of once per page compared with it (0.3-0.5 ms a page at big9's median page,
    about twice that at cx_163's; ~100 bytes a node while the sibling is kept)."""
    tree = page.memo.get("feature_tree")
    if tree is None:
        tree = page.memo["feature_tree"] = build_feature_tree(page.nodes)
    return tree


def match_trees(t1: FeatureTree, t2: FeatureTree, threshold: float = SIMILARITY_THRESHOLD,
                max_pairs: int = MAX_PAIRS, max_cells: int = MAX_CELLS) -> np.ndarray:
    """Sequence indices of ``t1`` that backtracking marks as candidates (only in, or unlike, t2).

    Raises :class:`TooLarge` when the pair needs more than ``max_pairs`` node comparisons or has
    more than ``max_cells`` non-zero similarities.
    """
    if not 0 < threshold <= 1:
        raise ValueError(f"Ts must be in (0, 1], got {threshold}")
    rows, cols, sims, starts = _similar_cells(t1, t2, threshold, max_pairs, max_cells)
    template_min = int(np.ceil(threshold * _FULL - 1e-9))
    candidate = np.ones(len(t1), dtype=bool)
    candidate[_backtrack(rows, cols, sims, starts, len(t1), len(t2), template_min)] = False
    return np.flatnonzero(candidate)


class TooLarge(Exception):
    """The pair would cost more than the caps allow; the caller falls back without LCS."""


def _similar_cells(t1: FeatureTree, t2: FeatureTree, threshold: float, max_pairs: int,
                   max_cells: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """The non-zero cells of ``CompareTwoCNode``: rows, columns and numerators over 7, row-major,
    and where each row's cells start (then the cell count).

    A pair can only be non-zero when its parents are similar (rule 3), so cells are found from the
    similar pairs downwards: the children of each similar pair ``(p, q)`` are compared, all pairs
    of one generation at once. Level order keeps each node's children contiguous, which turns
    "children of p" into a range. Every pair is visited at most once (its parents' pair is unique).
    """
    if len(t1) == 0 or len(t2) == 0 or t1.tag[0] != t2.tag[0]:
        return [], [], [], [0]
    parent_min = int(np.ceil(threshold * _FULL - 1e-9))  # parents similar: sim > Ts (def. 6)
    keys1, keys2 = _comparison_keys(t1), _comparison_keys(t2)
    kids1 = np.column_stack((t1.child_start, t1.child_count))
    kids2 = np.column_stack((t2.child_start, t2.child_count))
    found_i, found_j = [np.zeros(1, np.int64)], [np.zeros(1, np.int64)]
    found_v = [np.full(1, _FULL, np.int64)]  # rule 2: body against body
    p, q, compared, cells = found_i[0], found_j[0], 1, 1
    while len(p):
        k1, k2 = kids1[p], kids2[q]
        sizes = k1[:, 1] * k2[:, 1]
        compared += int(sizes.sum())
        if compared > max_pairs:
            raise TooLarge(f"over {max_pairs} node pairs to compare")
        next_p, next_q = [p[:0]], [q[:0]]
        for lo, hi in _batches(sizes):
            i, j = _child_pairs(k1[lo:hi], k2[lo:hi], sizes[lo:hi])
            values = _equal_columns(keys1, keys2, i, j)
            nonzero, similar = values > 0, values > parent_min
            found_i.append(i[nonzero]), found_j.append(j[nonzero]), found_v.append(values[nonzero])
            next_p.append(i[similar]), next_q.append(j[similar])
            cells += len(found_i[-1])
            if cells > max_cells:
                raise TooLarge(f"over {max_cells} similar node pairs")
        p, q = np.concatenate(next_p), np.concatenate(next_q)
    i, j, v = np.concatenate(found_i), np.concatenate(found_j), np.concatenate(found_v)
    order = np.lexsort((j, i))
    i = i[order]
    starts = np.r_[0, np.flatnonzero(i[1:] != i[:-1]) + 1, len(i)]
    return i.tolist(), j[order].tolist(), v[order].tolist(), starts.tolist()


def _batches(sizes: np.ndarray) -> list[tuple[int, int]]:
    """Runs of parent pairs with about ``_CHUNK`` child pairs each (one pair alone when its own
    children exceed it), so a generation's pair lists stay small."""
    ends = np.cumsum(sizes)
    out, lo = [], 0
    while lo < len(sizes):
        before = int(ends[lo - 1]) if lo else 0
        hi = max(lo + 1, int(np.searchsorted(ends, before + _CHUNK, side="right")))
        out.append((lo, hi))
        lo = hi
    return out


def _child_pairs(k1: np.ndarray, k2: np.ndarray, sizes: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """All (child of p[k], child of q[k]) pairs, for every k, as two flat arrays; ``k1``, ``k2``
    hold the first child and the child count of each ``p[k]`` and ``q[k]``."""
    pair = np.repeat(np.arange(len(sizes)), sizes)
    offset = np.arange(len(pair)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    across, down = np.divmod(offset, k2[pair, 1])
    return k1[pair, 0] + across, k2[pair, 0] + down


def _equal_columns(keys1: np.ndarray, keys2: np.ndarray, i: np.ndarray, j: np.ndarray
                   ) -> np.ndarray:
    """How many of the 7 key columns are equal for each pair ``(i[k], j[k])``: one gather and
    compare per column of the column-major keys, counted in bytes. Gathering whole ``(n, 7)``
    rows and summing booleans to int64 cost 10x as much on a batch of 20 000 pairs; over the
    small batches of real pairs the similarity step is about 15 % faster (cx_163, big9)."""
    values = (keys1[0].take(i) == keys2[0].take(j)).view(np.uint8)
    for column in range(1, keys1.shape[0]):
        values += keys1[column].take(i) == keys2[column].take(j)
    return values


#: Odd 64-bit multipliers that give each of the 7 feature columns its own mix of the tag, and
#: the salt that keeps a content node's key apart from every plain feature value.
_COLUMN_MIX = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                        0xD6E8FEB86659FD93, 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53,
                        0x94D049BB133111EB], dtype=np.uint64)
_CONTENT_SALT = np.uint64(0x2545F4914F6CDD1D)


def _comparison_keys(tree: FeatureTree) -> np.ndarray:
    """``(7, n)`` keys (column-major) such that, for two nodes whose parents are similar, the
    number of equal columns is ``CompareTwoCNode`` (rules 1, 4–6): each column is the feature
    mixed with the tag (different tags: no column equal), and a content node's columns all come
    from its innerHTML fingerprint instead (two content nodes: 7 when the fingerprints agree,
    else 0; a content node against a plain one: 0). Keys are 64-bit mixes, so a false equality
    has odds of about 2**-64 a column, the same order as the hashes the feature tree already
    compares."""
    tag = tree.tag.view(np.uint64)[:, None] * _COLUMN_MIX
    content_key = ((tree.fingerprint.view(np.uint64) ^ _CONTENT_SALT)[:, None] * _COLUMN_MIX
                   ) ^ _CONTENT_SALT
    plain = tree.features.view(np.uint64)
    # column-major: :func:`_equal_columns` gathers one column at a time
    return np.ascontiguousarray((np.where(tree.content[:, None], content_key, plain) ^ tag).T)


def _chain_scores(rows: list[int], cols: list[int], sims: list[int], starts: list[int]
                  ) -> list[int]:
    """For each non-zero cell, the score of the best matching that pairs it last:
    ``sim + S(i-1, j-1)``, where ``S`` is the accumulated-similarity table of the paper.

    ``S(i-1, j-1)`` is the best score over cells strictly above and left, so rows are taken in
    order (``starts``: each row's first cell, then ``len(rows)``) and a staircase (the columns
    where the best score so far rises, and that score) answers it by bisection; a row's cells are
    all scored before any of them enters the staircase.
    """
    stair_cols: list[int] = [-1]  # a sentinel column scoring 0 spares the empty-prefix tests
    stair_vals: list[int] = [0]
    scores = [0] * len(rows)
    left, right = bisect_left, bisect_right
    for start, stop in zip(starts, starts[1:]):
        for k in range(start, stop):
            scores[k] = sims[k] + stair_vals[left(stair_cols, cols[k]) - 1]
        for k in range(start, stop):
            col, score = cols[k], scores[k]
            at = right(stair_cols, col)
            if stair_vals[at - 1] >= score:
                continue
            first = at - 1 if stair_cols[at - 1] == col else at
            last = right(stair_vals, score, at)
            stair_cols[first:last] = (col,)
            stair_vals[first:last] = (score,)
    return scores


def _backtrack(rows: list[int], cols: list[int], sims: list[int], starts: list[int], n: int,
               m: int, template_min: int) -> list[int]:
    """The rows the paper's backtracking pairs with a template-like node (similarity >= Ts).

    The walk is the cell-by-cell one (from the last cell; pair, else skip an ``S2`` node, else
    skip an ``S1`` node), taken in strides: with ``v = S(i, j)`` and ``A`` the cells that score
    exactly ``v``, it goes diagonally (pairing dissimilar nodes) while ``S(i-1, j-1) = v``, i.e.
    ``min(i - a_i, j - a_j)`` steps for the best ``a`` in ``A``; then left along that row to the
    rightmost cell of ``A`` in it, or, if none, to the first column of ``A`` reached from this row
    and up to the lowest cell of ``A`` in that column. That cell is paired (when ``A`` has one
    cell, it is that one) and ``v`` drops by its similarity; at ``v = 0`` every row left is a
    candidate. Every other row is skipped or paired below ``Ts``.
    """
    if not rows:
        return []
    scores = np.asarray(_chain_scores(rows, cols, sims, starts))
    order = np.argsort(scores, kind="stable")  # by score, row-major within a score
    ranked = scores[order]
    first = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
    span = dict(zip(ranked[first].tolist(), zip(first.tolist(), np.r_[first[1:], len(ranked)]
                                                 .tolist())))
    cell_order = order.tolist()
    matched: list[int] = []
    i, j, value = n - 1, m - 1, int(ranked[-1])
    while value > 0:
        lo, hi = span[value]
        k = cell_order[lo] if hi - lo == 1 else _paired_cell(rows, cols, cell_order[lo:hi], i, j)
        if sims[k] >= template_min:
            matched.append(rows[k])
        i, j, value = rows[k] - 1, cols[k] - 1, value - sims[k]
    return matched


def _paired_cell(rows: list[int], cols: list[int], cells: list[int], i: int, j: int) -> int:
    """Which of the equally scored ``cells`` (in row-major order) the walk from ``(i, j)`` pairs
    (see :func:`_backtrack`): plain loops, as the groups are a handful of cells."""
    step = -len(rows) - 2
    for k in cells:
        down, across = i - rows[k], j - cols[k]
        if min(down, across) > step:
            step = min(down, across)
    r, c = i - step, j - step
    pick, column = -1, len(cols) + 2 + j
    for k in cells:
        row, col = rows[k], cols[k]
        if row == r and col <= c:
            pick = k  # row-major: the last one is the rightmost
        if row <= r and col < column:
            column = col
    if pick >= 0:
        return pick
    return next(k for k in reversed(cells) if cols[k] == column and rows[k] < r)


def _topmost(nodes: NodeTable, rows: np.ndarray) -> np.ndarray:
    """Candidates whose ancestors are not candidates (paper 003, section 2.4)."""
    rows = np.sort(rows)
    # subtrees nest or are disjoint: a row is inside an earlier candidate's subtree exactly when
    # it is not past the furthest subtree end seen before it
    reach = np.maximum.accumulate(nodes.end[rows].astype(np.int64))
    return rows[np.r_[True, rows[1:] > reach[:-1]]].astype(np.int64)


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
    indicators = _indicators(nodes, clusters)
    scores = np.zeros(len(clusters))
    for column in range(indicators.shape[1]):
        sign = -1 if column == 4 else 1  # link rate penalises
        ranked = np.argsort(-indicators[:, column], kind="stable")
        for rank, idx in enumerate(ranked[:len(RANK_POINTS)]):
            if indicators[idx, column] > 0:
                scores[idx] += sign * RANK_POINTS[rank]
    best = scores.max()
    return [c for c, s in zip(clusters, scores) if s >= best - CLOSE_SCORE_MARGIN]


def _indicators(nodes: NodeTable, clusters: list[list[int]]) -> np.ndarray:
    """Per cluster (one row each): text length, area, effective area, content tags, link rate,
    text-to-code ratio (proxies), summed over the cluster's subtrees."""
    rows = np.fromiter((r for c in clusters for r in c), dtype=np.int64)
    label = np.repeat(np.arange(len(clusters)), [len(c) for c in clusters])

    def per_cluster(values: np.ndarray) -> np.ndarray:
        return np.bincount(label, weights=values, minlength=len(clusters))

    ends = nodes.end[rows] + 1
    text, elements = per_cluster(nodes.text[rows]), per_cluster(ends - rows)
    total = max(1.0, float(nodes.text[0]))
    before = np.concatenate(([0.0], np.cumsum(nodes.seg_len, dtype=float)))[nodes.seg_lo[rows]]
    lo, hi = MAIN_AREA[0] * total, MAIN_AREA[1] * total
    overlap = np.clip(np.minimum(before + nodes.text[rows], hi) - np.maximum(before, lo), 0, None)
    is_content = np.fromiter(map(CONTENT_TAGS.__contains__, nodes.tag), dtype=bool,
                             count=len(nodes))
    tags_before = np.concatenate(([0], np.cumsum(is_content)))
    link_rate = np.divide(per_cluster(nodes.link_text[rows]), text, out=np.zeros(len(clusters)),
                          where=text > 0)
    ratio = np.divide(text, elements, out=np.zeros(len(clusters)), where=elements > 0)
    return np.stack([text, text + elements, per_cluster(overlap),
                     per_cluster(tags_before[ends] - tags_before[rows]), link_rate, ratio], axis=1)
