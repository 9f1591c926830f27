"""Page furniture named by markup: the blocks a page itself labels as comments, sharing, related
stories, newsletters, consent banners, navigation, advertising or hidden text.

The attenuation walk (paper 000) sees only text amounts, so a comment thread longer than the story,
a "more stories" rail or a cookie-consent vendor list inside the chosen region is body to it. Most
pages name these blocks in their ``id``/``class`` attributes, ARIA roles and landmark tags; this
module reads those names (the patterns are data, below) and returns a row mask of the node table
without them. The extractor then runs on what is left, as it does on what LCS denoising keeps.

Written by hand because no maintained library exposes such a rule set apart from its own
extractor (trafilatura keeps comparable XPath lists inside its pipeline, readability its regexes).

Guards: a row holding a heading of level 1 or an element marked as the article body
(``itemprop=articleBody``) is never removed (a page that wraps its story in a
``class="content with-sidebar"`` keeps it), nor are ``html``, ``body``, ``main`` and ``article``
elements on account of their class (a comment inside ``<article class="comment">`` goes with its
thread). Every constant names the measurement that chose it.
"""

from __future__ import annotations

import re

import numpy as np

from extractors.nodetable import NodeTable

__all__ = ["FURNITURE_ROLES", "FURNITURE_TAGS", "FURNITURE_WORDS", "WEAK_FURNITURE_WORDS",
           "furniture_mask", "name_words"]

#: Words of an ``id``/``class`` (split at ``-``, ``_``, spaces and camelCase, lower-cased) that name
#: furniture on any page: the block goes whatever its size (a comment thread longer than the story
#: is still comments). Whole words, or stems ending in ``*``; grouped by the failure each answers.
FURNITURE_WORDS = (
    # comment threads and reply forms
    "comment*", "disqus", "respond", "reply", "replies",
    # sharing and social buttons
    "share*", "sharing", "social*", "addthis", "sharethis", "sharedaddy",
    # related, recommended and trending links
    "related*", "recommend*", "outbrain", "taboola", "mostread",
    # newsletters, sign-in and paywall prompts
    "newsletter*", "paywall", "login", "signin",
    # cookie and consent banners
    "cookie*", "consent*", "gdpr",
    # advertising
    "ad", "ads", "advert*", "dfp",
    # breadcrumbs and skip links
    "breadcrumb*", "skip", "skiplink",
)
#: Words that name furniture on most pages but also layout wrappers of the story on some
#: ("elementor-widget", "has-sidebar", "article-overlay"): such a block goes only while it holds
#: under :data:`MAX_WEAK_SHARE` of the page's non-link text. Landmark tags, roles and hidden
#: elements are weak evidence in the same way.
WEAK_FURNITURE_WORDS = (
    "nav", "navbar", "navigation", "menu", "sidebar*", "footer*", "toolbar",
    "pagination", "pager", "modal", "popup", "overlay", "promo*", "sponsor*", "trending",
    "popular", "subscribe*", "subscription*", "signup", "register",
)
#: Share of the page's non-link text above which weak evidence does not remove a block.
MAX_WEAK_SHARE = 0.5
#: Weak evidence does not remove a box whose parent holds this many text paragraphs (``p``): set
#: among the story's paragraphs it is part of the story on the silver sets (cx_bbc's
#: ``aside.pullout`` analysis boxes and ``sidebar-holder`` quotes are in its gold).
MIN_PARAGRAPH_SIBLINGS = 2
#: Words that name the story's own container. A block holding over :data:`MAX_STRONG_SHARE` of
#: the page's non-link text whose name also holds one of them stays even with a strong word
#: ("body-ad-wrapper", "share-btn ... post", "block-body js-reply"): the page builder named the
#: story's wrapper after a feature it carries.
STORY_WORDS = ("article*", "body", "content*", "entry", "post", "story", "text", "main")
MAX_STRONG_SHARE = 0.5
#: Landmark elements that never hold the article body.
FURNITURE_TAGS = frozenset({"nav", "aside", "footer", "dialog"})
#: ARIA roles of the same landmarks.
FURNITURE_ROLES = frozenset({"navigation", "complementary", "contentinfo", "search", "dialog",
                             "alertdialog", "menu", "menubar", "banner"})
#: Elements never removed for their class or id (their role in the page is the tag's).
NAME_EXEMPT_TAGS = frozenset({"html", "body", "main", "article"})

_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_SPLIT = re.compile(r"[^a-z0-9]+")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def _word_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = (re.escape(w[:-1]) + "[a-z0-9]*" if w.endswith("*") else re.escape(w)
                    for w in words)
    return re.compile(r"(?:^| )(?:" + "|".join(alternatives) + r")(?: |$)")


def name_words(value: str) -> str:
    """The words of an ``id``/``class`` value, lower-cased, space-separated.

    >>> name_words("relatedArticles post_share-bar")
    'related articles post share bar'
    """
    return " ".join(w for w in _SPLIT.split(_CAMEL.sub(r"\1 \2", value).lower()) if w)


def furniture_mask(nodes: NodeTable, words: tuple[str, ...] = FURNITURE_WORDS,
                   weak_words: tuple[str, ...] = WEAK_FURNITURE_WORDS,
                   max_weak_share: float = MAX_WEAK_SHARE) -> np.ndarray:
    """A row mask of ``nodes`` without the subtrees the page labels as furniture (see module doc).
    """
    n = len(nodes)
    strong, strong_story, weak = _marks(nodes, _word_pattern(words), _word_pattern(weak_words),
                          _word_pattern(STORY_WORDS))
    keep = np.ones(n, dtype=bool)
    if not (strong.any() or weak.any()):
        return keep
    lc = nodes.nonlink_text
    total = max(int(lc[0]), 1)
    weak &= lc <= max_weak_share * total
    weak &= ~_among_paragraphs(nodes)
    strong &= ~(strong_story & (lc > MAX_STRONG_SHARE * total))
    protected = _subtree_any(_story_markers(nodes), nodes.end)
    for row in np.flatnonzero((strong | weak) & ~protected):
        if keep[row]:
            keep[row:int(nodes.end[row]) + 1] = False
    return keep


def _marks(nodes: NodeTable, strong_pattern: re.Pattern[str], weak_pattern: re.Pattern[str],
           story_pattern: re.Pattern[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows named as furniture by a strong word, those of them whose name also holds a story
    word, and rows with weak evidence only."""
    n = len(nodes)
    strong = np.zeros(n, dtype=bool)
    story = np.zeros(n, dtype=bool)
    weak = np.zeros(n, dtype=bool)
    seen: dict[str, int] = {}  # name -> 3 strong + story word, 2 strong, 1 weak, 0 none
    for row in range(n):
        tag = nodes.tag[row]
        name = nodes.ident[row] + " " + nodes.classes[row] if (
            nodes.ident[row] or nodes.classes[row]) else ""
        if name and tag not in NAME_EXEMPT_TAGS:
            verdict = seen.get(name)
            if verdict is None:
                words = name_words(name)
                verdict = 2 if strong_pattern.search(words) else (
                    1 if weak_pattern.search(words) else 0)
                if verdict == 2 and story_pattern.search(words):
                    verdict = 3
                seen[name] = verdict
            if verdict >= 2:
                strong[row] = True
                story[row] = verdict == 3
                continue
            weak[row] = verdict == 1
        el = nodes.elements[row]
        if tag in FURNITURE_TAGS or (el.attrib and (el.get("role") in FURNITURE_ROLES
                                                    or _hidden(el))):
            weak[row] = True
    return strong, story, weak


def _among_paragraphs(nodes: NodeTable) -> np.ndarray:
    """Rows whose parent also holds at least :data:`MIN_PARAGRAPH_SIBLINGS` ``p`` children with
    text: a box set among the story's paragraphs (a pull-out, a fact box)."""
    is_p = np.fromiter((t == "p" for t in nodes.tag), dtype=bool, count=len(nodes))
    is_p &= nodes.nonlink_text > 0
    parents = nodes.parent[is_p]
    paragraphs = np.bincount(parents[parents >= 0], minlength=len(nodes))
    result = np.zeros(len(nodes), dtype=bool)
    has_parent = nodes.parent >= 0
    result[has_parent] = paragraphs[nodes.parent[has_parent]] >= MIN_PARAGRAPH_SIBLINGS
    return result


def _story_markers(nodes: NodeTable) -> np.ndarray:
    """Rows of ``h1`` elements and of elements marked ``itemprop=articleBody``."""
    marker = np.fromiter((t == "h1" for t in nodes.tag), dtype=bool, count=len(nodes))
    if len(nodes):
        bodies = set(nodes.elements[0].xpath('descendant-or-self::*[@itemprop="articleBody"]'))
        if bodies:
            marker |= np.fromiter((el in bodies for el in nodes.elements), dtype=bool,
                                  count=len(nodes))
    return marker


def _subtree_any(flags: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Whether each row's subtree (rows ``i .. end[i]``) holds a flagged row."""
    csum = np.concatenate(([0], np.cumsum(flags)))
    return (csum[end + 1] - csum[np.arange(len(end))]) > 0


def _hidden(el) -> bool:
    """``hidden``, ``aria-hidden="true"`` or an inline style that hides the element."""
    if el.get("hidden") is not None or el.get("aria-hidden") == "true":
        return True
    style = el.get("style")
    return bool(style) and _HIDDEN_STYLE.search(style) is not None
