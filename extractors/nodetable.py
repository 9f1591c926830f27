"""The shared node table: one flat, numpy-backed row per element of the page body, in document order.

Built in a single pass over the parsed tree; every extractor (attenuation, and later DWSIE, SVM and LCS
features) reads it instead of walking the tree again. Text is kept as *segments*: each ``el.text`` and
each ``el.tail`` is one segment, owned by the element whose content it is (a tail belongs to the parent),
flagged when it sits inside a link, and flagged when a block boundary precedes it. Lengths count
characters after stripping the segment's surrounding whitespace. A whitespace-only text is not a
segment, but the word boundary it makes is kept: the next segment gets a leading space
(``<a><b>Fed statement</b></a> <b>to</b>`` reads "Fed statement to", not "Fed statementto").

Subtrees are contiguous: the subtree of row ``i`` is rows ``i .. end[i]`` inclusive, so subtree sums are
differences of a cumulative sum.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat

import numpy as np
from lxml import etree

__all__ = ["BLOCK_TAGS", "NodeTable", "build_node_table"]

#: A link that goes nowhere but to a script (``href="javascript:..."``) and wraps paragraphs is a
#: click handler around content, not a link: its text is not link text (readability does the
#: same: its js-link-replacement test page, F1 0 -> 1.0). Links to scripts without paragraphs
#: inside (foxnews.com's "E-mail story" buttons) stay links: counting every ``javascript:``
#: link's text as text brought 12 big9 pages' buttons back into their stories. Every page of
#: the nine body sets (2026-11-27): readability_testpages 0.9495 -> 0.9536, the eight others
#: unchanged on every page.
SCRIPT_LINK_PARAGRAPHS = True
#: Elements whose start and end break the text flow (a newline in the extracted text).
BLOCK_TAGS = frozenset(
    "address article aside blockquote br center dd details dialog dir div dl dt fieldset figcaption "
    "figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre section summary "
    "table tbody td tfoot th thead tr ul".split()
)
#: A row's code in :func:`_assemble`'s one pass over the tags: 1 a link, 2 a paragraph, else 0.
_LINK_OR_PARAGRAPH = {"a": 1, "p": 2}


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
    ident: list[str]          # the id attribute ("" when absent)
    classes: list[str]        # the class attribute ("" when absent)
    seg_lo: np.ndarray        # int32, first segment of the row's subtree
    seg_hi: np.ndarray        # int32, one past the last segment of the subtree (the row's tail excluded)
    seg_text: list[str]
    seg_owner: np.ndarray     # int32 row owning each segment
    seg_in_link: np.ndarray   # bool
    seg_break: np.ndarray     # bool, a block boundary precedes the segment
    seg_len: np.ndarray       # int64, characters of each segment after stripping its edges
    #: the rows of the ``<a>`` elements, in document order, and each one's ``href`` ("" when
    #: absent): read in the walk, while the element is at hand (the author-link and page-type
    #: steps read them; a second pass over the links' elements, cold by then, cost 0.19 ms a page
    #: on big9, 0.47 on cx_163's thousand links: median, CPU, in the chain)
    link_rows: list[int] = field(default_factory=list)
    link_href: list[str] = field(default_factory=list)
    #: ``nonlink_text`` once read (read-only): the chain's steps read it 13-65 times a page (a
    #: median 23, big9 and cx_163), each an n-row subtraction before
    _nonlink: np.ndarray | None = None
    #: :func:`extractors.attenuation.region_text`'s lines of each row mask it was asked (by
    #: the mask's bytes). They are read from the segment columns only, which :meth:`masked`'s
    #: copies share with the table: so do the lines kept (never written to once kept).
    _lines: dict = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.tag)

    @property
    def nonlink_text(self) -> np.ndarray:
        """``Lc``: subtree characters that are not inside a link (a read-only array)."""
        if self._nonlink is None:
            lc = self.text - self.link_text
            lc.flags.writeable = False
            self._nonlink = lc
        return self._nonlink

    def children(self, row: int) -> np.ndarray:
        """Rows of the element children of ``row``, in document order."""
        stop = int(self.end[row]) + 1
        inside = np.arange(row + 1, stop)
        return inside[self.parent[row + 1:stop] == row]

    def inner_text(self, row: int) -> str:
        """The subtree's text segments joined (``innerText`` without layout)."""
        return "".join(self.seg_text[self.seg_lo[row]:self.seg_hi[row]])

    def masked(self, keep: np.ndarray) -> NodeTable:
        """A copy whose text outside the rows in ``keep`` is gone (rows stay, so indices still agree):
        what a later step sees after a denoiser has removed template blocks."""
        seg_keep = keep[self.seg_owner]
        lengths = self.seg_len * seg_keep
        n = len(self.tag)
        own = np.bincount(self.seg_owner, weights=lengths, minlength=n).astype(np.int64)
        in_link = self.seg_in_link
        own_link = np.bincount(self.seg_owner[in_link], weights=lengths[in_link],
                               minlength=n).astype(np.int64)
        copy = NodeTable(**{name: getattr(self, name) for name in self.__slots__})
        copy._nonlink = None  # its text differs
        copy.own_text, copy.own_link_text = own.astype(np.int32), own_link.astype(np.int32)
        copy.text, copy.link_text = _subtree_sum(own, self.end), _subtree_sum(own_link, self.end)
        return copy

    def has_ancestor(self, row: int, tags: frozenset[str]) -> bool:
        """Whether an element above ``row`` (its parent, the parent's parent...) is one of
        ``tags``."""
        row = int(self.parent[row])
        while row >= 0:
            if self.tag[row] in tags:
                return True
            row = int(self.parent[row])
        return False

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
    """Walk ``root`` once (start/end events) and fill the table.

    The loop is written flat, with local names, because it is the one per-element Python loop of the
    whole chain (about as long as lxml's own parse).
    """
    elements: list = []
    tags: list[str] = []
    parent: list[int] = []
    depth: list[int] = []
    end: list[int] = []
    seg_text: list[str] = []
    seg_owner: list[int] = []
    seg_in_link: list[bool] = []
    seg_break: list[bool] = []
    ident: list[str] = []
    classes: list[str] = []
    seg_lo: list[int] = []
    seg_hi: list[int] = []
    link_rows: list[int] = []
    link_href: list[str] = []
    stack: list[int] = []
    links = 0
    pending_break = True
    pending_space = False  # a whitespace-only text was skipped since the last segment
    for event, el in etree.iterwalk(root, events=("start", "end")):
        if event == "start":
            tag = el.tag
            row = len(tags)
            elements.append(el)
            parent.append(stack[-1] if stack else -1)
            depth.append(len(stack))
            end.append(row)
            stack.append(row)
            if tag.__class__ is str:
                tags.append(tag)
                ident.append(el.get("id", ""))
                classes.append(el.get("class", ""))
                if tag == "a":
                    links += 1
                    link_rows.append(row)
                    link_href.append(el.get("href") or "")
                if tag in BLOCK_TAGS:
                    pending_break = True
            else:  # a comment or other non-element node: no name, no attributes
                tags.append("")
                ident.append("")
                classes.append("")
            seg_lo.append(len(seg_text))
            seg_hi.append(0)
            text = el.text
            owner = row
        else:
            row = stack.pop()
            end[row] = len(tags) - 1
            seg_hi[row] = len(seg_text)
            tag = tags[row]
            if tag == "a":
                links -= 1
            if tag in BLOCK_TAGS:
                pending_break = True
            if not stack:
                continue
            text = el.tail
            owner = stack[-1]
        if not text:
            continue
        if "\xad" in text:
            text = text.replace("\xad", "")  # soft hyphens: invisible break hints, not text
            if not text:
                continue
        if text.isspace():
            pending_space = True
            continue
        if pending_space and not text[0].isspace():
            text = " " + text  # keep the word boundary the skipped whitespace made
        seg_text.append(text)
        seg_owner.append(owner)
        seg_in_link.append(links > 0)
        seg_break.append(pending_break)
        pending_break = pending_space = False
    table = _assemble(elements, tags, parent, depth, end, seg_text, seg_owner, seg_in_link,
                      seg_break, ident, classes, seg_lo, seg_hi)
    table.link_rows, table.link_href = link_rows, link_href
    return table


def _assemble(elements, tags, parent, depth, end, seg_text, seg_owner, seg_in_link, seg_break,
              ident, classes, seg_lo, seg_hi) -> NodeTable:
    n = len(tags)
    parent_a = np.asarray(parent, dtype=np.int32)
    end_a = np.asarray(end, dtype=np.int32)
    owner = np.asarray(seg_owner, dtype=np.int32)
    in_link = np.asarray(seg_in_link, dtype=bool)
    # the links and the paragraphs from one pass over the tags (two ``map("a".__eq__, tags)``
    # passes took 0.086 ms, this one 0.042: median of big9's first 80 pages and cx_163's 74)
    codes = np.fromiter(map(_LINK_OR_PARAGRAPH.get, tags, repeat(0)), dtype=np.int8, count=n)
    is_a = (codes == 1).astype(np.int64)
    if SCRIPT_LINK_PARAGRAPHS and in_link.any():
        is_p = (codes == 2).astype(np.int64)
        for row in np.flatnonzero(is_a.astype(bool) & (_subtree_sum(is_p, end_a) > 0)).tolist():
            if (elements[row].get("href") or "")[:11].lower() == "javascript:":
                in_link[seg_lo[row]:seg_hi[row]] = False
    lengths = np.fromiter(map(len, map(str.strip, seg_text)), dtype=np.int64, count=len(seg_text))
    own = np.bincount(owner, weights=lengths, minlength=n).astype(np.int64)
    own_link = np.bincount(owner[in_link], weights=lengths[in_link], minlength=n).astype(np.int64)
    return NodeTable(
        elements=elements, tag=tags, parent=parent_a,
        depth=np.asarray(depth, dtype=np.int16), end=end_a,
        own_text=own.astype(np.int32), own_link_text=own_link.astype(np.int32),
        text=_subtree_sum(own, end_a), link_text=_subtree_sum(own_link, end_a),
        links=_subtree_sum(is_a, end_a).astype(np.int32),
        n_children=np.bincount(parent_a[parent_a >= 0], minlength=n).astype(np.int32),
        seg_text=seg_text, seg_owner=owner, seg_in_link=in_link,
        seg_break=np.asarray(seg_break, dtype=bool), seg_len=lengths, ident=ident, classes=classes,
        seg_lo=np.asarray(seg_lo, dtype=np.int32), seg_hi=np.asarray(seg_hi, dtype=np.int32),
    )


def _subtree_sum(values: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Sum of ``values`` over each row's subtree (rows ``i .. end[i]``), via one cumulative sum."""
    csum = np.concatenate(([0], np.cumsum(values)))
    return csum[end + 1] - csum[:-1]  # csum[i] for every row i: a view, not a gather
