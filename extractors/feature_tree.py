"""The feature tree of paper 003 (CTree of CNodes), as columns derived from the shared node table.

Each feature node carries the paper's features: tag, id, class name, parent, depth, the rendered box
(width, height, top, left), an ``innerHTML`` fingerprint, ``innerText`` length and ``textRate``.

No browser renders the page, so the box is replaced by layout proxies computed from the tree
(algorithms.md section 4 asks us to say which):

- ``width``  ~ the number of element children (how many blocks sit side by side or stacked inside);
- ``height`` ~ the subtree's text length, on a half-octave scale (``round(2·log2(1 + chars))``);
- ``top``    ~ the characters of text before the node in document order, on the same scale;
- ``left``   ~ the node's position among its parent's element children.

The half-octave scale makes two template blocks compare equal when their text differs by a few
characters (a date, a counter) and unequal when one holds an article and the other a teaser.

``innerHTML`` equality of content nodes is tested on a fingerprint: a hash of the subtree's tag
sequence and its text, which is what innerHTML holds once scripts and comments are gone. The hash is
polynomial (mod 2**64) over the segments and the rows of the subtree; subtrees are contiguous ranges,
so every node's fingerprint comes from two cumulative sums instead of a string join per node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from extractors.nodetable import NodeTable

__all__ = ["CONTENT_TAGS", "CONTENT_TEXT_RATE", "FeatureTree", "build_feature_tree"]

#: Paper 003, definition 3: tags that usually show content.
CONTENT_TAGS = frozenset({"p", "span", "b", "strong", "h1", "h2", "h3", "h4", "h5", "h6"})
#: Paper 003, definition 4: a node whose own text is over 75 % of its subtree text is a content node.
CONTENT_TEXT_RATE = 0.75


@dataclass(slots=True)
class FeatureTree:
    """Feature columns in level order (``order[k]`` is the node-table row of sequence item ``k``)."""

    order: np.ndarray       # int32 node-table rows, breadth-first
    position: np.ndarray    # int32, node-table row -> sequence index
    tag: np.ndarray         # int32 interned tag ids
    parent_pos: np.ndarray  # int32 sequence index of the parent, -1 for body
    content: np.ndarray     # bool, content node (definition 4)
    fingerprint: np.ndarray  # int64 innerHTML fingerprint (content nodes; 0 otherwise)
    features: np.ndarray    # int64 (n, 7): id, class, depth, width, height, left, top


def build_feature_tree(nodes: NodeTable, vocabulary: dict[str, int]) -> FeatureTree:
    """Level-order feature columns of ``nodes``; ``vocabulary`` interns tags, ids and classes so two
    pages built with the same dictionary compare by integer equality."""
    n = len(nodes)
    order = np.lexsort((np.arange(n), nodes.depth)).astype(np.int32)
    position = np.empty(n, dtype=np.int32)
    position[order] = np.arange(n, dtype=np.int32)
    rate = np.divide(nodes.own_text, nodes.text, out=np.zeros(n), where=nodes.text > 0)
    is_content_tag = np.fromiter((t in CONTENT_TAGS for t in nodes.tag), dtype=bool, count=n)
    content = is_content_tag | (rate > CONTENT_TEXT_RATE)
    columns = np.stack([
        _intern(nodes.ident, vocabulary, "id:"), _intern(nodes.classes, vocabulary, "class:"),
        nodes.depth.astype(np.int64), nodes.n_children.astype(np.int64),
        _half_octaves(nodes.text), _sibling_index(nodes), _half_octaves(_text_before(nodes)),
    ], axis=1)[order]
    parent_pos = np.where(nodes.parent >= 0, position[np.maximum(nodes.parent, 0)], -1)[order]
    fingerprint = _fingerprints(nodes, content)[order]
    tags = _intern(nodes.tag, vocabulary, "tag:")[order].astype(np.int32)
    return FeatureTree(order, position, tags, parent_pos.astype(np.int32), content[order],
                       fingerprint, columns)


def _intern(values: list[str], vocabulary: dict[str, int], prefix: str) -> np.ndarray:
    ids = [vocabulary.setdefault(prefix + v, len(vocabulary)) for v in values]
    return np.asarray(ids, dtype=np.int64)


def _half_octaves(values: np.ndarray) -> np.ndarray:
    return np.rint(2 * np.log2(1 + values.astype(np.float64))).astype(np.int64)


def _text_before(nodes: NodeTable) -> np.ndarray:
    """Characters of text before each row's first segment, in document order."""
    csum = np.concatenate(([0], np.cumsum(nodes.seg_len)))
    return csum[nodes.seg_lo]


def _sibling_index(nodes: NodeTable) -> np.ndarray:
    """Position of each row among its parent's element children (0 for the first child)."""
    n = len(nodes)
    index = np.zeros(n, dtype=np.int64)
    by_parent = np.lexsort((np.arange(n), nodes.parent))
    parents = nodes.parent[by_parent]
    starts = np.r_[0, np.flatnonzero(parents[1:] != parents[:-1]) + 1]
    run = np.arange(n) - np.repeat(starts, np.diff(np.r_[starts, n]))
    index[by_parent] = run
    return index


_BASE = np.uint64(0x9E3779B97F4A7C15)  # odd, so invertible mod 2**64
_BASE_INVERSE = np.uint64(pow(int(_BASE), -1, 2**64))
_MIX = np.uint64(0xBF58476D1CE4E5B9)


def _fingerprints(nodes: NodeTable, content: np.ndarray) -> np.ndarray:
    """innerHTML fingerprints of the content rows (0 elsewhere): text segments and tag sequence."""
    tag_ids: dict[str, int] = {}
    text = _range_hash([hash(t) for t in nodes.seg_text], nodes.seg_lo, nodes.seg_hi)
    tags = _range_hash([tag_ids.setdefault(t, len(tag_ids) + 1) for t in nodes.tag],
                       np.arange(len(nodes)) + 1, nodes.end.astype(np.int64) + 1)
    out = (text * _MIX) ^ tags
    out[~content] = 0
    return out.view(np.int64)


def _range_hash(values: list[int], lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``sum(values[k] * BASE**(k - lo))`` over ``lo <= k < hi``, mod 2**64, for every range."""
    h = np.asarray(values, dtype=np.int64).view(np.uint64) if values else np.zeros(0, np.uint64)
    powers = np.concatenate(([np.uint64(1)], np.cumprod(np.full(len(h), _BASE, dtype=np.uint64))))
    inverse = np.concatenate(([np.uint64(1)],
                              np.cumprod(np.full(len(h), _BASE_INVERSE, dtype=np.uint64))))
    sums = np.concatenate(([np.uint64(0)], np.cumsum(h * powers[:-1], dtype=np.uint64)))
    return (sums[hi] - sums[lo]) * inverse[lo]
