"""The shared node table: one flat, numpy-backed row per element of the page body, in document order.

Built in a single pass over the parsed tree; every extractor (attenuation, and later DWSIE, SVM and LCS
features) reads it instead of walking the tree again. Text is kept as *segments*: each ``el.text`` and
each ``el.tail`` is one segment, owned by the element whose content it is (a tail belongs to the parent),
flagged when it sits inside a link, and flagged when a block boundary precedes it. Lengths count
characters after stripping the segment's surrounding whitespace.

Subtrees are contiguous: the subtree of row ``i`` is rows ``i .. end[i]`` inclusive, so subtree sums are
differences of a cumulative sum.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from lxml import etree

__all__ = ["BLOCK_TAGS", "NodeTable", "build_node_table"]

#: Elements whose start and end break the text flow (a newline in the extracted text).
BLOCK_TAGS = frozenset(
    "address article aside blockquote br center dd details dialog dir div dl dt fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre section summary "
    "table tbody td tfoot th thead tr ul".split()
)


@dataclass(slots=True)
class NodeTable:
    """Columns of per-element facts (``n`` rows) and per-segment text (``m`` segments)."""

    elements: list            # lxml elements, row order (read-only use)
    tag: list[str]
    parent: np.ndarray        # int32, -1 for the root row
    depth: np.ndarray         # int16, 0 for the root row
    end: np.ndarray           # int32, last row of the subtree
    own_text: np.ndarray      # int32, characters of the row's own segments
    own_link_text: np.ndarray  # int32, of those, characters inside an <a>
    text: np.ndarray          # int64, subtree characters
    link_text: np.ndarray     # int64, subtree characters inside links
    links: np.ndarray         # int32, <a> elements in the subtree (the row itself included)
    n_children: np.ndarray    # int32, element children
    seg_text: list[str]
    seg_owner: np.ndarray     # int32 row owning each segment
    seg_in_link: np.ndarray   # bool
    seg_break: np.ndarray     # bool, a block boundary precedes the segment

    def __len__(self) -> int:
        return len(self.tag)

    @property
    def nonlink_text(self) -> np.ndarray:
        """``Lc``: subtree characters that are not inside a link."""
        return self.text - self.link_text

    def children(self, row: int) -> np.ndarray:
        """Rows of the element children of ``row``, in document order."""
        stop = int(self.end[row]) + 1
        inside = np.arange(row + 1, stop)
        return inside[self.parent[row + 1:stop] == row]

    def subtree_mask(self, row: int) -> np.ndarray:
        mask = np.zeros(len(self.tag), dtype=bool)
        mask[row:int(self.end[row]) + 1] = True
        return mask

    def path(self, row: int) -> str:
        """The tag path from the table's root to ``row`` (``body.div.div.article``)."""
        steps = []
        while row >= 0:
            steps.append(self.tag[row])
            row = int(self.parent[row])
        return ".".join(reversed(steps))


def build_node_table(root: etree._Element) -> NodeTable:
    """Walk ``root`` once (start/end events) and fill the table. Non-element nodes are skipped."""
    b = _Builder()
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            b.start(el)
        else:
            b.finish(el)
    return b.table()


class _Builder:
    """Accumulates rows and segments from iterwalk events; lists first, numpy arrays at the end."""

    def __init__(self) -> None:
        self.elements: list = []
        self.tag: list[str] = []
        self.parent: list[int] = []
        self.depth: list[int] = []
        self.end: list[int] = []
        self.seg_text: list[str] = []
        self.seg_owner: list[int] = []
        self.seg_in_link: list[bool] = []
        self.seg_break: list[bool] = []
        self.stack: list[int] = []
        self.links = 0
        self.pending_break = True

    def start(self, el) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        row = len(self.tag)
        self.elements.append(el)
        self.tag.append(tag)
        self.parent.append(self.stack[-1] if self.stack else -1)
        self.depth.append(len(self.stack))
        self.end.append(row)
        self.stack.append(row)
        if tag == "a":
            self.links += 1
        if tag in BLOCK_TAGS:
            self.pending_break = True
        self._segment(el.text, row)

    def finish(self, el) -> None:
        row = self.stack.pop()
        self.end[row] = len(self.tag) - 1
        tag = self.tag[row]
        if tag == "a":
            self.links -= 1
        if tag in BLOCK_TAGS:
            self.pending_break = True
        if self.stack:
            self._segment(el.tail, self.stack[-1])

    def _segment(self, text: str | None, owner: int) -> None:
        if not text or text.isspace():
            return
        self.seg_text.append(text)
        self.seg_owner.append(owner)
        self.seg_in_link.append(self.links > 0)
        self.seg_break.append(self.pending_break)
        self.pending_break = False

    def table(self) -> NodeTable:
        n = len(self.tag)
        parent = np.asarray(self.parent, dtype=np.int32)
        end = np.asarray(self.end, dtype=np.int32)
        owner = np.asarray(self.seg_owner, dtype=np.int32)
        in_link = np.asarray(self.seg_in_link, dtype=bool)
        lengths = np.fromiter((len(t.strip()) for t in self.seg_text), dtype=np.int64,
                              count=len(self.seg_text))
        own = np.bincount(owner, weights=lengths, minlength=n).astype(np.int64)
        own_link = np.bincount(owner[in_link], weights=lengths[in_link], minlength=n).astype(np.int64)
        n_children = np.bincount(parent[parent >= 0], minlength=n).astype(np.int32)
        return NodeTable(
            elements=self.elements, tag=self.tag, parent=parent,
            depth=np.asarray(self.depth, dtype=np.int16), end=end,
            own_text=own.astype(np.int32), own_link_text=own_link.astype(np.int32),
            text=_subtree_sum(own, end), link_text=_subtree_sum(own_link, end),
            links=_subtree_sum(np.fromiter((t == "a" for t in self.tag), dtype=np.int64, count=n),
                               end).astype(np.int32),
            n_children=n_children, seg_text=self.seg_text, seg_owner=owner,
            seg_in_link=in_link, seg_break=np.asarray(self.seg_break, dtype=bool),
        )


def _subtree_sum(values: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Sum of ``values`` over each row's subtree (rows ``i .. end[i]``), via one cumulative sum."""
    csum = np.concatenate(([0], np.cumsum(values)))
    return csum[end + 1] - csum[np.arange(len(end))]
