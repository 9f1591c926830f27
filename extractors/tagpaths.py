"""Tag paths over the node table: Rpath, Ipath, smallest common structure, and the page's links.

Paper 004 (Mei et al. 2008, section 3.2.1): ``Rpath(n)`` is the sequence of tag names from the root
to ``n`` (``html.body.div.ul.li.a``); ``Ipath(n)`` adds each step's position among its parent's
element children (``html.body[1].div[2].ul[1]``, 1-based, all element children counted, as
definition 2 says). A *structure* is an element with its subtree, named by its Ipath; the smallest
structure holding two structures, ``S(P, Q)``, is their lowest common ancestor.

Everything is computed once per page from the node table's ``parent`` and ``end`` columns: Rpaths
are interned as integer ids (equal Rpath, equal id), so grouping links by Rpath is grouping ints.

>>> from extractors.page import parse_page
>>> page = parse_page("<html><body><div><p>x</p><ul><li><a href='/a'>A</a></li>"
...                   "<li><a href='/b'>B</a></li></ul></div></body></html>")
>>> paths = TagPaths(page)
>>> [paths.rpath(r) for r in paths.links]
['html.body.div.ul.li.a', 'html.body.div.ul.li.a']
>>> paths.ipath(paths.links[1]), paths.ipath(paths.smallest_common(*paths.links))
('html.body[1].div[1].ul[2].li[2].a[1]', 'html.body[1].div[1].ul[2]')
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

import numpy as np

from extractors.page import Page

__all__ = ["TagPaths", "join_url", "link_href", "normalise_space", "tag_paths"]

_SPACES = re.compile(r"[\s\u00a0\u3000]+")
#: hrefs that do not lead to another document: not links in the paper's sense (a record's link
#: "points to the page the record is about", section 3.2.2).
_NOT_A_TARGET = ("#", "javascript:", "mailto:", "tel:", "data:")


def normalise_space(text: str) -> str:
    """Collapse whitespace (NBSP and ideographic space included) and strip.

    >>> normalise_space("  a\\u00a0 b\\n c ")
    'a b c'
    """
    return _SPACES.sub(" ", text).strip()


def link_href(element) -> str | None:
    """The ``href`` of an ``<a>`` as written, or None when it leads to no other document."""
    href = (element.get("href") or "").strip()
    if not href or href.lower().startswith(_NOT_A_TARGET):
        return None
    return href


def join_url(base: str | None, href: str) -> str | None:
    """``urljoin(base, href)``, or None where ``urllib`` cannot split one of them: a bracketed
    host that is no IPv6 address (``http://[::1``), a host that NFKC normalisation breaks
    (``http://a\u2100b/``). ``urljoin`` raises ``ValueError`` on those; a page that writes one in a
    link, an image, a canonical URL or its ``<base>`` loses that URL, not its whole extraction.

    >>> join_url("https://s.org/a/", "b"), join_url("https://s.org/", "http://[::1/x")
    ('https://s.org/a/b', None)
    """
    try:
        return urljoin(base or "", href)
    except ValueError:
        return None


def tag_paths(page: Page) -> TagPaths:
    """The page's :class:`TagPaths`, built once per page (``page.memo``; read-only once built):
    PSNT's induction and the wrapper's application on the same page read the same ones (the
    page-type step's ``listed`` check and the list step both induce a wrapper from the page alone
    and apply it)."""
    found = page.memo.get("tag_paths")
    if found is None:
        found = page.memo["tag_paths"] = TagPaths(page)
    return found


class TagPaths:
    """Rpath ids, child positions and links of one parsed page (read-only views of the tree)."""

    __slots__ = ("page", "nodes", "prefix", "rpath_id", "position", "links", "_rpaths", "_ids")

    def __init__(self, page: Page) -> None:
        self.page = page
        self.nodes = nodes = page.nodes
        # the table starts at <body>; the Rpath starts at the document root (html.body...)
        top = nodes.elements[0] if len(nodes) else page.root
        self.prefix = [a.tag for a in reversed(list(top.iterancestors()))]
        self._rpaths: list[tuple[int, str]] = []  # id -> (parent id, tag)
        self._ids: dict[tuple[int, str], int] = {}
        n = len(nodes)
        rpath_id = np.empty(n, dtype=np.int32)
        position = np.ones(n, dtype=np.int32)
        seen_children: dict[int, int] = {}
        parent, tags = nodes.parent.tolist(), nodes.tag
        for row in range(n):
            up = parent[row]
            rpath_id[row] = self._intern(int(rpath_id[up]) if up >= 0 else -1, tags[row])
            if up >= 0:
                seen_children[up] = seen_children.get(up, 0) + 1
                position[row] = seen_children[up]
        self.rpath_id = rpath_id
        self.position = position
        self.links = [row for row in range(n) if tags[row] == "a"
                      and link_href(nodes.elements[row]) is not None]

    def _intern(self, parent_id: int, tag: str) -> int:
        key = (parent_id, tag)
        found = self._ids.get(key)
        if found is None:
            found = self._ids[key] = len(self._rpaths)
            self._rpaths.append(key)
        return found

    def rpath_steps(self, row: int) -> list[str]:
        """Tag names from the table's root to ``row`` (the prefix above <body> not included)."""
        steps = []
        current = int(self.rpath_id[row])
        while current >= 0:
            current, tag = self._rpaths[current]
            steps.append(tag)
        return steps[::-1]

    def rpath(self, row: int) -> str:
        """``html.body.div.ul.li.a``: the Rpath of ``row`` from the document root."""
        return ".".join(self.prefix + self.rpath_steps(row))

    def relative_rpath(self, row: int, ancestor: int) -> str:
        """The Rpath of ``row`` below ``ancestor`` (``li.h3.a``); ``""`` when they are the same."""
        steps = self.rpath_steps(row)
        return ".".join(steps[len(self.rpath_steps(ancestor)):])

    def ipath(self, row: int) -> str:
        """``html.body[1].div[2]``: the Ipath of ``row`` (the html step carries no index)."""
        steps = []
        while row >= 0:
            steps.append(f"{self.nodes.tag[row]}[{int(self.position[row])}]")
            row = int(self.nodes.parent[row])
        return ".".join(self.prefix + steps[::-1])

    def contains(self, outer: int, inner: int) -> bool:
        """Whether the structure of ``outer`` holds ``inner`` (or is it)."""
        return outer <= inner <= int(self.nodes.end[outer])

    def smallest_common(self, first: int, *others: int) -> int:
        """``S(P, Q, ...)``: the smallest structure holding all the given rows."""
        parent = self.nodes.parent
        lo, hi = min(first, *others), max(first, *others)
        row = lo
        while not self.contains(row, hi):
            row = int(parent[row])
        return row

    def child_towards(self, ancestor: int, row: int) -> int:
        """The child of ``ancestor`` whose structure holds ``row`` (``row`` itself if a child);
        ValueError when ``row`` is not strictly inside ``ancestor``."""
        if row == ancestor or not self.contains(ancestor, row):
            raise ValueError(f"row {row} is not inside row {ancestor}")
        parent = self.nodes.parent
        while int(parent[row]) != ancestor:
            row = int(parent[row])
        return row

    def rows_with_rpath(self, rpath: str, within: int | None = None) -> list[int]:
        """Rows whose full Rpath equals ``rpath`` (dotted), optionally inside ``within``."""
        steps = rpath.split(".")
        if steps[:len(self.prefix)] != self.prefix:
            return []
        current = -1
        for tag in steps[len(self.prefix):]:
            current = self._ids.get((current, tag), -2)
            if current == -2:
                return []
        if within is None:
            lo, hi = 0, len(self.nodes) - 1
        else:
            lo, hi = within, int(self.nodes.end[within])
        hits = np.flatnonzero(self.rpath_id[lo:hi + 1] == current) + lo
        return hits.tolist()
