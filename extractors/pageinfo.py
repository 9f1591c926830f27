"""DWSIE's extraction (paper 002, 2.2): list records from the list nodes, the article's ``doc``, and
the paper's JSON shape ``{url, page_type, titles, doc}`` (the service's ``extract_pageinfo``).

List pages: every list subtree found by :func:`extractors.dwsie.classify_nodes`, every list node of
it, read by :func:`extractors.listrecords.build_record` (title, absolute URL, date, authors: the same
reading as PSNT's records). Combined with PSNT (paper 004) as :func:`combined_records` says: PSNT's
wrapper where it holds, DWSIE's list nodes where there is no sibling or induction fails. The crawl's
records (:func:`crawl_records`) are PSNT's with a sibling, else those two readings agree on
(:func:`confirmed_records`), then with the page's ``<article>`` cards (:func:`with_cards`).

Article pages: ``cont`` is the chain's body (:func:`extractors.extract` on the same parse),
``title``, ``date`` and ``au`` are the fields issue's values (metadata first, then the text rules),
``column`` / ``main_img`` / ``keywords`` the item's ``section`` / ``main_image`` / ``keywords``;
``main_img`` falls back to the first image of the content node's subtree, as the paper reads it. The mapping to the item's fields is in docs/evaluation.md.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from extractors.dwsie import NodeClasses, NodeModel, classify_nodes, information_length
from extractors.listrecords import Record, base_url, build_record, link_title
from extractors.page import Page, link_hrefs
from extractors.tagpaths import join_url, link_href

if TYPE_CHECKING:
    from extractors.psnt import Induction

__all__ = ["PageInfo", "card_records", "cards_instead", "combined_records", "confirmed_records",
           "crawl_records", "dwsie_records", "dwsie_subtree_records", "extended_records",
           "hidden_tab_panes", "more_cards", "more_teasers", "node_classes", "page_info",
           "paper_shape", "psnt_records", "single_page_reading", "with_cards"]


#: A list node's title link has at least this many words (a CJK character is a word:
#: :func:`extractors.dwsie.information_length`); a shorter first link ("[社会]", "AI", "More") is
#: a label before the headline and gives way to the node's first link that has as many. Measured
#: in docs/evaluation.md, "List records at precision 0.95".
TITLE_MIN_WORDS = 3

#: A *card*: the element HTML5 gives a self-contained item of a page ("a blog entry, a news
#: story's teaser, a product card"): cnn.com, nbcnews.com, cbsnews.com, github.blog and
#: greenroads.com mark each teaser of a section front as one, wherever on the page it sits, so
#: the cards hold the records of several regions that one PSNT main structure or one DWSIE list
#: markup does not. The outermost such element is one card.
CARD_TAG = "article"
#: Cards inside these elements are not the page's list: an ``<aside>`` is content beside the
#: main one (foxnews.com's sidebar of video and "more" cards, the same ``article.article``
#: markup as its list: 28 wrong records on three pages without it, none with it).
CARD_OUTSIDE = frozenset({"aside"})
#: Cards are added to a list's records only when at least this share of those records are
#: cards: the cards then hold the list (cnn 62 of 62, cbsnews 46 of 48, nbcnews 19 of 23 and 4
#: of 7), where a page whose list is not made of cards keeps its reading (abcnews: 3 of its 46
#: records are cards; with no floor 3 wrong cards more). Measured on the 80 annotated list
#: pages (docs/evaluation.md, "List records, fourth round"): 0.8 loses nbcnews's 15 records, 0
#: adds abcnews's 3 wrong ones; 0.5 as the ``agreed`` rule's "at least half".
CARD_AGREEMENT = 0.5
#: A card is taken when more than this share of its class tokens and those of a card holding
#: one of the list's records (together) are common to both (Jaccard): one card template whose
#: modifier classes vary by slot (cnn's ``cd--idx-3``, cbsnews's ``item--topic-us``, nbcnews's
#: hashed module classes) where an exact class match split it (cnn 163 -> 73 right records).
#: More than half, not half: ifixit's category tiles (``group``) against its product cards
#: (``group relative``) share exactly half and are not records (57 wrong on two pages); 0.34
#: takes them too, 0.67 loses cnn's and nbcnews's cards (see "List records, fourth round").
CARD_SHARED_CLASSES = 0.5
#: A *teaser* of a two-page wrapper's list: a link elsewhere on the page whose markup (its tag and
#: class attribute and those of this many elements above it) is that of the title link of one of
#: the wrapper's records. PSNT reads one main structure, one region of a section front; the same
#: teaser template placed in the page's other regions (bbc.com's ``dundee-card``s in several
#: grids, huffpost's ``card__headline`` links in the lead and latest zones) is the rest of the
#: list. The markup of the link and its two parents: 1 adds one wrong record (bbc's newsletter
#: promo), 3 misses bbc's 31 (the grid above the card varies). Measured on the 80 annotated list
#: pages, pooled P / R / F1 0.962 / 0.812 / 0.881 -> 0.961 / 0.835 / 0.893 (docs/evaluation.md,
#: "List records, fifth round").
TEASER_LEVELS = 2
#: The rules of :func:`crawl_records` whose records get the teasers of their title-link markup
#: (:func:`more_teasers`): a two-page wrapper's (``psnt``, one main structure) and DWSIE's one
#: list markup (``one_list``: no agreement with the single-page wrapper, every list subtree of
#: one markup). Both read one list template; its records may stand for coarser units than the
#: page's items (netease's leaderboard: one DWSIE list node per ranking box, 23 records where the
#: boxes' visible tables hold 199) or the template may go on in another region (georgjensen's
#: product grid, 2 tiles outside DWSIE's list). On the 80 annotated list pages, pooled P / R / F1
#: 0.961 / 0.835 / 0.893 -> 0.963 / 0.882 / 0.920 with the hidden tab panes left out
#: (:func:`hidden_tab_panes`; without that test the leaderboard's hidden tables add 262 wrong
#: records). The other rules of ``confirmed`` take their sister lists by markup already; with
#: the teasers they add other carousels and menus (``agreed``: goodreads, bigwalldecor, rtfund;
#: docs/evaluation.md, "List records, fifth round" and "sixth round").
TEASER_RULES = frozenset({"psnt", "one_list"})
#: Class tokens marking the shown one of a group of tabs or panes (Bootstrap's ``active`` and
#: ``show``, ``current``/``cur``/``on``/``selected`` of Chinese portals and jQuery UI, ``open``).
#: Only ``active`` occurs in a tab box of the 80 annotated list pages; a state token not in
#: this set leaves a tab box unseen (its hidden panes' links are then teasers, as before).
TAB_STATE_CLASSES = frozenset({"active", "current", "on", "selected", "cur", "show", "open"})
#: The tab bar is looked for inside the panes' parent or one level above it: the bar inside the
#: tab box (netease's ``div.tabBox > div.title-tab > ul.tabNav``) or beside the panes' container
#: (Bootstrap's ``ul.nav-tabs`` next to ``div.tab-content``). 1 and 2 give the same figures on
#: the 80 annotated list pages (only the leaderboard has tab boxes); 2 is Bootstrap's markup.
TAB_NAV_LEVELS = 2
_STATE_CLASS = re.compile(r"(?:^|\s)(?:%s)(?:\s|$)" % "|".join(sorted(TAB_STATE_CLASSES)))


def dwsie_records(page: Page, classes: NodeClasses) -> list[Record]:
    """One record per list node of every list subtree (largest subtree first), deduplicated by URL."""
    subtrees = dwsie_subtree_records(page, classes)
    return _unique([r for _parent, records in subtrees for r in records])


def dwsie_subtree_records(page: Page, classes: NodeClasses) -> list[tuple[int, list[Record]]]:
    """The records of each list subtree: ``(parent row, one record per list node)``, largest subtree
    first. A list node's record is titled and linked by its first link of at least
    :data:`TITLE_MIN_WORDS` words when its first link is shorter (a section label or tag before
    the headline), else as :func:`extractors.listrecords.build_record` reads it."""
    nodes, base = page.nodes, base_url(page)
    subtrees: list[tuple[int, list[Record]]] = []
    for parent, items in classes.lists:
        records = []
        for row in items:
            end = int(nodes.end[row])
            links = [r for r in range(row, end + 1) if nodes.tag[r] == "a"]
            if not links:
                continue
            record = build_record(page, (row, end), (int(nodes.seg_lo[row]), int(nodes.seg_hi[row])),
                                  _title_first(page, links), base)
            if record is not None and record.title:
                records.append(record)
        subtrees.append((parent, records))
    return subtrees


def _title_first(page: Page, links: list[int]) -> list[int]:
    """``links`` with the first one of :data:`TITLE_MIN_WORDS` words or more (and a target) moved
    to the front; unchanged when none has as many."""
    for k, row in enumerate(links):
        if link_href(page.nodes.elements[row]) is None:
            continue
        if information_length(link_title(page, row)) >= TITLE_MIN_WORDS:
            return [row, *links[:k], *links[k + 1:]] if k else links
    return links


def _unique(records: list[Record]) -> list[Record]:
    seen: set[str] = set()
    kept = []
    for record in records:
        if record.url not in seen:
            seen.add(record.url)
            kept.append(record)
    return kept


def confirmed_records(page: Page, classes: NodeClasses, single: list[Record]
                      ) -> tuple[list[Record], str]:
    """The records two independent readings of the page agree on, where no two-page wrapper holds:
    DWSIE's list subtrees (``classes``) and the records ``single`` of a PSNT wrapper induced from
    the page alone. Returns the records and which rule gave them:

    - ``agreed``: the list subtrees holding at least one of ``single``'s record URLs, with their
      *sister* subtrees (parents of the same tag and class attribute: the same list markup, as a
      front page repeats one list per section), one record per list node; and ``single``'s
      records too when at least half of those are among them (the two readings mostly agree, and
      each finds records the other misses: DWSIE a list node with no link of PSNT's standard
      Rpath, PSNT a record whose list node the network did not type);
    - ``single_page``: DWSIE finds no list subtree, so it cannot confirm or contradict: ``single``;
    - ``one_list`` / ``single_page``: no subtree agrees with ``single`` but DWSIE's subtrees are all
      of one markup (one list, possibly split over several parents): the larger of the two
      readings (DWSIE's records on a tie);
    - ``repeated``: the two disagree and DWSIE's subtrees are of several markups: the subtrees
      whose markup at least one other subtree shares (the sisters of ``agreed``: a front page
      repeating one list markup per section), one record per list node; a markup the page
      repeats is its list template, where a one-off subtree is as likely a box beside the list
      (a "latest" ticker, a ranking, a market-data strip);
    - ``none``: as ``repeated`` but no markup repeats (a page of several unlike lists, none of
      them the wrapper's): nothing, since the crawl requests every record URL it publishes.

    Measured on the 80 annotated list pages (docs/evaluation.md, "List records at precision
    0.95" and "List records, third round"): precision above 0.95 where DWSIE's records alone are
    at 0.82."""
    subtrees = [(parent, records) for parent, records in dwsie_subtree_records(page, classes)
                if records]
    if not subtrees:
        return list(single), "single_page" if single else "none"
    urls = {r.url for r in single}
    agreed = [parent for parent, records in subtrees if any(r.url in urls for r in records)]
    if agreed:
        markup = {_markup(page, parent) for parent in agreed}
        kept = _unique([r for parent, records in subtrees if _markup(page, parent) in markup
                        for r in records])
        if 2 * sum(r.url in urls for r in kept) >= len(kept):
            return _unique(kept + list(single)), "agreed"
        return kept, "agreed"
    if len({_markup(page, parent) for parent, _records in subtrees}) == 1:
        mine = _unique([r for _parent, records in subtrees for r in records])
        if len(mine) >= len(single):
            return mine, "one_list"
        return list(single), "single_page"
    counts = Counter(_markup(page, parent) for parent, _records in subtrees)
    repeated = _unique([r for parent, records in subtrees if counts[_markup(page, parent)] > 1
                        for r in records])
    if repeated:
        return repeated, "repeated"
    return [], "none"


def _markup(page: Page, row: int) -> tuple[str, str]:
    """A list subtree's markup: its parent's tag and class attribute (tokens sorted)."""
    return page.nodes.tag[row], " ".join(sorted(page.nodes.classes[row].split()))


def crawl_records(page: Page, classes: NodeClasses, sibling: Page | None
                  ) -> tuple[list[Record], str]:
    """The records the crawl publishes for a list page with no stored wrapper: PSNT's records when
    a wrapper induced with ``sibling`` finds some (``psnt``), else :func:`confirmed_records` over
    the page alone; either with the page's cards (:func:`with_cards`: ``+more_cards`` or
    ``+cards_instead`` after the rule when they change the records), PSNT's and those of the rule
    ``one_list`` (:data:`TEASER_RULES`) also with the teasers of their markup
    (:func:`more_teasers`: ``+teasers``). The service and
    ``newscrawl extract --format dwsie`` give the same."""
    records, by = [], "none"
    if sibling is not None:
        records, by = psnt_records(page, sibling), "psnt"
    if not records:
        records, by = confirmed_records(page, classes, psnt_records(page, None))
    records, hows = extended_records(page, records, teasers=by in TEASER_RULES)
    return records, "+".join([by, *hows])


def extended_records(page: Page, records: list[Record], teasers: bool
                     ) -> tuple[list[Record], list[str]]:
    """``records`` with the page's cards (:func:`with_cards`) and, where a two-page wrapper gave
    them or DWSIE's one list markup (``teasers``: the :data:`TEASER_RULES`), the teasers of their
    markup (:func:`more_teasers`); and which of
    ``more_cards``, ``cards_instead``, ``teasers`` changed them, in that order. The crawl's list
    step (:mod:`pipelines.lists.stage`) and :func:`crawl_records` both extend their records so."""
    records, how = with_cards(page, records)
    hows = [how] if how else []
    if teasers:
        more = more_teasers(page, records)
        if more:
            records, hows = records + more, [*hows, "teasers"]
    return records, hows


def card_records(page: Page) -> list[tuple[str, Record]]:
    """One record per card (the outermost :data:`CARD_TAG` elements, none inside a
    :data:`CARD_OUTSIDE` element) holding a link, read as a DWSIE list node is (its first link of
    :data:`TITLE_MIN_WORDS` words or more titles and links it), with the card's class attribute."""
    nodes = page.nodes
    cards: list[tuple[str, Record]] = []
    if CARD_TAG not in nodes.tag:  # most pages: one scan in C
        return cards
    base, last = base_url(page), -1
    for row, tag in enumerate(nodes.tag):
        if tag != CARD_TAG or row <= last:
            continue
        last = end = int(nodes.end[row])
        if nodes.links[row] == 0 or nodes.has_ancestor(row, CARD_OUTSIDE):
            continue
        links = [r for r in range(row, end + 1) if nodes.tag[r] == "a"]
        record = build_record(page, (row, end), (int(nodes.seg_lo[row]), int(nodes.seg_hi[row])),
                              _title_first(page, links), base)
        if record is not None and record.title:
            cards.append((nodes.classes[row], record))
    return cards


def with_cards(page: Page, records: list[Record]) -> tuple[list[Record], str]:
    """``records`` with the page's cards (:func:`card_records`), and how: ``more_cards`` when the
    cards holding some of them give more of the same list (:func:`more_cards`), ``cards_instead``
    when none of them is a card and the page's main card markup holds more records
    (:func:`cards_instead`: the list step read another region than the page's list), else ""."""
    urls = [r.url for r in records]
    cards = card_records(page) if records else []
    more = more_cards(page, urls, cards)
    if more:
        return list(records) + more, "more_cards"
    instead = cards_instead(page, urls, cards)
    if instead:
        return instead, "cards_instead"
    return list(records), ""


def more_cards(page: Page, urls: list[str], cards: list[tuple[str, Record]] | None = None
               ) -> list[Record]:
    """The page's cards (:func:`card_records`, or ``cards`` when already read) of the markup of
    the cards holding a list's record ``urls``, those not among ``urls``, when at least
    :data:`CARD_AGREEMENT` of ``urls`` are cards; else none. A section front marks every teaser
    as a card but lists them in several regions (a lead package, a column of latest stories, a
    row per topic): the list step reads one region or one markup of lists, the cards give the
    others (docs/evaluation.md, "List records, fourth round")."""
    listed = set(urls)
    if not listed:
        return []
    cards = card_records(page) if cards is None else cards
    held = [set(classes.split()) for classes, r in cards if r.url in listed]
    if not held or len({r.url for _c, r in cards} & listed) < CARD_AGREEMENT * len(listed):
        return []
    kept = [r for classes, r in cards if r.url not in listed
            and any(_shared(set(classes.split()), other) for other in held)]
    return _unique(kept)


def cards_instead(page: Page, urls: list[str], cards: list[tuple[str, Record]] | None = None
                  ) -> list[Record]:
    """The records of the page's main card markup (its most frequent class attribute among the
    cards, with the cards sharing more than :data:`CARD_SHARED_CLASSES` of its class tokens) when
    a list's record ``urls`` (at least one) are none of the page's cards and fewer than those:
    the list step read another region (greenroads.com's two-page wrapper 4 links of a menu,
    nbcnews.com's one link, cnn.com's single-page wrapper 2) than the teasers the page marks as
    its items; else none. A list step with no record stays without (its ``none`` is a precision
    rule: docs/evaluation.md, "List records, third round")."""
    listed = set(urls)
    if not listed:
        return []
    cards = card_records(page) if cards is None else cards
    if not cards or any(r.url in listed for _c, r in cards):
        return []
    main = set(Counter(classes for classes, _r in cards).most_common(1)[0][0].split())
    group = _unique([r for classes, r in cards if _shared(set(classes.split()), main)])
    return group if len(group) > len(listed) else []


def more_teasers(page: Page, records: list[Record]) -> list[Record]:
    """The page's links, not among ``records``, whose markup (:func:`_teaser_markup`: tag and
    class attribute of the link and of :data:`TEASER_LEVELS` elements above it) is that of a
    record's title link, titled with :data:`TITLE_MIN_WORDS` words or more (a section label or
    a topic link in the same slot is not a teaser), none inside a :data:`CARD_OUTSIDE` element
    or a hidden tab pane (:func:`hidden_tab_panes`: a reader sees one table of a tab box), and
    none titled as one of ``records`` (a link titled as a record but leading elsewhere is a
    button, makersmarket's "Add To Cart" behind a wrong record of that title, or the same story
    under another URL: 4 wrong records fewer there, 2 right ones on the leaderboard, wcxb_dev's
    F1 0.920 -> 0.924); one record each, read from the link. Meant for the records of a two-page
    PSNT wrapper: it reads one main structure, one region of a section front whose teasers,
    cards or not, repeat one template in several regions (docs/evaluation.md, "List records,
    fifth round"), and for DWSIE's one list markup (:data:`TEASER_RULES`). DWSIE's other
    readings take their sister lists by markup already; on them the rule adds the other
    carousels and menus of a shop's list markup (measured there, not used)."""
    if not records:
        return []
    nodes, base = page.nodes, base_url(page)
    rows, hrefs = link_hrefs(page)
    by_url: dict[str, list[int]] = {}
    for row, href in zip(rows, hrefs):
        if link_href(nodes.elements[row]) is not None:
            target = join_url(base, href.strip()) if base else href.strip()
            if target is not None:
                by_url.setdefault(target, []).append(row)
    listed, titles = {r.url for r in records}, {r.title.casefold() for r in records}
    markups = set()
    for record in records:
        found = by_url.get(record.url, [])
        titled = [row for row in found if link_title(page, row) == record.title]
        if titled or found:
            markups.add(_teaser_markup(page, (titled or found)[0]))
    linked = sorted((row, url) for url, found in by_url.items() for row in found)
    teasers = []
    for url, found in by_url.items():
        if url in listed:
            continue
        for row in found:
            if (_teaser_markup(page, row) not in markups or nodes.has_ancestor(row, CARD_OUTSIDE)
                    or _in_spans(row, hidden_tab_panes(page))):  # once per page (page.memo)
                continue
            top = _teaser_top(page, row, url, linked)
            record = build_record(page, (top, int(nodes.end[top])),
                                  (int(nodes.seg_lo[top]), int(nodes.seg_hi[top])), [row], base)
            if (record is not None and information_length(record.title) >= TITLE_MIN_WORDS
                    and record.title.casefold() not in titles):
                teasers.append(record)
                break
    return teasers


def _in_spans(row: int, spans: list[tuple[int, int]]) -> bool:
    return any(first <= row <= last for first, last in spans)


def _children(page: Page, parent: int):
    """The rows of ``parent``'s child elements, in order (the node table is in document order,
    ``end`` a row's last descendant)."""
    nodes = page.nodes
    row, end = parent + 1, int(nodes.end[parent])
    while row <= end:
        yield row
        row = int(nodes.end[row]) + 1


def _state_groups(page: Page) -> dict[tuple[int, str, frozenset[str]], tuple[list[int], int]]:
    """Sibling elements of one markup (parent, tag, class tokens but the
    :data:`TAB_STATE_CLASSES`), two or more, exactly one of which carries a state class: ``key ->
    (the members' rows, the index of the marked one)``."""
    nodes, groups = page.nodes, {}
    marked_rows = [row for row, attribute in enumerate(nodes.classes)
                   if attribute and _STATE_CLASS.search(attribute)]  # the regex scans in C
    for row in marked_rows:
        tokens = set(nodes.classes[row].split())
        parent = int(nodes.parent[row])
        if not tokens & TAB_STATE_CLASSES or parent < 0:
            continue
        key = (parent, nodes.tag[row], frozenset(tokens - TAB_STATE_CLASSES))
        if key in groups:
            continue
        members = [c for c in _children(page, parent) if nodes.tag[c] == key[1]
                   and frozenset(set(nodes.classes[c].split()) - TAB_STATE_CLASSES) == key[2]]
        marked = [k for k, c in enumerate(members)
                  if set(nodes.classes[c].split()) & TAB_STATE_CLASSES]
        if len(members) >= 2 and len(marked) == 1:
            groups[key] = (members, marked[0])
    return groups


def hidden_tab_panes(page: Page) -> list[tuple[int, int]]:
    """The row spans of the page's hidden tab panes: a *tab box* is a group of sibling panes of
    one markup, one of them marked with a state class (:data:`TAB_STATE_CLASSES`), and within
    :data:`TAB_NAV_LEVELS` levels above them a *tab bar*: another such group outside the panes,
    of as many members, marked at the same place, holding fewer links than the panes. The
    unmarked panes are the ones a reader does not see until they click their tab (the page's
    style sheets, which we do not apply, hide them). Both groups are asked for, with the same
    marked index, because a lone state class marks many things (a menu's current item, a
    carousel's slide, a selected filter): over the 80 annotated list pages the test finds the
    tab boxes of one page only (netease's leaderboard, 48 panes) where the pane test alone,
    tried in "List records, fifth round", put 180 of cnn's annotated links in "hidden" panes.
    Computed once per page (``page.memo``)."""
    if "hidden_tab_panes" in page.memo:
        return page.memo["hidden_tab_panes"]
    nodes = page.nodes
    groups = list(_state_groups(page).items())
    hidden: list[tuple[int, int]] = []
    for key, (panes, marked) in groups:
        box, spans = key[0], _spans(page, panes)
        for _level in range(TAB_NAV_LEVELS):
            end = int(nodes.end[box])
            if any(other != key and len(tabs) == len(panes) and at == marked
                   and box <= other[0] <= end and not _in_spans(other[0], spans)
                   and _links(page, tabs) < _links(page, panes)
                   for other, (tabs, at) in groups):
                hidden += [span for k, span in enumerate(spans) if k != marked]
                break
            box = int(nodes.parent[box])
            if box < 0:
                break
    page.memo["hidden_tab_panes"] = hidden
    return hidden


def _spans(page: Page, rows: list[int]) -> list[tuple[int, int]]:
    return [(row, int(page.nodes.end[row])) for row in rows]


def _links(page: Page, rows: list[int]) -> int:
    return sum(int(page.nodes.links[row]) for row in rows)


def _teaser_top(page: Page, row: int, url: str, linked: list[tuple[int, str]]) -> int:
    """The highest element above the link at ``row`` whose links all lead to ``url`` (the
    teaser, where its date and authors are read); ``linked`` is every link's ``(row, URL)`` in
    row order."""
    nodes, top = page.nodes, row
    while (parent := int(nodes.parent[top])) >= 0:
        first = bisect_left(linked, (parent, ""))
        last = bisect_right(linked, (int(nodes.end[parent]), "\U0010ffff"))
        if any(other != url for _row, other in linked[first:last]):
            break
        top = parent
    return top


def _teaser_markup(page: Page, row: int) -> tuple[tuple[str, str], ...]:
    """A link's markup: the tag and class attribute (tokens sorted) of the link at ``row`` and
    of the :data:`TEASER_LEVELS` elements above it."""
    nodes, markup = page.nodes, []
    while row >= 0 and len(markup) <= TEASER_LEVELS:
        markup.append(_markup(page, row))
        row = int(nodes.parent[row])
    return tuple(markup)


def _shared(first: set[str], second: set[str]) -> bool:
    """More than :data:`CARD_SHARED_CLASSES` of two class-token sets' union is common to both
    (two cards without a class share their markup)."""
    union = first | second
    return not union or len(first & second) > CARD_SHARED_CLASSES * len(union)


def combined_records(page: Page, classes: NodeClasses, sibling: Page | None) -> tuple[list[Record], str]:
    """PSNT's records when a wrapper induced with ``sibling`` finds some, else DWSIE's list nodes,
    else PSNT's wrapper induced from the page alone (the crawl's single-page fallback); the records
    and which method gave them (``psnt`` / ``dwsie`` / ``psnt_single`` / ``none``)."""
    if sibling is not None:
        records = psnt_records(page, sibling)
        if records:
            return records, "psnt"
    records = dwsie_records(page, classes)
    if records:
        return records, "dwsie"
    records = psnt_records(page, None)
    return records, "psnt_single" if records else "none"


def psnt_records(page: Page, sibling: Page | None) -> list[Record]:
    """The records of a PSNT wrapper induced from ``page`` and ``sibling`` (from ``page`` alone
    when None: :func:`single_page_reading`) and applied to ``page``; none when induction finds no
    wrapper."""
    from extractors.psnt import apply_wrapper, induce_wrapper

    if sibling is None:
        return list(single_page_reading(page)[1])
    induced = induce_wrapper(page, sibling)
    if induced.wrapper is None:
        return []
    return list(apply_wrapper(induced.wrapper, page).records)


def node_classes(page: Page, model: NodeModel) -> NodeClasses:
    """:func:`extractors.dwsie.classify_nodes` of ``page`` by ``model``, run once per page and
    model (``page.memo``): the page-type step's ``listed`` check
    (:func:`extractors.pagetype.listed_page`) and the list step read the same classes of the same
    parse, so a page typed list runs the network once."""
    found = page.memo.get("node_classes")
    if found is None or found[0] is not model:
        found = page.memo["node_classes"] = (model, classify_nodes(page, model))
    return found[1]


def single_page_reading(page: Page) -> tuple[Induction, tuple[Record, ...]]:
    """The PSNT wrapper induced from ``page`` alone (:class:`extractors.psnt.Induction`) and
    the records it finds on ``page`` (none when induction finds no wrapper or the application
    none), computed once per page (``page.memo``), as :func:`node_classes`: the ``listed`` check
    and the list step's confirmed records read the same. The records are shared: copy before
    changing the list."""
    found = page.memo.get("single_page_reading")
    if found is None:
        from extractors.psnt import apply_wrapper, induce_wrapper

        induced = induce_wrapper(page, None)
        records = () if induced.wrapper is None else tuple(apply_wrapper(induced.wrapper,
                                                                         page).records)
        found = page.memo["single_page_reading"] = (induced, records)
    return found


@dataclass(slots=True)
class PageInfo:
    """The page type, the list records and the article's fields of one page."""

    url: str | None
    page_type: str
    records: list[Record]
    records_by: str
    doc: dict | None


def page_info(document: bytes | str, model: NodeModel, url: str | None = None,
              sibling: bytes | str | None = None, article: bool = True) -> PageInfo:
    """Classify ``document``'s nodes and extract what its page type calls for; ``article`` False
    skips the article chain (``detect_pagetype`` needs only the type)."""
    from extractors import extract
    from extractors.page import parse_page

    page = parse_page(document, url=url)
    classes = node_classes(page, model)  # the article chain's page type reads them again
    other = None
    if sibling is not None and classes.page_type in ("list", "article"):
        try:
            other = parse_page(sibling)
        except ValueError:
            other = None
    records, by = ([], "none")
    if classes.page_type == "list":
        records, by = crawl_records(page, classes, other)
    doc = None
    if article and classes.page_type == "article":
        found = extract(page, sibling=other).to_dict()
        image = found.get("image") or _first_image(page, classes.content)
        doc = {"title": found.get("title"), "column": found.get("section"),
               "au": ", ".join(found.get("authors") or []) or None,
               "date": found.get("published"), "main_img": image,
               "cont": found.get("body"), "keywords": ", ".join(found.get("keywords") or []) or None}
    return PageInfo(url, classes.page_type, records, by, doc)


def _first_image(page: Page, content: int | None) -> str | None:
    """Paper 002's ``main_img`` where the page declares none: the first image of the content
    node's subtree, resolved against the page's base URL."""
    if content is None:
        return None
    for img in page.nodes.elements[content].iter("img"):
        src = (img.get("src") or "").strip()
        if src and not src.startswith("data:"):
            base = base_url(page)
            url = join_url(base, src) if base else src
            if url is not None:
                return url
    return None


#: Paper 002's page-type names (``CP`` content page, ``LP`` list page, ``Unknown``).
PAPER_TYPES = {"article": "CP", "list": "LP", "other": "Unknown"}


def paper_shape(info: PageInfo) -> dict:
    """``{url, page_type, titles: [{title, href, au, date}], doc}`` as paper 002, 2.3 prints it
    (without ``page``, the page's source, which the caller already has)."""
    return {"url": info.url, "page_type": PAPER_TYPES[info.page_type],
            "titles": [{"title": r.title, "href": r.url, "au": ", ".join(r.authors) or None,
                        "date": r.date} for r in info.records],
            "doc": info.doc}
