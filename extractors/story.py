"""The story's own container, where the page marks it: positive evidence for the subject region.

The attenuation walk (paper 000) starts at ``body`` and stops at the first sudden drop of non-link
text. When the story shares its parent with a long "more stories" list, a comment thread or the
next story of an infinite-scroll page, the drop comes too early (the region holds them all) or on
the wrong side. Many pages mark the story itself: schema.org ``itemprop="articleBody"``, a class or
id such as ``article-body``, ``entry-content``, ``story-body``, or an ``<article>`` element. The
walk then starts at that container instead of ``body`` (it may still descend inside it).

Evidence, strongest first; within one kind the container with the most non-link text wins, and it
must hold at least :data:`MIN_STORY_SHARE` of the page's non-link text (after furniture removal),
so a teaser's ``<article>`` or a small "article-body" box of a list page is not taken:

1. ``itemprop="articleBody"``;
2. an ``id``/``class`` naming the story's body (:data:`STORY_BODY_NAMES`);
3. an ``<article>`` element.

Written by hand: no maintained library exposes this choice apart from its own extractor.
"""

from __future__ import annotations

import re

import numpy as np

from extractors.boilerplate import Markup, NameWords, name_words, read_markup
from extractors.nodetable import NodeTable

__all__ = ["HEADLINE_LEAD_LEVELS", "HEADLINE_LEAD_MIN_ROWS", "LEAD_IN_CONTAINER", "LEAD_NAMES",
           "MIN_STORY_SHARE", "STORY_BODY_NAMES", "headline_lead_rows", "in_headline_block",
           "lead_rows", "story_container"]

#: Names (word sequences of an ``id``/``class``, see :func:`extractors.boilerplate.name_words`)
#: that mark the story's body on common publishing systems (WordPress ``entry-content``,
#: ``post-content``; news CMSs ``article-body``, ``story-body``, ``article-text``...).
STORY_BODY_NAMES = (
    "article body", "articlebody", "article content", "article text", "article main",
    "entry content", "entry body", "post content", "post body", "post entry", "story body",
    "story content", "story text", "body text", "content body", "main article content",
    "article body content", "news content", "news body", "news text", "td post content",
)
#: Share of the page's non-link text a container must hold to be taken.
MIN_STORY_SHARE = 0.3
#: Words of an ``id``/``class`` naming a story's lead (standfirst): the paragraph under the
#: headline that many templates set apart from the body (``article-intro``, ``lead``,
#: ``standfirst``, German ``vorspann``, French ``chapo``, ``subtitle``, ``summary``).
#: A teaser named as the story's own ("teaser-text", TYPO3's news detail beside its
#: itemprop=articleBody; "article-teaser", "ce-news--teaser"): every page of the nine body sets
#: (2026-11-27), trafilatura_eval snippets 0.9316 -> 0.9332 (9 pages up, none down), the other
#: eight unchanged on every page. "teaser" alone and "subhead": wcxb_dev 7 pages down, aeb 1
#: (another block's teaser, a byline box); a ``h2``/``h3`` named "subheadline" taken as a lead:
#: trafilatura_eval 3 up, aeb and wcxb_dev one page down each (golds that leave the standfirst
#: out), not kept. Other languages' and systems' words for the lead: Czech and Slovak "perex",
#: Spanish "bajada" and "entradilla", Italian "sommario", Scandinavian "ingress", Danish
#: "manchet", German "untertitel", Plone's "documentDescription" (each on pages of 2 to 7 sites
#: of the datasets): every page of the nine body sets (2026-11-27), readability_testpages
#: 0.9544 -> 0.9547 (aktualne.cz 0.925 -> 0.954, la-nacion 0.986 -> 0.994), trafilatura_eval one
#: wanted snippet more (gay.ch), wcxb_dev one page up (0.976 -> 0.996), none down anywhere.
LEAD_NAMES = ("lead", "lede", "intro", "standfirst", "vorspann", "chapo", "chapeau", "subtitle",
              "summary", "dek", "deck", "excerpt", "abstract", "leader", "teaser text",
              "article teaser", "news teaser", "perex", "document description", "bajada",
              "entradilla", "sommario", "ingress", "manchet", "untertitel")
#: A lead is a paragraph or two: between these numbers of non-link characters.
LEAD_MIN_CHARS, LEAD_MAX_CHARS = 40, 1_500
#: ... with at most this share of link text,
LEAD_MAX_LINK_SHARE = 0.3
#: ... and it shares an ancestor with the subject region at most this many levels above it,
LEAD_MAX_LEVELS = 4
#: ... or it is inside the story container the page marks (:func:`story_container`: an
#: ``articleBody``, a story-named block, an ``<article>``) the walk started at, however deep the
#: region sits in it: the lead in the article's ``<header>`` beside the headline, the body five
#: or six levels further down (propellets.at's ``p.lead``, zfk.de's
#: ``contentHeaderHeader__abstract``, consumerreports.org's ``cda-article__intro``). Every page
#: of the nine body sets (2026-11-28): trafilatura_eval snippets 0.9346 -> 0.9350 (2 wanted
#: more, none lost), wcxb_dev 1 page up (+0.023), the seven others unchanged on every page.
#: Where the page marks no container the limit above holds: 5 or 6 levels on every page lost
#: aeb and readability_testpages pages (docs/evaluation.md, "a form's labels on an article").
LEAD_IN_CONTAINER = True

def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?:^|\s)(?:" + "|".join(re.escape(n).replace(r"\ ", r"\s+")
                                                 for n in names) + r")(?=\s|$)")


def story_container(nodes: NodeTable, markup: Markup | None = None,
                    min_share: float = MIN_STORY_SHARE) -> int | None:
    """The row of the page's marked story container (see module doc), or None.

    ``nodes`` may be a masked table (text outside kept rows counts as absent).
    """
    if len(nodes) == 0:
        return None
    markup = read_markup(nodes) if markup is None else markup
    lc = nodes.nonlink_text
    floor = max(min_share * float(lc[0]), 1.0)
    for rows in _evidence(nodes, markup):
        rows = [r for r in rows if r > 0 and lc[r] >= floor]
        if rows:
            return max(rows, key=lambda r: (int(lc[r]), -r))
    return None


def _evidence(nodes: NodeTable, markup: Markup):
    """Candidate rows of each kind of evidence, strongest first (lazily: most pages stop early)."""
    yield list(np.flatnonzero(markup.article_body))
    found = markup.names if markup.names is not None else NameWords.of(nodes)
    hits = {found.unique[k] for k in found.matching(_STORY_BODY_PATTERN)}
    yield [row for row, name in enumerate(found.names) if name in hits] if hits else []
    yield list(np.flatnonzero(markup.tags == "article"))


def _lead_sized(nodes: NodeTable, first: int, region: int) -> list[int]:
    """Rows from ``first`` up to ``region`` that close before it and hold a lead's amount of
    non-link text (:data:`LEAD_MIN_CHARS` to :data:`LEAD_MAX_CHARS`, links at most
    :data:`LEAD_MAX_LINK_SHARE` of it)."""
    rows = np.arange(first, region)
    own, text = nodes.nonlink_text[rows], nodes.text[rows]
    fits = ((nodes.end[rows] < region) & (own >= LEAD_MIN_CHARS) & (own <= LEAD_MAX_CHARS)
            & (text - own <= LEAD_MAX_LINK_SHARE * text))
    return rows[fits].tolist()


def lead_rows(nodes: NodeTable, region: int, allowed: np.ndarray | None = None,
              container: int = 0) -> list[int]:
    """Rows of the story's lead where the template sets it apart from the subject region: an
    element named as a lead (:data:`LEAD_NAMES`) that ends before ``region`` begins, shares an
    ancestor with it at most :data:`LEAD_MAX_LEVELS` above it, holds a paragraph or two of
    non-link text and no heading (a header block with the headline is not a lead), and is not
    furniture (``allowed``, a row mask, when given). Outermost first, in document order.
    ``container``: the row the walk started at (:func:`story_container`'s), under which a lead
    may sit further above the region (:data:`LEAD_IN_CONTAINER`); 0 when the page marks none.

    The attenuation walk stops at the body's container; a lead in the article's header (above
    the body, beside the headline) is outside it, and trafilatura_eval's snippets and most gold
    bodies count it as the story's first paragraph.
    """
    top = region
    for _ in range(LEAD_MAX_LEVELS):
        if nodes.parent[top] < 0:
            break
        top = int(nodes.parent[top])
    top = _up_to_container(nodes, top, region, container)
    found: list[int] = []
    for row in _lead_sized(nodes, top + 1, region):  # a few rows: the regex and the walk only here
        if found and row <= int(nodes.end[found[-1]]):
            continue  # inside a lead already taken
        name = nodes.ident[row] + " " + nodes.classes[row]
        if not name.strip() or not _LEAD_PATTERN.search(name_words(name)):
            continue
        if allowed is not None and not allowed[row]:
            continue
        if any(nodes.tag[r] in _HEADINGS for r in range(row, int(nodes.end[row]) + 1)):
            continue  # the article's header (headline, kicker, dateline), not its lead
        found.append(row)
    return found


#: The story's paragraphs between its headline (the last ``h1`` before the subject region,
#: outside it) and the region, where the two share an ancestor at most this many levels above
#: the region (not ``body``): the walk chose a block after the story (a comment list, the
#: references, a live blog's later entries, an answer under a question) or the story's second
#: half, and the paragraphs under the headline are the story's.
HEADLINE_LEAD_LEVELS = 5
#: The story container the walk started at (:data:`LEAD_IN_CONTAINER`) widens that ancestor
#: the same way: link.springer.com's walk chose the references five levels below the
#: ``<article>``, whose abstract and sections under the headline were missed (as were
#: management-circle.de's and elfaro.net's first paragraphs). Every page of the nine body sets
#: (2026-11-28), after LEAD_IN_CONTAINER: trafilatura_eval snippets 0.9350 -> 0.9357 (4 wanted
#: more on 3 sites, none lost), wcxb_dev 0.8626 -> 0.8627 (newsproduct.org +0.157; accruent.com
#: -0.014, a dek under the headline its gold leaves out), the seven others unchanged on every
#: page.
#: Elements such a paragraph is; it holds at least this many words (a byline or a dateline is
#: shorter) and :data:`LEAD_MIN_CHARS` to :data:`LEAD_MAX_CHARS` non-link characters, at most
#: :data:`LEAD_MAX_LINK_SHARE` of its text in links; not in a photo's box (a ``figure``, a
#: ``table``, a block named for a picture or caption: big9's photo captions set in ``p``).
HEADLINE_LEAD_TAGS = frozenset({"p", "h2", "h3"})
HEADLINE_LEAD_MIN_WORDS = 12
#: They join only when there are at least this many of them. Every page of the nine body sets
#: (2026-11-27), 2 (chosen): trafilatura_eval snippets 0.9162 -> 0.9185 (13 pages changed:
#: blog.mondediplo.net's story above the comments the walk chose, acpjournals' abstract above
#: the references, a question above its answers; cicero.de one unwanted snippet more), aeb
#: 0.9765 -> 0.9769 (1 up, 2 down), wcxb_dev 0.8482 -> 0.8494 (32 up, 14 down: product pages
#: whose reviews come with the description), readability_testpages 0.9323 -> 0.9333 (2 up, 1
#: down); big9, cleanportaleval, cx_bbc, cx_163, gne unchanged. 1 (a lone standfirst under the
#: headline joins too): trafilatura_eval 0.9252, big9 0.9688 (16 up, 2 down), wcxb_dev 0.8499,
#: readability_testpages 0.9333, but aeb 0.9765 -> 0.9756 (12 pages down: aeb's gold leaves
#: the standfirst out, wsj's "sub-head", express.co.uk's header ``h3``), so left at 2. Without
#: the photo-box test, big9 lost 7 pages (captions) with 2.
#: A lone paragraph joins when it is set apart from the headline's own block (not a sibling of
#: the ``h1``, :func:`in_headline_block`): a dek beside the headline belongs to the title block,
#: which aeb's gold leaves out (8 of its 10 pages lost with 1 above are such siblings), while a
#: paragraph between the title block and the region is the story's lead. Every page of the nine
#: body sets (2026-11-27), after the row above: trafilatura_eval 0.9185 -> 0.9232 (24 pages up,
#: none down), aeb 0.9769 -> 0.9767 (2 down: a CNN "Chat with us in Facebook Messenger" box, a
#: "subhead"), big9 0.9683 level (3 up, 2 down: the same CNN box), wcxb_dev 0.8494 -> 0.8498
#: (27 up, 24 down), readability_testpages 0.9333 -> 0.9334; the four others unchanged.
HEADLINE_LEAD_MIN_ROWS = 2


def headline_lead_rows(nodes: NodeTable, region: int, allowed: np.ndarray | None = None,
                       container: int = 0) -> list[int]:
    """Rows of the story's paragraphs between its headline and ``region`` (see
    :data:`HEADLINE_LEAD_LEVELS`; ``container`` as in :func:`lead_rows`), outermost first, in
    document order; not furniture (``allowed``, a row mask, when given)."""
    top = region
    for _ in range(HEADLINE_LEAD_LEVELS):
        if nodes.parent[top] <= 0:
            break  # not up to body: a headline that shares only body with the story is not its
        top = int(nodes.parent[top])
    top = _up_to_container(nodes, top, region, container)
    if top <= 0:
        return []
    between = nodes.tag[top + 1:region]
    if "h1" not in between:
        return []
    headline = region - 1 - between[::-1].index("h1")  # the last h1 before the region
    if nodes.end[headline] >= region:
        return []  # the region is inside the headline's element
    found: list[int] = []
    for row in _lead_sized(nodes, int(nodes.end[headline]) + 1, region):  # words counted here only
        if found and row <= int(nodes.end[found[-1]]):
            continue
        if nodes.tag[row] not in HEADLINE_LEAD_TAGS:
            continue
        if allowed is not None and not allowed[row]:
            continue
        words = sum(len(t.split()) for t in nodes.seg_text[nodes.seg_lo[row]:nodes.seg_hi[row]])
        if words >= HEADLINE_LEAD_MIN_WORDS and not _in_media(nodes, row, top):
            found.append(row)
    return found


def _up_to_container(nodes: NodeTable, top: int, region: int, container: int) -> int:
    """``container`` where it holds ``region`` and sits above ``top`` (the story's marked
    container, :data:`LEAD_IN_CONTAINER`), else ``top``."""
    if LEAD_IN_CONTAINER and 0 < container < top and nodes.end[container] >= region:
        return container
    return top


def in_headline_block(nodes: NodeTable, row: int) -> bool:
    """Whether ``row`` is set in the headline's own block: a sibling of an ``h1``."""
    parent = int(nodes.parent[row])
    return parent >= 0 and any(nodes.tag[int(c)] == "h1" for c in nodes.children(parent))


def _in_media(nodes: NodeTable, row: int, top: int) -> bool:
    """Whether ``row`` sits in a photo's box below ``top``: a ``figure``, a ``table`` (a photo and
    its caption laid out in cells), or a block named for a picture or a caption."""
    while row > top:
        if nodes.tag[row] in _MEDIA_TAGS or _MEDIA_WORDS.search(
                name_words(nodes.classes[row] + " " + nodes.ident[row])):
            return True
        row = int(nodes.parent[row])
    return False


_MEDIA_TAGS = frozenset({"figure", "figcaption", "table"})
_MEDIA_WORDS = re.compile(r" (?:caption|image|img|photo|picture|media|figure|credit|gallery|video)"
                          r"[a-z0-9]* ")
_LEAD_PATTERN = _names_pattern(LEAD_NAMES)
_STORY_BODY_PATTERN = _names_pattern(STORY_BODY_NAMES)
_HEADINGS = frozenset({"h1", "h2", "h3"})
