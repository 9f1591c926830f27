"""PSNT: automatic wrapper induction from two same-template pages (paper 004; algorithms.md 5).

``induce_wrapper(first, second)`` follows the paper step by step on the first page:

1. pre-processing (3.1): links the two pages share (same ``href`` as written and same text) are
   template navigation and are removed from the first page, their text with them;
2. region structure (3.2.3): links grouped by Rpath, groups of fewer than :data:`MIN_LINK_GROUP`
   dropped, each group's smallest common structure (the longest common prefix of its Ipaths), equal
   structures merged; among those holding more than :data:`MAIN_SHARE` of the page's characters the
   one holding the fewest is the region structure (when none does, the smallest of their nearest
   ancestors that does: an extension, see :func:`_region_structure`);
3. ordered link group (3.3.1): a structure's links grouped by Rpath, groups under 4 dropped, the
   group with the most duplicated link texts dropped, the group with the largest mean link length
   (among those separating the structure, see the readings below) kept;
4. structure separation (3.3.1) of the region by its ordered link group into equipotent parts R, and
   the main structure (3.3.2): the largest part if it holds more than half the page's characters;
   else the set R if ``|R| < 4``; else the region itself;
5. standard link group (3.4) and information structures (3.5): the main structure is separated by
   its standard links; each part's information structure is the largest structure holding it that is
   still equipotent with the next part relative to the main structure;
6. the wrapper (3.6.1), ``Rpath(main)(N)(links below main)[information structures below main]``.

``apply_wrapper(wrapper, page)`` finds the main structures by Rpath (the N holding the most
characters when the count differs), their standard links, and the information structures holding
at least one of them: one record each; when the information structures are the links themselves,
a record runs from one standard link up to the next (3.6.2). Extension beyond the paper
(:data:`SPLIT_SHARED_STRUCTURES`): an information structure holding standard links to several
documents, each inside a structure of its own (a column of a section front holding a list of
stories), gives one record per such structure instead of one for the whole column.

Readings taken where the paper is silent (also in algorithms.md's spirit: say so in the code):

- a *link* is an ``<a>`` whose ``href`` leads to another document (not ``#...``,
  ``javascript:``...);
- "drop the group with the most duplicated links" applies only when more than one group is left and
  that group has a duplicate at all; otherwise nothing would be left, or nothing is duplicated;
  when several groups tie for the most duplicates, none is "the" most duplicated and none is
  dropped (dropping the first of them, the earlier reading, dropped nbcnews's headline group
  for one repeated label; pooled psnt F1 0.815 -> 0.823, see docs/evaluation.md);
- the ordered link group (and the standard link group) is the group of largest mean link length
  among those that *separate* the structure, i.e. whose smallest common structure is the
  structure itself; a group lying in one sub-block separates it into a single part, which is no
  separation (foxnews.com/auto: a 4-link "most read" box of the sidebar, mean length 70.5, beat
  the 36 headlines, 66.1). When no group separates it, all groups compete as before. Pooled psnt
  F1 0.823 -> 0.840 (docs/evaluation.md);
- when the main structure is a set, its members must share one Rpath (the formula has one first
  part): members with another Rpath than the largest member's are left out, and the trace says so;
- the information-structure Rpath is the most frequent one among the parts (they normally agree);
- on application, an element with the main structure's Rpath that holds none of its standard links
  (a sibling grid, a sidebar) is not a candidate main structure;
- ``induce_wrapper(page, None)`` skips the pre-processing (one page, nothing removed): not the
  paper's setting, offered for templates with no second page at hand.

Known limit (paper 004, section 4): on a page with four or more data regions that share a link
Rpath, the separation of the region yields four or more parts, so the main structure is the region
itself and each *region* becomes an information structure, i.e. one "record" per region (titled by
its first link). The code does what the paper does here; the trace names the case
(``"main": "region"``) and the test on such a page pins it.

Example (one page, so ``second=None``):

>>> from extractors.page import parse_page
>>> items = "".join(f"<li><h3><a href='/n/{i}'>Story {i}</a></h3><p>2024-05-0{i + 1}</p></li>"
...                 for i in range(4))
>>> page = parse_page(f"<html><body><ul>{items}</ul></body></html>", url="https://s.com/list")
>>> wrapper = induce_wrapper(page, None).wrapper
>>> wrapper.notation()
'html.body.ul(1)(li.h3.a)[li]'
>>> apply_wrapper(wrapper, page).records[0]
Record(title='Story 0', url='https://s.com/n/0', date='2024-05-01', authors=[])
"""

from __future__ import annotations

import logging
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from extractors.listrecords import Record, base_url, build_record
from extractors.page import Page
from extractors.tagpaths import TagPaths, link_href, normalise_space, tag_paths
from extractors.wrapper import MAX_MAIN_STRUCTURES, Wrapper

__all__ = ["MAIN_SHARE", "MIN_LINK_GROUP", "SPLIT_SHARED_STRUCTURES", "Application", "Induction",
           "Record", "Wrapper", "apply_wrapper", "induce_wrapper"]

logger = logging.getLogger(__name__)

#: "every information region holds at least 4 records" (paper 004, 3.2.3): smaller Rpath groups of
#: links are dropped. The paper's value, not recalibrated.
MIN_LINK_GROUP = 4
#: "the main data region holds more than half of the page's characters" (3.2.3 and 3.3.2). The
#: paper's value, not recalibrated.
MAIN_SHARE = 0.5
#: Extension beyond the paper (3.6.2 makes one record per information structure): on application,
#: an information structure holding standard links to several documents, each inside a structure of
#: its own (a column of a section front holding a list of stories), yields one record per such
#: structure. Measured on the four annotated sets pooled (gerapy_listdetail, gne,
#: news_article_vs_nonarticle, wcxb_dev; docs/evaluation.md "List records"): psnt on the 35 pages
#: with a distinct same-template list page P 0.973 -> 0.973, R 0.670 -> 0.701, F1 0.794 -> 0.815;
#: psnt_single on all 84 pages F1 0.552 -> 0.607 (P 0.919 -> 0.908). Without the "structure of
#: its own" condition recall rose a little more but precision fell (psnt P 0.968, gne's forum rows
#: split at their "New" links), so the condition stays. A switch, not a tuned value.
SPLIT_SHARED_STRUCTURES = True


@dataclass(slots=True)
class Induction:
    """A wrapper, or None and why; ``trace`` holds the intermediate structures (Ipaths, counts)."""

    wrapper: Wrapper | None
    reason: str | None
    trace: dict = field(default_factory=dict)


@dataclass(slots=True)
class Application:
    """The records a wrapper found on a page, or none and why."""

    records: list[Record]
    reason: str | None


@dataclass(slots=True)
class _Tree:
    """The first page after removing the shared links: its paths, kept links and characters."""

    paths: TagPaths
    links: list[int]
    chars: np.ndarray   # subtree characters, the removed links' text excluded
    total: int


def induce_wrapper(first: Page, second: Page | None) -> Induction:
    """Induce a wrapper from two pages of one template (see the module docstring).

    ``second=None`` skips the pre-processing (no shared links removed): not the paper's setting,
    for a page whose template has no second page at hand; the trace says
    ``"shared_links_removed": None``.
    """
    tree, removed = _remove_shared_links(first, second)
    trace: dict = {"links": len(tree.links) + removed,
                   "shared_links_removed": removed if second is not None else None,
                   "characters": tree.total}
    if removed and not tree.links:
        return Induction(None, _no_region_reason(tree, removed), trace)
    if tree.total == 0:
        return Induction(None, "the page holds no text" + (
            " once the shared links are removed" if removed else ""), trace)
    region, rule = _region_structure(tree)
    if region is None:
        return Induction(None, _no_region_reason(tree, removed), trace)
    paths = tree.paths
    trace.update(region=paths.ipath(region), region_rule=rule)
    ordered = _ordered_link_group(tree, region)
    if ordered is None:
        return Induction(None, "the region structure has no ordered link group", trace)
    parts = separate(paths, region, ordered)
    trace["region_parts"] = len(parts)
    mains, standard, kind = _main_structures(tree, region, ordered, parts)
    trace.update(main=kind, main_structures=[paths.ipath(m) for m in mains])
    if not standard:
        return Induction(None, "the main structure has no standard link group", trace)
    sources = [first.url, None if second is None else second.url]
    return _wrapper_for(paths, mains, standard, sources, trace)


def _wrapper_for(paths: TagPaths, mains: list[int], standard: list[int],
                 sources: list[str | None], trace: dict) -> Induction:
    """Paper 3.5 and 3.6.1: the information structures of each main structure, then the
    wrapper; checked to survive its own JSON round trip (tag names it cannot write are refused)."""
    infos = [_information_structures(paths, m, [s for s in standard if paths.contains(m, s)])
             for m in mains]
    rel = Counter(paths.relative_rpath(z, m)
                  for m, zs in zip(mains, infos, strict=True) for z in zs)
    trace["information_structures"] = sum(len(zs) for zs in infos)
    if not rel:
        return Induction(None, "no information structure holds a standard link", trace)
    info_rpath = rel.most_common(1)[0][0]
    wrapper = Wrapper(
        main_rpath=paths.rpath(mains[0]), count=len(mains),
        link_rpath=paths.relative_rpath(standard[0], mains[0]), info_rpath=info_rpath,
        link_terminated=info_rpath.rsplit(".", 1)[-1] == "a", sources=sources)
    try:
        Wrapper.from_json(wrapper.to_json())
    except ValueError as exc:
        return Induction(None, f"the wrapper cannot be written: {exc}", trace)
    logger.debug("psnt wrapper %s (%s)", wrapper.notation(), trace)
    return Induction(wrapper, None, trace)


def _link_key(page: Page, row: int) -> tuple[str, str]:
    return link_href(page.nodes.elements[row]) or "", normalise_space(page.nodes.inner_text(row))


def _remove_shared_links(first: Page, second: Page | None) -> tuple[_Tree, int]:
    """Paper 3.1: drop from ``first`` every link ``second`` also has (same href, same text)."""
    paths = tag_paths(first)
    shared = set() if second is None else {_link_key(second, r) for r in tag_paths(second).links}
    if not shared:  # nothing to remove: no link's key read (the single-page wrapper's case)
        chars = first.nodes.text
        return _Tree(paths, list(paths.links), chars, int(chars[0]) if len(chars) else 0), 0
    kept, keep = [], np.ones(len(first.nodes), dtype=bool)
    for row in paths.links:
        if _link_key(first, row) in shared:
            keep[row:int(first.nodes.end[row]) + 1] = False
        else:
            kept.append(row)
    # links nested in a removed link are gone with it
    kept = [row for row in kept if keep[row]]
    chars = first.nodes.masked(keep).text if not keep.all() else first.nodes.text
    total = int(chars[0]) if len(chars) else 0
    return _Tree(paths, kept, chars, total), len(paths.links) - len(kept)


def _no_region_reason(tree: _Tree, removed: int) -> str:
    if removed and not tree.links:
        return f"the two pages share all their {removed} links (the same page twice?)"
    if not _link_groups(tree, tree.links):
        why = f"no {MIN_LINK_GROUP} or more links share an Rpath"
        return why + (f" once the {removed} links both pages share are removed" if removed else "")
    return "no link group's structure holds more than half of the page's characters"


def _link_groups(tree: _Tree, links: list[int]) -> list[list[int]]:
    """``links`` grouped by Rpath (document order kept), groups under MIN_LINK_GROUP dropped."""
    groups: dict[int, list[int]] = {}
    for row in links:
        groups.setdefault(int(tree.paths.rpath_id[row]), []).append(row)
    return [g for g in groups.values() if len(g) >= MIN_LINK_GROUP]


def _region_structure(tree: _Tree) -> tuple[int | None, str]:
    """Paper 3.2.3 steps 1-6: the smallest group structure holding over half the characters.

    When no group structure does (the paper assumes one does; a grid whose text is 49 % of the
    page is a real case), the smallest of their nearest ancestors that does is taken, and the
    second value says so (``"ancestor"``); ``(None, ...)`` when there is no link group at all.
    """
    structures = {tree.paths.smallest_common(*group) for group in _link_groups(tree, tree.links)}
    if not structures:
        return None, "no link group"
    half = MAIN_SHARE * tree.total
    big = [s for s in structures if tree.chars[s] > half]
    if big:
        return min(big, key=lambda s: (int(tree.chars[s]), -s)), "paper"
    parent = tree.paths.nodes.parent
    lifted = set()
    for row in structures:
        while row >= 0 and tree.chars[row] <= half:
            row = int(parent[row])
        if row >= 0:
            lifted.add(row)
    if not lifted:
        return None, "no structure holds more than half of the page's characters"
    return min(lifted, key=lambda s: (int(tree.chars[s]), -s)), "ancestor"


def _ordered_link_group(tree: _Tree, structure: int) -> list[int] | None:
    """Paper 3.3.1: the Rpath group of ``structure``'s links with the largest mean link length."""
    inside = [row for row in tree.links if tree.paths.contains(structure, row)]
    groups = _link_groups(tree, inside)
    if len(groups) > 1:
        duplicates = [len(g) - len({_link_key(tree.paths.page, r)[1] for r in g}) for g in groups]
        top = max(duplicates)
        if top > 0 and duplicates.count(top) == 1:  # a tie names no "most duplicated" group
            del groups[duplicates.index(top)]
    if not groups:
        return None
    # the group must separate the structure: one whose links all lie in a sub-block gives a single
    # part (a reading, see the module docstring); when no group separates it, any group may serve
    separating = [g for g in groups if tree.paths.smallest_common(*g) == structure]
    return max(separating or groups, key=lambda g: sum(int(tree.chars[r]) for r in g) / len(g))


def separate(paths: TagPaths, structure: int, links: list[int]) -> list[int]:
    """Structure separation (paper 3.3.1) of ``structure`` by its ordered ``links``: the parts,
    pairwise equipotent relative to it, in document order."""
    parts: list[int] = []
    pending = list(links)
    while len(pending) >= 2:
        common = paths.smallest_common(pending[0], pending[1])
        if common == structure:
            parts.append(pending.pop(0))
        else:
            pending[0:2] = [common]
    return parts + pending


def _main_structures(tree: _Tree, region: int, ordered: list[int], parts: list[int]
                     ) -> tuple[list[int], list[int], str]:
    """Paper 3.3.2 and 3.4: (main structures, standard link group, which case) from the parts
    of the region separated by its ordered link group."""
    largest = max(parts, key=lambda r: int(tree.chars[r]))
    if tree.chars[largest] > MAIN_SHARE * tree.total:
        standard = _ordered_link_group(tree, largest) or []
        return [largest], standard, "largest part"
    if len(parts) <= MAX_MAIN_STRUCTURES:
        rpath = int(tree.paths.rpath_id[largest])
        members = [r for r in parts if int(tree.paths.rpath_id[r]) == rpath]
        kind = "set" if len(members) == len(parts) else f"set ({len(parts) - len(members)} " \
            "parts with another Rpath left out)"
        standard = [s for s in ordered if any(tree.paths.contains(m, s) for m in members)]
        return members, standard, kind
    return [region], ordered, "region"


def _information_structures(paths: TagPaths, main: int, standard: list[int]) -> list[int]:
    """Paper 3.5: separate ``main`` by its standard links; for each part, the largest structure
    holding it that stays equipotent with the next part relative to ``main``: the child of
    ``main`` on the way to the part (the part itself when it is a child)."""
    if main in standard or not standard:
        return []
    return [paths.child_towards(main, part) for part in separate(paths, main, standard)]


def apply_wrapper(wrapper: Wrapper, page: Page, max_records: int | None = None) -> Application:
    """The records ``wrapper`` finds on ``page`` (paper 3.6.2); see the module docstring.

    ``max_records``: stop after that many records (a hostile page may hold 200 000; the crawl caps
    records per list page, see ``pipelines.lists.stage.MAX_RECORDS_PER_LIST``).
    """
    paths = tag_paths(page)
    mains = _find_main_structures(wrapper, paths)
    if not mains:
        return Application([], f"no main structure ({wrapper.main_rpath} not on the page)")
    base = base_url(page)
    records: list[Record] = []
    found_links = False
    for main, links in mains:
        found_links = found_links or bool(links)
        spans = (_link_runs(page, main, links) if wrapper.link_terminated
                 else _info_spans(paths, f"{wrapper.main_rpath}.{wrapper.info_rpath}", main, links))
        for rows, segments, own in spans:
            if max_records is not None and len(records) >= max_records:
                break
            record = build_record(page, rows, segments, own, base)
            if record is not None:
                records.append(record)
    if not found_links:
        return Application([], "no standard link in the main structure")
    if not records:
        return Application([], "no information structure holds a standard link")
    return Application(records, None)


def _find_main_structures(wrapper: Wrapper, paths: TagPaths) -> list[tuple[int, list[int]]]:
    """The main structures by the wrapper's first part, each with its standard links.

    When the count differs from N, the N holding the most characters are taken (paper 3.6.2),
    among those holding a standard link when some do: elements sharing the main structure's Rpath
    but not its inner structure (a sibling grid, a sidebar) cannot be main structures.
    """
    link_rpath = f"{wrapper.main_rpath}.{wrapper.link_rpath}"
    found = []
    for main in paths.rows_with_rpath(wrapper.main_rpath):
        links = [r for r in paths.rows_with_rpath(link_rpath, main)
                 if link_href(paths.nodes.elements[r]) is not None]
        found.append((main, links))
    if len(found) != wrapper.count:
        holding = [f for f in found if f[1]] or found
        text = paths.nodes.text
        found = sorted(sorted(holding, key=lambda f: -int(text[f[0]]))[:wrapper.count])
    return found


def _info_spans(paths: TagPaths, info_rpath: str, main: int, links: list[int]):
    """(rows, segments, standard links) of each information structure holding a standard link."""
    nodes = paths.nodes
    spans = []
    for info in paths.rows_with_rpath(info_rpath, main):
        # rows are in document order, a structure's rows a contiguous range: the links it holds
        # are a slice of the sorted links (a scan of all links per structure is quadratic)
        own = links[bisect_left(links, info):bisect_right(links, int(nodes.end[info]))]
        pieces = _own_structures(paths, info, own) if SPLIT_SHARED_STRUCTURES else None
        if pieces:
            spans.extend(((p, int(nodes.end[p])), (int(nodes.seg_lo[p]), int(nodes.seg_hi[p])),
                          [link]) for p, link in pieces)
        elif own:
            spans.append(((info, int(nodes.end[info])),
                          (int(nodes.seg_lo[info]), int(nodes.seg_hi[info])), own))
    return spans


def _own_structures(paths: TagPaths, info: int, own: list[int]) -> list[tuple[int, int]] | None:
    """(structure, link) per standard link of ``info`` when ``info`` holds several records (the
    extension :data:`SPLIT_SHARED_STRUCTURES`): each link's own structure is its largest ancestor
    below ``info`` holding no other of ``own``. None (one record) when the links all lead to one
    document, or when some link has no structure of its own (a "New" or "more" link next to the
    title inside one heading: one record with a second link, not two records)."""
    if len({link_href(paths.nodes.elements[r]) for r in own}) < 2:
        return None
    parent = paths.nodes.parent
    pieces = []
    for link in own:
        top = link
        while int(parent[top]) != info and not any(
                other != link and paths.contains(int(parent[top]), other) for other in own):
            top = int(parent[top])
        if top == link:
            return None
        pieces.append((top, link))
    return pieces


def _link_runs(page: Page, main: int, links: list[int]):
    """Link-terminated records (paper 3.6.2): from each standard link up to the next one."""
    nodes = page.nodes
    spans = []
    for i, link in enumerate(links):
        if i + 1 < len(links):
            rows, seg_end = (link, links[i + 1] - 1), int(nodes.seg_lo[links[i + 1]])
        else:
            rows, seg_end = (link, int(nodes.end[main])), int(nodes.seg_hi[main])
        spans.append((rows, (int(nodes.seg_lo[link]), seg_end), [link]))
    return spans
