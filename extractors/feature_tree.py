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

_CONTENT_TAG_IDS = np.array(sorted(hash(t) for t in CONTENT_TAGS), dtype=np.int64)


@dataclass(slots=True)
class FeatureTree:
    """Feature columns in level order (``order[k]`` is the node-table row of sequence item ``k``).

    Level order keeps each node's children contiguous and ``parent_pos`` non-decreasing, so the
    children of position ``k`` are positions ``child_start[k] .. child_start[k] + child_count[k]``.
    """

    order: np.ndarray        # int32 node-table rows, breadth-first
    position: np.ndarray     # int32, node-table row -> sequence index
    tag: np.ndarray          # int64 tag ids
    parent_pos: np.ndarray   # int32 sequence index of the parent, -1 for body
    content: np.ndarray      # bool, content node (definition 4)
    fingerprint: np.ndarray  # int64 innerHTML fingerprint (content nodes; 0 otherwise)
    features: np.ndarray     # int64 (n, 7): id, class, depth, width, height, left, top
    child_start: np.ndarray  # int64, first child's position
    child_count: np.ndarray  # int64, number of element children

    def __len__(self) -> int:
        return len(self.order)


def build_feature_tree(nodes: NodeTable) -> FeatureTree:
    """Level-order feature columns of ``nodes``.

    Tags, ids and classes become their string hashes (Python's ``hash``, 64 bits, fixed within a
    process), so two trees built in one process compare by integer equality without a shared
    dictionary; a collision between two different names has a chance of about 2**-64 per pair.
    """
    n = len(nodes)
    order = np.argsort(nodes.depth, kind="stable").astype(np.int32)
    position = np.empty(n, dtype=np.int32)
    position[order] = np.arange(n, dtype=np.int32)
    rate = np.divide(nodes.own_text, nodes.text, out=np.zeros(n), where=nodes.text > 0)
    tags = _ids(nodes.tag)
    content = np.isin(tags, _CONTENT_TAG_IDS) | (rate > CONTENT_TEXT_RATE)
    parent_pos = np.where(nodes.parent >= 0, position[np.maximum(nodes.parent, 0)], -1)[order]
    sequence = np.arange(n)
    child_start = np.searchsorted(parent_pos, sequence, side="left")
    child_count = np.searchsorted(parent_pos, sequence, side="right") - child_start
    sibling_index = sequence - np.searchsorted(parent_pos, parent_pos, side="left")
    columns = np.stack([
        _ids(nodes.ident)[order], _ids(nodes.classes)[order], nodes.depth[order].astype(np.int64),
        nodes.n_children[order].astype(np.int64), _half_octaves(nodes.text)[order], sibling_index,
        _half_octaves(_text_before(nodes))[order],
    ], axis=1)
    fingerprint = _fingerprints(nodes, tags, content)[order]
    return FeatureTree(order, position, tags[order], parent_pos.astype(np.int32), content[order],
                       fingerprint, columns, child_start, child_count)


def _ids(values: list[str]) -> np.ndarray:
    return np.fromiter(map(hash, values), dtype=np.int64, count=len(values))


def _half_octaves(values: np.ndarray) -> np.ndarray:
    return np.rint(2 * np.log2(1 + values.astype(np.float64))).astype(np.int64)


def _text_before(nodes: NodeTable) -> np.ndarray:
    """Characters of text before each row's first segment, in document order."""
    csum = np.concatenate(([0], np.cumsum(nodes.seg_len)))
    return csum[nodes.seg_lo]


_BASE = np.uint64(0x9E3779B97F4A7C15)  # odd, so invertible mod 2**64
_BASE_INVERSE = np.uint64(pow(int(_BASE), -1, 2**64))
_MIX = np.uint64(0xBF58476D1CE4E5B9)


def _fingerprints(nodes: NodeTable, tags: np.ndarray, content: np.ndarray) -> np.ndarray:
    """innerHTML fingerprints of the content rows (0 elsewhere): text segments and tag sequence."""
    text = _range_hash(_ids(nodes.seg_text), nodes.seg_lo, nodes.seg_hi)
    tags = np.where(tags == 0, 1, tags)  # hash("") is 0: an untagged node (comment) still counts
    subtree_tags = _range_hash(tags, np.arange(len(nodes)) + 1, nodes.end.astype(np.int64) + 1)
    out = (text * _MIX) ^ subtree_tags
    out[~content] = 0
    return out.view(np.int64)


def _range_hash(values: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``sum(values[k] * BASE**(k - lo))`` over ``lo <= k < hi``, mod 2**64, for every range."""
    h = values.view(np.uint64)
    powers = np.concatenate(([np.uint64(1)], np.cumprod(np.full(len(h), _BASE, dtype=np.uint64))))
    inverse = np.concatenate(([np.uint64(1)],
                              np.cumprod(np.full(len(h), _BASE_INVERSE, dtype=np.uint64))))
    sums = np.concatenate(([np.uint64(0)], np.cumsum(h * powers[:-1], dtype=np.uint64)))
    return (sums[hi] - sums[lo]) * inverse[lo]
