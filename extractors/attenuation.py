"""Main text by information-amount attenuation (paper 000; algorithms.md section 1).

``FindMT`` walks down from ``body`` towards the subject region: while the current node has one
text-bearing child it steps in; otherwise it compares the node's non-link text ``Clen`` with that of its
richest child ``Mlen``. A sudden drop, ``(Clen - Mlen) / Clen > T``, means the walk has reached the node
that holds all the paragraphs, and it stops there. ``CleanTree`` then removes, inside that region, every
subtree whose link density exceeds ``DLmax``; the remaining text, in document order, is the body.

Reading taken (algorithms.md): the printed pseudo-code returns the child ``MT`` when ``r > T``, but the
paper's text and its figure 1 put the subject region at the node *before* the drop; we return that node
(``cur``). A node with no text-bearing element child ends the walk. The paper's tree is the DOM, where
a node's own text is a child too: a ``div`` holding the story as text between ``<br>`` and one small
element child has several children there, so the drop test applies to it (the node is not stepped
through as a single-child node; this lost every latimes 2005 story to its one-cell ad table).

CleanTree removes "link nodes". The paper's definition 1 calls a link node an element whose subtree holds
no body text but *several* ``<a>`` elements and much link text; its DL test alone would also delete every
in-text link (an ``<a>`` has DL = 1), cutting words out of sentences. We take the definition literally: a
node is removed when ``DL > DLmax`` and its subtree holds at least ``MIN_LINKS_IN_LINK_NODE`` links.
The region root itself is exempt: FindMT chose it as the subject region, and removing it returns nothing.
"""

from __future__ import annotations

import functools
import re
import threading
from bisect import bisect_right
from dataclasses import dataclass, field

import numpy as np

from extractors.boilerplate import name_words, page_markup, rows_named
from extractors.nodetable import NodeTable
from extractors.page import Page

__all__ = ["ATTENUATION_THRESHOLD", "BLOCK_SIBLING_MAX_LINK_DENSITY", "BLOCK_SIBLING_TAGS",
           "LIST_CASE_JOINS", "LIST_OFF_TAGS", "LIST_SCREEN_READER", "LIST_THRESHOLD",
           "MAX_LINK_DENSITY", "MainText", "OFF_STORY_TAGS", "clean_tree", "extract_list_text",
           "extract_main_text", "find_subject_region", "region_text", "story_siblings"]

#: ``T`` of FindMT: the authors' choice from a 0.20–0.50 sweep (step 0.02) on 700 pages (paper 000, 3.2).
ATTENUATION_THRESHOLD = 0.34
#: ``T`` of the walk on a page typed ``list`` (:func:`extract_list_text`, over all the text). On
#: the wcxb_dev pages the chain types list (119; gold: 113 list, 6 other), summed page F1 by
#: threshold, training sites / held-out sites: the article walk 35.3 / 11.6; this walk at 0.5
#: 42.5 / 14.6, 0.34 44.0 / 16.1, 0.2 46.7 / 16.8, 0.15 46.9 / 16.9, 0.1 46.8 / 16.9.
LIST_THRESHOLD = 0.2
#: Elements inside a list page's region whose text is not the list's (:func:`extract_list_text`):
#: a shop's filter and sort forms (``form``, ``fieldset``: checkboxes of brands and price ranges,
#: "Sort By", "Refine by"), a menu or footer set inside the region. Only elements strictly inside
#: the region go (an ASP.NET page wraps its whole body in one ``form``). On the 140 wcxb_dev
#: pages the chain types list (with a gold body), summed page F1, training sites / held-out
#: sites (2026-11-27): the region's whole text 59.60 / 18.53; without these and
#: :data:`LIST_SCREEN_READER` text 62.76 / 19.21 (26 pages up by 0.02 or more, none down); each
#: alone: ``form`` 60.35 / 19.10, ``fieldset`` 60.75 / 18.54, ``nav`` 59.89 / 18.60, ``footer``
#: 59.70 / 18.56. Left out: ``label`` (60.60 / 18.65 alone, 2 pages down, no gain with the
#: others), ``header`` (59.85 / 18.31), filter, facet and sort class words (59.12 / 18.67: a
#: shop's product grid is often inside its "facets" container), and the same elements taken out
#: of the walk's weights as well (61.52 / 19.21: three pages down whose walk then went deeper).
LIST_OFF_TAGS = ("form", "fieldset", "nav", "footer")
#: Names of text shown to screen readers only (``sr-only``, ``visually-hidden``, WordPress's
#: ``screen-reader-text``): "Filter by", "Opens in a new window", "Current price". Inside a list
#: page's region that text goes with :data:`LIST_OFF_TAGS` (alone: 61.54 / 18.54, 16 pages up, 2
#: down).
LIST_SCREEN_READER = re.compile(
    r" (?:sr|visually\w*|screenreader\w*|screen reader|offscreen) ")
#: On a page typed list, a space between two elements of one line whose texts run from a
#: lower-case letter into an upper-case one, or from a digit into a digit
#: (``<span>Black Diamond</span><span>Spot 400 Headlamp</span>``: a brand and a product name;
#: ``<span>2026</span><span>1h 54m</span>``: a film's year and length), set on lines of their own
#: by the site's style sheet, which the chain does not read: "DiamondSpot" and "20261h" were one
#: word each. A boundary between an element and the text around it counts too ("<b>W</b>ord"
#: keeps its word: upper into lower). Every page of the nine body sets (2026-11-27): wcxb_dev
#: 0.8546 -> 0.8556 with the letters' test (19 pages up, 8 down by 0.003 or less), -> 0.8560
#: with the digits' too (held-out sites 0.8399 -> 0.8413; 3 up, 3 down by 0.006 or less); the
#: eight other sets unchanged on every page. On every page (the article chain too), the
#: letters' test: wcxb_dev 0.8558 (47 up, 32 down) and aeb one page up, but cleanportaleval
#: 0.9572 -> 0.9570 (two msnbc.com stories), cx_bbc and readability_testpages one page down
#: each: so list pages only.
LIST_CASE_JOINS = True
#: ``DLmax`` of CleanTree: link text / text above which a subtree is noise (paper 000, 3.3).
MAX_LINK_DENSITY = 0.65
#: "several <a> elements" of paper 000's definition 1 (link node).
MIN_LINKS_IN_LINK_NODE = 2

#: Leave out the lines (blocks) whose text is all inside links at the start and the end of the
#: body ("Skip to content", "Read more", a related headline at the region's edges). Off: on the
#: nine dev sets it raised body F1 by 0.001 (aeb, big9, cleanportaleval), snippet F1 by 0.005
#: (trafilatura_eval), but it cut the first product name of list pages (list_records gate set:
#: snippet F1 0.653 with it, 0.704 without, floor 0.697). ``region_text(..., True)`` keeps it
#: available: the chain applies it to pages typed ``article``
#: (:data:`extractors.ARTICLE_LINK_EDGES`).
DROP_LINK_ONLY_EDGES = False
#: ... a line counts as link text there when at least this share of its characters is inside
#: links (1.0: every segment linked, the rule as first written): a closing pointer with a label
#: of its own ("Our Standards: <a>The Thomson Reuters Trust Principles.</a>", "(Leggi anche su:
#: <a>...</a>)", "Mire: <a>...</a>") is one too. Every page of the nine body sets, from main at
#: c90a3d8 (2026-11-28), at 0.7: trafilatura_eval snippets 0.9357 -> 0.9360 (2 unwanted fewer,
#: none wanted lost), aeb 0.97802 -> 0.97830 (3 pages up, 1 down by under 0.001), big9 0.97275 ->
#: 0.97281 (4 up, 1 down), cleanportaleval 0.95807 -> 0.95852 (1 up), wcxb_dev 0.86394 ->
#: 0.86393 (11 up, 10 down), readability_testpages 0.95473 -> 0.95470 (iab-1 -0.003),
#: cx_bbc 0.95953 -> 0.95951 (1 down), cx_163 and gne unchanged on every page. At 0.5 (lines half
#: in links): aeb 0.97827 but 4 pages down by up to 0.037 (a deals lead and a story's first
#: line with their links), big9 0.97267 (8 down), wcxb_dev 0.86388 (33 down), a wanted snippet
#: lost on trafilatura_eval.
EDGE_LINK_SHARE = 0.7

#: Siblings of the subject region that join it: the story's other paragraphs when FindMT went one
#: level too deep (a lead paragraph beside the ``div`` of the rest, an Elementor widget whose last
#: ``p`` holds most of the text). A sibling joins when it is one of these elements, holds at
#: least :data:`SIBLING_MIN_CHARS` non-link characters and at most
#: :data:`SIBLING_MAX_LINK_DENSITY` of its text in links. Every page of the nine dev sets, body F1
#: (trafilatura_eval snippet F1; gne and cx_163 CJK-aware), before -> these tags (chosen) ->
#: with ``div``/``section``/``ul``/``ol`` siblings too (tried) -> those only when link-free (tried):
#:
#:   aeb 0.9619 -> 0.9619 -> 0.9616 -> 0.9615; big9 0.9536 -> 0.9544 -> 0.9580 -> 0.9570;
#:   cleanportaleval 0.9583 -> 0.9592 (all three); cx_bbc 0.9502 (all four);
#:   wcxb_dev 0.8176 -> 0.8184 -> 0.8191 -> 0.8186; readability_testpages 0.9237 -> 0.9257 ->
#:   0.9279 -> 0.9256; trafilatura_eval 0.8857 -> 0.8900 -> 0.8936 -> 0.8926; cx_163 0.9252 ->
#:   0.9249 (all three); gne 0.9852 -> 0.9852 -> 0.9789 -> 0.9789.
#:
#: The block elements took a teaser list (headlines with summaries and dates, low link density)
#: into gne's sina page (F1 0.99 -> 0.85): over the 0.005 a set may lose, so they stay out.
SIBLING_TAGS = frozenset({"p", "h2", "h3", "h4", "blockquote"})
#: Non-link characters a sibling must hold (readability's paragraph test uses 80 too).
SIBLING_MIN_CHARS = 80
#: Link text / text above which a sibling stays out (readability's paragraph test: 0.25).
SIBLING_MAX_LINK_DENSITY = 0.25
#: A region that is itself one of these elements is one paragraph of the story (the walk stepped
#: into it because it held most of the text): its siblings of :data:`SIBLING_TAGS` join whatever
#: their length while they hold no link, not only from :data:`SIBLING_MIN_CHARS` characters on
#: (a blog post's short closing line, "Ich hoffe euch gefällt der Relaunch.", a list of names set
#: as one ``p`` each, a subheading between two paragraphs). Every page of the nine body sets
#: (2026-11-27): trafilatura_eval snippets 0.9117 -> 0.9130 (7 pages up, none down), wcxb_dev
#: 0.8480 level (3 pages up), readability_testpages 0.9322 -> 0.9323 (2 up), cx_163 0.8646 ->
#: 0.8650 (1 up); aeb, big9, cleanportaleval, cx_bbc, gne unchanged. With links allowed up to
#: :data:`SIBLING_MAX_LINK_DENSITY`: two more pages down ("News date : ... Category : <a>", "You
#: can view our June 2018 open thread <a>here</a>."); for a region of any tag: gne 0.9142 ->
#: 0.8989 (a toutiao page's short teasers), cx_163 9 pages down, aeb 3.
SHORT_SIBLING_REGION_TAGS = frozenset({"p"})
#: Levels whose paragraph siblings join: the region's own, then its parent's and grandparent's,
#: where the story's first paragraphs sit one or two levels above the region FindMT chose.
SIBLING_LEVELS = 3
#: Blocks beside the region that join it when they hold no link and at least
#: :data:`SIBLING_MIN_CHARS` non-link characters: those before the region, or those after it
#: sharing a class (or a BEM block: "zn-body__paragraph" is of "zn-body") with it. Any such block
#: (the 2026-11-24 trial above) took a promotion box after gne's sina story; these two kinds are
#: the story's own. Every page, before -> paragraphs 3 levels up and these blocks (2026-11-26):
#: aeb 0.9618 -> 0.9630, big9 0.9543 -> 0.9573, readability_testpages 0.9298 -> 0.9309,
#: wcxb_dev 0.8205 -> 0.8212, trafilatura_eval snippets 0.9014 -> 0.9039; gne, cx_163, cx_bbc,
#: cleanportaleval unchanged.
BLOCK_SIBLING_TAGS = frozenset({"div", "section"})
#: A block of the region's own class (or BEM block) may hold links, up to this share of its text
#: (a story cut into blocks of one template, with links in its sentences: CNN's
#: ``zn-body__paragraph``); a block of another class must hold none. Every page, before -> after
#: (2026-11-26, evening): aeb 0.9691 -> 0.9694, big9 0.9638 -> 0.9640, wcxb_dev 0.8344 -> 0.8345
#: (4 pages up, 3 down), trafilatura_eval snippets 0.9091 -> 0.9093; the other sets unchanged.
BLOCK_SIBLING_MAX_LINK_DENSITY = 0.2
#: ... and so may a block before the region whose text is all in paragraphs (at least
#: :data:`BEFORE_BLOCK_PROSE_SHARE` of it in ``p`` elements): the story's first paragraphs in a
#: block of their own, links in their sentences (engadget's ``o-article_block``, CNN's
#: "sourced paragraph" with its dateline, popsugar's first ``post-content``). Without the
#: paragraphs' test, a home page's or a shop's banner before its region joined (a notice bar,
#: "BOGO: Buy one, get one 50% off", npr's audio player: wcxb_dev 5 pages down). Every page of
#: the nine body sets (2026-11-27): readability_testpages 0.9542 -> 0.9544 (engadget 0.935 ->
#: 0.967), aeb 0.9779 -> 0.9780 (cnn.com 0.976 -> 0.993), trafilatura_eval one more snippet
#: found (popsugar); the other pages of every set unchanged.
BEFORE_BLOCK_LINKS = True
BEFORE_BLOCK_PROSE_SHARE = 0.95
#: Words a block beside the region must hold, and tags and names it must not: a print view's URL
#: and a photo's caption before the story are link-free blocks too (without these tests, aeb's
#: hearst and bloomberg pages lost 0.03-0.07 F1 each).
BLOCK_SIBLING_MIN_WORDS = 12
_NOT_PROSE_TAGS = frozenset({"img", "picture", "figure", "figcaption", "h1", "video", "iframe"})
_MEDIA_NAME = re.compile(r" (?:caption|image|img|photo|picture|media|figure|credit|gallery|video)"
                         r"[a-z0-9]* ")

#: Levels above the region at which the story's other blocks are looked for among the rows of a
#: page builder (WPBakery's ``vc_row > wpb_column > vc_column-inner > wpb_wrapper >
#: wpb_text_column > wpb_wrapper``, Medium's ``section-inner``, a React page's ``PageSection``):
#: the walk chose one text column of one row and the story's other rows were lost. For each
#: ancestor with a class, up to this many levels and not past ``article``/``main``/``body``, its
#: siblings of the same tag and class in the run around it (another kind of sibling with text
#: ends the run: a references list, a share bar) are followed down the region's own path of tags
#: and classes (their numbered words aside: :data:`COUSIN_NUMBERED_NAMES`); a row so found joins
#: as a block beside the region would (prose of
#: :data:`BLOCK_SIBLING_MIN_WORDS` words, at most :data:`BLOCK_SIBLING_MAX_LINK_DENSITY` in
#: links), but may hold pictures; not a headline, a form or input (a BBC "contact us" form built
#: as a story block), nor a block opened by a horizontal rule (a press release's "About the
#: company" after it, same class as the story's text: ascom.com in aeb, -0.146 F1 on two pages
#: without this test). Every page of the nine body sets (2026-11-26, night), body F1
#: (trafilatura_eval snippet F1), before -> after: big9 0.9635 -> 0.9645 (6 pages up, none down),
#: readability_testpages 0.9276 -> 0.9294 (3 up), wcxb_dev 0.8442 -> 0.8444 (7 up, 2 down by
#: 0.03 and 0.02: a footnotes block and a forum's "topic closed" post), trafilatura_eval 0.9096 ->
#: 0.9105 (5 pages); aeb, cleanportaleval, cx_bbc, cx_163, gne unchanged. 4 levels: wcxb_dev and
#: trafilatura_eval one page less each; 8: the same as 6.
COUSIN_LEVELS = 6
_COUSIN_STOP_TAGS = frozenset({"article", "main", "body", "html"})
_COUSIN_NOT_PROSE_TAGS = frozenset({"h1", "form", "input"})
#: Only the page's first ``h1`` (its headline) keeps a block from being a cousin: a page may
#: head the parts of its story with ``h1`` too (Medium does, in the rows after each picture).
#: Every page of the nine body sets (2026-11-27): readability_testpages 0.9536 -> 0.9544
#: (lazy-image-1 0.84 -> 0.97), every other page of every set unchanged.
COUSIN_LATER_H1 = True
#: The rows of a page builder are told apart by their class words without the words holding a
#: digit: those are the builder's numbers for one element (WPBakery's ``vc_custom_1563455446145``,
#: tagDiv's ``tdi_13_e17``, a column's width ``vc_col-sm-8`` beside ``vc_col-sm-9``), so the
#: story's next row, alike but for them, was not a twin of the region's (djz.de's press release
#: and journelles.de's gift guide, trafilatura_eval, each lost its first rows). A class all of
#: whose words hold digits (a CSS-in-JS build's hashes, "css-1x2y3z") is compared whole: with
#: nothing left, every such block was a twin of every other (wcxb_dev: wirecutter's guide boxes,
#: posthog's and miro's landing rows joined, five pages down by up to 0.036). Every page of the
#: nine sets, before -> after (2026-11-28): trafilatura_eval snippets 0.9370 -> 0.9373 (those two
#: pages, none down), wcxb_dev 0.8643 -> 0.8644 (southcarolinablues.com 0.91 -> 1.0, none down);
#: aeb, big9, readability_testpages, cleanportaleval, cx_bbc, cx_163, gne unchanged on every page.
COUSIN_NUMBERED_NAMES = True


def _builder_kind(classes: str) -> str:
    """``classes`` as twins are compared: without its words holding a digit, unless none is
    left (see :data:`COUSIN_NUMBERED_NAMES`)."""
    return _unnumbered(classes) if COUSIN_NUMBERED_NAMES else classes


@functools.lru_cache(maxsize=4096)
def _unnumbered(classes: str) -> str:
    kept = " ".join(word for word in classes.split() if not any(ch.isdigit() for ch in word))
    return kept or classes

#: Landmarks the walk never steps into while a sibling holds text: a ``footer``, and an
#: ``aside`` without an ``article`` or ``main`` inside (a page that wraps its whole layout in an
#: ``aside`` keeps its story there). Their text does not count in the drop test either: the walk
#: weighs the region against the rest of the story's side. Weak furniture already removes them
#: when they hold under half the page's non-link text; this is for the pages where they hold
#: more (a blog's archive list, a site map, a product page whose story is a short description):
#: the walk chose a region inside one on 19 pages of trafilatura_eval and wcxb_dev, and was right
#: on 4 (each an ``aside`` holding the ``article``).
#: Every page, body F1 (trafilatura_eval snippet F1), before -> after: wcxb_dev 0.8314 ->
#: 0.8340 (14 pages up, 2 down), trafilatura_eval 0.9061 -> 0.9074 (3 pages up); aeb, big9,
#: readability_testpages, cleanportaleval, cx_bbc, cx_163, gne unchanged. Tried and left out:
#: ``nav`` the same way (wcxb_dev -0.0006, one page down), ``header`` (wcxb_dev -0.0013).
OFF_STORY_TAGS = frozenset({"footer", "aside"})
#: An element whose text all lies in landmarks of :data:`OFF_STORY_TAGS` inside it is passed by
#: as they are (the walk does not step into it while a sibling holds text, and its text does not
#: count in the drop test), not only the landmark itself: Shopify and Elementor themes wrap their
#: footer in blocks of its own (``body > div.shopify-section > footer``), and the walk stepped
#: into a footer holding most of the page's text (return, privacy and terms policies in modal
#: boxes: 97 000 characters beside a 2 500-character product; a footer's reviews written twice).
#: Every page of the nine body sets (2026-11-26, night), body F1 (trafilatura_eval snippet F1):
#: wcxb_dev 0.8442 -> 0.8452 (4 pages up, 1 down), trafilatura_eval 0.9092 -> 0.9105 (3 up, none
#: down); aeb, big9, readability_testpages, cleanportaleval, cx_bbc, cx_163, gne unchanged.
#: Taking the landmarks' text out of every row's weight instead (not only of wrappers holding
#: nothing else) stopped the walk at ``body`` on pages whose ``main`` holds large asides
#: (wired.com: 0.89 -> 0.71; mactechnews.de) and was left out.
NESTED_OFF_STORY = True
_STORY_TAGS = frozenset({"article", "main"})


@dataclass(frozen=True, slots=True)
class MainText:
    """The body text, the node-table row of the subject region, and why nothing was found if so."""

    text: str
    region: int | None
    reason: str | None = None
    #: The rows whose text is the body (for a later step that refines it, e.g. paper 001's stage 2).
    keep: np.ndarray | None = field(default=None, repr=False, compare=False)


def extract_main_text(page: Page, threshold: float = ATTENUATION_THRESHOLD,
                      max_link_density: float = MAX_LINK_DENSITY,
                      content: np.ndarray | None = None, start: int = 0,
                      masked: NodeTable | None = None) -> MainText:
    """Run FindMT then CleanTree on ``page`` and return the main text.

    ``content`` (a row mask, e.g. from LCS denoising) restricts the walk to the text of those rows:
    everything else counts as absent. ``start`` is the row the walk starts from (``body``, or the
    story container the page marks, see :mod:`extractors.story`). ``masked`` is
    ``page.nodes.masked(content)`` when the caller has it already.
    """
    if content is None:
        nodes = page.nodes
    else:
        nodes = page.nodes.masked(content) if masked is None else masked
    if len(nodes) == 0 or nodes.nonlink_text[0] == 0:
        return MainText("", None, "no non-link text on the page")
    if nodes.nonlink_text[start] == 0:
        start = 0
    region = find_subject_region(nodes, threshold, start)
    keep = clean_tree(nodes, region, max_link_density)
    if region != start:
        for sibling in story_siblings(nodes, region):
            keep |= clean_tree(nodes, sibling, max_link_density)
    for row in _ingredient_blocks(page, nodes, region, content):
        keep |= clean_tree(nodes, row, max_link_density)
    if content is not None:
        keep &= content
    text = region_text(nodes, keep, DROP_LINK_ONLY_EDGES)
    if not text:
        return MainText("", region, "the subject region is all links")
    return MainText(text, region, keep=keep)


#: Words of a recipe's ingredient list ("recipe-ingredients", "list--ingredients",
#: "m053-ingredients", "zutaten"): a block so named outside the walk's region joins the body
#: (:func:`_ingredient_blocks`). Recipe pages set the ingredients in a box beside the
#: preparation, whose text the walk follows: chefkoch.de, lecker.de and oetker.de
#: (trafilatura_eval) lost their ingredients, which the gold keeps. Every page of the nine body
#: sets (2026-11-27): trafilatura_eval snippets 0.9287 -> 0.9301 (those 3 pages: 9 more wanted
#: snippets, no unwanted one), every page of the other eight sets unchanged.
INGREDIENT_WORDS = ("ingredient*", "zutat*", "ingrediente*", "skladnik*")
#: ... when the smallest element holding both the region and the block holds at most this many
#: times their text together (the box sits beside the preparation, not in another part of the
#: page).
MAX_INGREDIENT_SPREAD = 2.0
#: ... and at most this many such blocks are looked at (each climbs to its common ancestor with
#: the region: a page of thousands of blocks so named stays linear).
MAX_INGREDIENT_BLOCKS = 20


def _ingredient_blocks(page: Page, nodes: NodeTable, region: int,
                       content: np.ndarray | None) -> list[int]:
    """The outermost blocks named as a recipe's ingredients (:data:`INGREDIENT_WORDS`) outside
    ``region`` and not around it, with text, near it (:data:`MAX_INGREDIENT_SPREAD`)."""
    named = rows_named(page, INGREDIENT_WORDS)
    if not named.any():
        return []
    found, last, seen = [], -1, 0
    end = int(nodes.end[region])
    for row in np.flatnonzero(named).tolist():
        if row <= last:  # inside a block already seen
            continue
        seen += 1
        if seen > MAX_INGREDIENT_BLOCKS:
            break
        last = int(nodes.end[row])
        if region <= row <= end or row < region <= last or nodes.text[row] == 0 \
                or (content is not None and not content[row]):
            continue
        common = int(nodes.parent[region])
        while common > 0 and not common <= row <= int(nodes.end[common]):
            common = int(nodes.parent[common])
        if nodes.text[common] <= MAX_INGREDIENT_SPREAD * (nodes.text[region] + nodes.text[row]):
            found.append(row)
    return found


def extract_list_text(page: Page, content: np.ndarray | None = None, start: int = 0,
                      threshold: float = LIST_THRESHOLD) -> MainText:
    """The main text of a page typed ``list``: FindMT over all the text, link text included,
    and the region's whole text (no CleanTree). An extension of paper 000, whose pages are
    articles: a list's items are mostly links, so the walk over non-link text passes them by
    for the page's bit of prose or a stray block, and CleanTree's link density prunes them.

    ``content`` (a row mask: the furniture removal's) and ``start`` as in
    :func:`extract_main_text`; ``threshold`` see :data:`LIST_THRESHOLD`.
    """
    nodes = page.nodes if content is None else page.nodes.masked(content)
    if len(nodes) == 0 or nodes.text[0] == 0:
        return MainText("", None, "no text on the page")
    if nodes.text[start] == 0:
        start = 0
    region = find_subject_region(nodes, threshold, start, weights=nodes.text)
    keep = nodes.subtree_mask(region)
    if content is not None:
        keep &= content
    off = _list_off_rows(page, region)
    text = region_text(nodes, keep & ~off, case_joins=LIST_CASE_JOINS) if off is not None else ""
    if text:
        keep &= ~off
    else:  # nothing but such elements: the region's whole text
        text = region_text(nodes, keep, case_joins=LIST_CASE_JOINS)
    return MainText(text, region, None if text else "the list region has no text", keep=keep)


def _list_off_rows(page: Page, region: int) -> np.ndarray | None:
    """Rows strictly inside ``region`` that belong to an element of :data:`LIST_OFF_TAGS` or one
    named by :data:`LIST_SCREEN_READER` (``None`` when there is none)."""
    markup = page_markup(page)
    nodes = page.nodes
    flagged = np.isin(markup.tags, LIST_OFF_TAGS)
    names = markup.names
    if names is not None and names.unique:
        named = {names.unique[k] for k in names.matching(LIST_SCREEN_READER)}
        if named:
            flagged |= np.fromiter(map(named.__contains__, names.names), dtype=bool,
                                   count=len(nodes))
    stop = int(nodes.end[region])
    flagged[:region + 1] = False
    flagged[stop + 1:] = False
    rows = np.flatnonzero(flagged)
    if not len(rows):
        return None
    marks = np.zeros(len(nodes) + 1, dtype=np.int32)  # each flagged subtree as an interval
    np.add.at(marks, rows, 1)
    np.add.at(marks, nodes.end[rows] + 1, -1)
    return np.cumsum(marks[:-1]) > 0


def find_subject_region(nodes: NodeTable, threshold: float = ATTENUATION_THRESHOLD,
                        start: int = 0, weights: np.ndarray | None = None) -> int:
    """FindMT: the row of the node that holds the subject region's paragraphs. ``weights``: the
    characters the walk weighs per row (default the non-link text ``Lc``, as the paper)."""
    lc = nodes.nonlink_text if weights is None else weights
    off_rows = _off_story_rows(nodes) if NESTED_OFF_STORY else []
    cur = start
    while True:
        children = nodes.children(cur)
        children = children[lc[children] > 0]
        if len(children) == 0:
            return cur
        total = lc[cur]
        beside = [c for c in children.tolist() if _beside_the_story(nodes, c)
                  or (off_rows and _wraps_off_story(nodes, lc, c, off_rows))]
        if beside and len(beside) < len(children):  # their text is not the walk's to weigh
            total = total - lc[beside].sum()
            children = children[~np.isin(children, beside)]
        richest = int(children[np.argmax(lc[children])])
        if (total - lc[richest]) / total > threshold:  # text nodes are children too
            return cur
        cur = richest


def _off_story_rows(nodes: NodeTable) -> list[int]:
    """The rows of :data:`OFF_STORY_TAGS` elements, in document order; kept for the last table's
    tags (the walks of one page, on its masked copies, share them: 0.1 ms a scan). The cache is
    per thread: the crawl extracts pages in several worker threads at once."""
    cache = _OFF_ROWS.__dict__
    if cache.get("tags") is not nodes.tag:
        cache["rows"] = [row for row, tag in enumerate(nodes.tag) if tag in OFF_STORY_TAGS]
        cache["tags"] = nodes.tag
    return cache["rows"]


_OFF_ROWS = threading.local()


def _wraps_off_story(nodes: NodeTable, weights: np.ndarray, row: int, off_rows: list[int]
                     ) -> bool:
    """Whether the whole weight of ``row`` lies in off-story landmarks inside it
    (:func:`_beside_the_story`): a ``div`` whose text is a footer; see :data:`NESTED_OFF_STORY`."""
    stop = int(nodes.end[row])
    inside, last = 0, -1
    for landmark in off_rows[bisect_right(off_rows, row):bisect_right(off_rows, stop)]:
        if landmark > last and _beside_the_story(nodes, landmark):
            inside += weights[landmark]
            last = int(nodes.end[landmark])
    return inside >= weights[row]


def _beside_the_story(nodes: NodeTable, row: int) -> bool:
    """A ``footer``, or an ``aside`` holding no ``article``/``main``: see :data:`OFF_STORY_TAGS`."""
    tag = nodes.tag[row]
    if tag not in OFF_STORY_TAGS:
        return False
    return tag == "footer" or not any(t in _STORY_TAGS
                                      for t in nodes.tag[row + 1:int(nodes.end[row]) + 1])


def story_siblings(nodes: NodeTable, region: int) -> list[int]:
    """The rows near ``region`` that are more of the story's paragraphs, in document order:

    - siblings of ``region`` and of its first :data:`SIBLING_LEVELS` - 1 ancestors that are
      paragraphs (see :data:`SIBLING_TAGS`);
    - siblings of ``region`` that are link-free blocks (see :data:`BLOCK_SIBLING_TAGS`): those
      before it (a lead or standfirst set apart) and those of the same class or BEM block (the
      story cut into blocks of one template; these may hold a few links, see
      :data:`BLOCK_SIBLING_MAX_LINK_DENSITY`);
    - the region's cousins in a page builder's rows (see :data:`COUSIN_LEVELS`).
    """
    found: list[int] = []
    row = region
    for level in range(SIBLING_LEVELS):
        parent = int(nodes.parent[row])
        if parent < 0:
            break
        short = level == 0 and nodes.tag[region] in SHORT_SIBLING_REGION_TAGS
        found += _paragraphs_beside(nodes, row, short)
        if level == 0:
            found += _blocks_beside(nodes, row)
        row = parent
    found += _cousin_blocks(nodes, region)
    return sorted(set(found))


def _paragraphs_beside(nodes: NodeTable, region: int, short: bool = False) -> list[int]:
    """Siblings of ``region`` that are paragraphs of the story (:data:`SIBLING_TAGS`); with
    ``short``, link-free ones under :data:`SIBLING_MIN_CHARS` too (see
    :data:`SHORT_SIBLING_REGION_TAGS`)."""
    lc = nodes.nonlink_text
    found = []
    for row in nodes.children(int(nodes.parent[region])):
        row = int(row)
        if row == region or nodes.tag[row] not in SIBLING_TAGS or lc[row] <= 0:
            continue
        if lc[row] < SIBLING_MIN_CHARS and not (short and nodes.links[row] == 0):
            continue
        if nodes.link_text[row] > SIBLING_MAX_LINK_DENSITY * nodes.text[row]:
            continue
        found.append(row)
    return found


def _blocks_beside(nodes: NodeTable, region: int) -> list[int]:
    lc = nodes.nonlink_text
    blocks = _class_blocks(nodes.classes[region])
    found = []
    for row in nodes.children(int(nodes.parent[region])):
        row = int(row)
        if (row == region or nodes.tag[row] not in BLOCK_SIBLING_TAGS
                or lc[row] < SIBLING_MIN_CHARS):
            continue
        same = bool(blocks & _class_blocks(nodes.classes[row]))
        if nodes.links[row] > 0 and not (
                (same or (BEFORE_BLOCK_LINKS and row < region and _all_paragraphs(nodes, row)))
                and nodes.link_text[row] <= BLOCK_SIBLING_MAX_LINK_DENSITY * nodes.text[row]):
            continue
        if not (row < region or same):
            continue
        subtree = nodes.tag[row:int(nodes.end[row]) + 1]
        if (_NOT_PROSE_TAGS.intersection(subtree)  # a photo and its caption, the headline
                or _MEDIA_NAME.search(name_words(nodes.classes[row] + " " + nodes.ident[row]))):
            continue
        words = sum(len(t.split()) for t in nodes.seg_text[nodes.seg_lo[row]:nodes.seg_hi[row]])
        if words >= BLOCK_SIBLING_MIN_WORDS:  # prose, not a URL printed for the print view
            found.append(row)
    return found


def _all_paragraphs(nodes: NodeTable, row: int) -> bool:
    """Whether at least :data:`BEFORE_BLOCK_PROSE_SHARE` of the text of ``row`` is in its
    paragraphs (``p`` elements; see :data:`BEFORE_BLOCK_LINKS`)."""
    end = int(nodes.end[row]) + 1
    in_p = 0
    k = row
    while k < end:
        if nodes.tag[k] == "p":
            in_p += int(nodes.text[k])
            k = int(nodes.end[k]) + 1
        else:
            k += 1
    return in_p >= BEFORE_BLOCK_PROSE_SHARE * nodes.text[row]


def _cousin_blocks(nodes: NodeTable, region: int) -> list[int]:
    """The rows at the region's place in the rows beside one of its ancestors that are built
    like that ancestor (see :data:`COUSIN_LEVELS`), where they hold prose."""
    lc = nodes.nonlink_text
    path: list[tuple[str, str]] = []  # (tag, class) of each row from the ancestor down
    found: list[int] = []
    row = region
    for _level in range(COUSIN_LEVELS):
        path.insert(0, (nodes.tag[row], nodes.classes[row]))
        parent = int(nodes.parent[row])
        if parent < 0 or nodes.tag[row] in _COUSIN_STOP_TAGS:
            break
        if nodes.classes[row].strip():
            for twin in _twins(nodes, row, parent):
                targets = [twin]
                for tag, classes in path[1:]:
                    targets = [int(c) for t in targets for c in nodes.children(t)
                               if nodes.tag[c] == tag
                               and _builder_kind(nodes.classes[c]) == _builder_kind(classes)]
                found += [t for t in targets if lc[t] >= SIBLING_MIN_CHARS
                          and nodes.link_text[t] <= BLOCK_SIBLING_MAX_LINK_DENSITY * nodes.text[t]
                          and _cousin_prose(nodes, t)]
        row = parent
    return found


def _twins(nodes: NodeTable, row: int, parent: int) -> list[int]:
    """The siblings of ``row`` of its tag and class in the run around it, a sibling of another
    kind with text ending the run on either side (elements without text are passed over)."""
    kids = [int(c) for c in nodes.children(parent)]
    at = kids.index(row)
    kind = (nodes.tag[row], _builder_kind(nodes.classes[row]))
    twins = []
    for step in (-1, 1):
        k = at + step
        while 0 <= k < len(kids):
            kid = kids[k]
            if (nodes.tag[kid], _builder_kind(nodes.classes[kid])) == kind:
                twins.append(kid)
            elif nodes.text[kid] > 0:
                break
            k += step
    return twins


def _cousin_prose(nodes: NodeTable, row: int) -> bool:
    """A cousin block is prose: no headline, form or input, no rule opening it, no media name,
    and :data:`BLOCK_SIBLING_MIN_WORDS` words or more (images are allowed: the story's blocks
    carry its pictures)."""
    end = int(nodes.end[row])
    subtree = nodes.tag[row:end + 1]
    if "hr" in subtree[:3] or _COUSIN_NOT_PROSE_TAGS.intersection(subtree) - {"h1"}:
        return False
    if "h1" in subtree and (not COUSIN_LATER_H1 or row <= nodes.tag.index("h1") <= end):
        return False  # the headline's block
    if _MEDIA_NAME.search(name_words(nodes.classes[row] + " " + nodes.ident[row])):
        return False
    words = sum(len(t.split()) for t in nodes.seg_text[nodes.seg_lo[row]:nodes.seg_hi[row]])
    return words >= BLOCK_SIBLING_MIN_WORDS


def _class_blocks(classes: str) -> set[str]:
    """A class attribute's names cut to their BEM block ("zn-body__paragraph" -> "zn-body")."""
    return {name.split("__", 1)[0] for name in classes.split()}


def clean_tree(nodes: NodeTable, region: int, max_link_density: float = MAX_LINK_DENSITY
               ) -> np.ndarray:
    """CleanTree: a row mask of the region's subtree minus every subtree with ``DL > DLmax``."""
    keep = nodes.subtree_mask(region)
    stop = int(nodes.end[region]) + 1
    text = nodes.text[region:stop]
    density = np.divide(nodes.link_text[region:stop], text, out=np.zeros(len(text)),
                        where=text > 0)
    link_node = (density > max_link_density) & (nodes.links[region:stop] >= MIN_LINKS_IN_LINK_NODE)
    link_node[0] = False  # the subject region itself is never pruned, only its descendants
    for offset in np.flatnonzero(link_node):
        row = region + int(offset)
        if LINKED_HEADINGS_KEPT and _in_page_linked_heading(nodes, row):
            continue
        if keep[row] and not (STORY_LINK_LISTS and _between_paragraphs(nodes, row)):
            keep[row:int(nodes.end[row]) + 1] = False
    return keep


#: A heading whose links all lead to places on the same page (``href="#..."``) is the story's
#: heading, not a link node (docutils and Sphinx link each section heading back to the page's
#: contents: ``<h2><a class="toc-backref" href="#id8">Setting up</a><a class="headerlink"
#: href="#setting-up">¶</a></h2>``); a heading linking to other pages is a teaser's. Every page
#: of the eight body sets, per page (2026-11-28): readability_testpages 0.9547 -> 0.9549
#: (mercurial +0.018), wcxb_dev 0.8639 -> 0.8640 (digitalocean.com +0.056, docs.celeryq.dev
#: +0.042; docs.ansible.com -0.032, its gold leaves its section headings out); the six others
#: and trafilatura_eval's snippets unchanged on every page. Every heading tag exempt, links
#: elsewhere too (tried): readability_testpages' two lifehacker pages -0.016 each (their related
#: cards' headings, three times over).
LINKED_HEADINGS_KEPT = True
_LINKED_HEADING_TAGS = frozenset({"h2", "h3", "h4", "h5", "h6"})


def _in_page_linked_heading(nodes: NodeTable, row: int) -> bool:
    """Whether ``row`` is a heading whose links all point into the page (see
    :data:`LINKED_HEADINGS_KEPT`)."""
    if nodes.tag[row] not in _LINKED_HEADING_TAGS:
        return False
    return all((a.get("href") or "").startswith("#") for a in nodes.elements[row].iter("a"))


#: A list of links set between two of the story's paragraphs is the story's (BBC's
#: ``story-body__unordered-list`` of the stories it cites, a documentation page's list of its
#: other pages), not a link node to prune. Every page of the nine body sets, per page
#: (2026-11-27), the rule's own effect with the three other steps of the day: cx_bbc 0.9569 ->
#: 0.9595 (24 pages up, none down: its silver gold keeps 96 of 101 such items, on 33 pages),
#: wcxb_dev 0.8610 -> 0.8613 (25 up, 8 down), aeb one page up; big9 0.9730 -> 0.9727 (three BBC
#: 2017 pages down: big9's gold leaves out the same lists cx_bbc's keeps) and trafilatura_eval
#: snippets -0.0002 (one bbc.com snippet); cleanportaleval, cx_163, gne unchanged.
STORY_LINK_LISTS = True
_LINK_LIST_TAGS = frozenset({"ul", "ol"})
#: ... after it a paragraph or the heading of the story's next part (and before it a paragraph
#: or that part's heading, :data:`BEFORE_LINK_LIST_TAGS`).
_AFTER_LINK_LIST_TAGS = frozenset({"p", "h2", "h3", "h4"})
#: A list right under the heading of one of the story's parts (a crosshead, then the list, then
#: the story's next paragraph) is the story's too, not only one after a paragraph: cx_bbc's
#: "Charlie Gard: A legal timeline" (dated items, each a link), aeb's "Get it on Amazon for $139"
#: under a deal's heading, readability_testpages' firefox-nightly-blog and daringfireball-1.
#: Every page of the nine body sets, per page (2026-11-28): cx_bbc 0.9595 -> 0.9597
#: (health-40644896 +0.040), aeb 0.9783 -> 0.9784 (one page +0.010), readability_testpages
#: 0.9548 -> 0.9553 (daringfireball-1 +0.044, firefox-nightly-blog +0.012), wcxb_dev 0.8640 ->
#: 0.8642 (11 pages up, 5 down, the largest -0.010: lists under a heading its gold leaves out);
#: big9, cleanportaleval, cx_163, gne unchanged on every page.
#: Before: only a paragraph (``{"p"}``).
BEFORE_LINK_LIST_TAGS = frozenset({"p", "h2", "h3", "h4"})
#: ... and the story goes on after it for at least this many non-link characters: a list before
#: the story's end matter ("Originally published on Live Science.", an author's note) is the
#: site's further reading (without this test: aeb 0.9779 -> 0.9776, four livescience.com and
#: space.com pages down; with it none, cx_bbc the same).
LINK_LIST_STORY_AFTER = 400


def _between_paragraphs(nodes: NodeTable, row: int) -> bool:
    """Whether ``row`` is a list with a paragraph or heading before it and the story's next
    paragraph or heading after it (its nearest element siblings with text), the story going on for
    :data:`LINK_LIST_STORY_AFTER` characters (see :data:`STORY_LINK_LISTS`)."""
    if nodes.tag[row] not in _LINK_LIST_TAGS or nodes.parent[row] < 0:
        return False
    kids = nodes.children(int(nodes.parent[row])).tolist()
    at = kids.index(row)
    before = [k for k in kids[:at] if nodes.text[k] > 0]
    after = [k for k in kids[at + 1:] if nodes.text[k] > 0]
    return (bool(before and after) and nodes.tag[before[-1]] in BEFORE_LINK_LIST_TAGS
            and nodes.tag[after[0]] in _AFTER_LINK_LIST_TAGS
            and sum(int(nodes.nonlink_text[k]) for k in after) >= LINK_LIST_STORY_AFTER)


def region_text(nodes: NodeTable, keep: np.ndarray,
                drop_link_lines: bool = DROP_LINK_ONLY_EDGES, case_joins: bool = False) -> str:
    """The text of the kept rows in document order, one line per block, whitespace collapsed.

    With ``drop_link_lines``, the lines of link text (:data:`EDGE_LINK_SHARE` of their
    characters in links) at the start and at the end of the text are left out (see
    :data:`DROP_LINK_ONLY_EDGES`). With ``case_joins``, two elements'
    texts that run from a lower-case into an upper-case letter, or from a digit into a digit,
    are joined with a space (see
    :data:`LIST_CASE_JOINS`).

    The lines of a mask (and their link shares) are read once per table and kept
    (``nodes._lines``, by the mask's bytes): the chain reads the same rows' text two to four
    times a page (the walk's body, its link edges, the screen-reader rows' check), 116 of 250
    calls on big9's first 80 pages a mask read before (0.26 of 0.55 ms a page).
    """
    key = (keep.dtype.str, keep.shape, keep.tobytes(), case_joins)
    lines = nodes._lines.get(key)
    if lines is None:
        lines = nodes._lines[key] = _region_lines(nodes, keep, case_joins)
    cleaned = lines[0]
    if not cleaned:
        return ""
    first, last = 0, len(cleaned)
    if drop_link_lines:  # a line is linked when EDGE_LINK_SHARE of its characters are
        if lines[3] is None:
            kept, bounds = lines[1], lines[2]
            lengths = nodes.seg_len[kept]
            lines[3] = (np.add.reduceat(lengths * nodes.seg_in_link[kept], bounds)
                        >= EDGE_LINK_SHARE * np.add.reduceat(lengths, bounds)).tolist()
        linked = lines[3]
        while first < last and (linked[first] or not cleaned[first]):
            first += 1
        while last > first and (linked[last - 1] or not cleaned[last - 1]):
            last -= 1
    return "\n".join(line for line in cleaned[first:last] if line)


def _region_lines(nodes: NodeTable, keep: np.ndarray, case_joins: bool) -> list:
    """[the lines of the kept rows (whitespace collapsed; none when no segment is kept), the
    kept segments, the segment where each line starts, None: the lines' link flags, filled by
    :func:`region_text` when first asked] (see :func:`region_text`)."""
    kept = np.flatnonzero(keep[nodes.seg_owner])
    if not len(kept):
        return [[], kept, None, None]
    # lines start at the first kept segment and at every kept segment after a block boundary
    # (a boundary before a segment left out counts for the next kept one: a line whose first
    # segment went, a screen-reader label "Number of reviews:" before "196", is still a line)
    breaks = np.cumsum(nodes.seg_break)
    starts = np.empty(len(kept), dtype=bool)
    starts[0] = True
    starts[1:] = breaks[kept[1:]] > breaks[kept[:-1]]
    bounds = np.flatnonzero(starts)
    seg_text = nodes.seg_text
    texts = [seg_text[i] for i in kept.tolist()]
    if case_joins:
        owners = nodes.seg_owner[kept]
        for i in (np.flatnonzero(~starts[1:] & (owners[1:] != owners[:-1])) + 1).tolist():
            before, after = texts[i - 1], texts[i]
            if before and after and ((before[-1].islower() and after[0].isupper())
                                     or (before[-1].isdigit() and after[0].isdigit())):
                texts[i] = " " + after
    ends = bounds.tolist()[1:] + [len(texts)]
    # whitespace runs collapsed: str.split() splits at every character re's \s matches (the
    # no-break and ideographic spaces included)
    cleaned = [" ".join("".join(texts[a:b]).split()) for a, b in zip(bounds.tolist(), ends)]
    return [cleaned, kept, bounds, None]
