"""Page furniture named by markup: the blocks a page itself labels as comments, sharing, related
stories, newsletters, consent banners, navigation, advertising, dialogs, a declared article's
galleries or hidden text.

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

import functools
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from itertools import compress, count, repeat

import numpy as np
from lxml import etree

from extractors.jsonld import article_objects, page_jsonld, type_names
from extractors.nodetable import NodeTable, _subtree_sum
from extractors.page import RowNames, row_names

__all__ = ["Markup", "declares_article", "declares_product", "declares_question", "page_itemtypes", "page_markup", "read_markup", "is_related_label", "rows_named", "screen_reader_rows", "FURNITURE_ROLES", "FURNITURE_TAGS", "FURNITURE_WORDS", "WEAK_FURNITURE_WORDS",
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
    # cookie and consent banners, and the consent platforms that name theirs after themselves
    # (wcxb_dev: a Fides banner was a wired.com page's body, 0.00 -> 0.89 F1; 0.8212 -> 0.8219,
    # the other sets unchanged)
    "cookie*", "consent*", "gdpr", "onetrust", "didomi", "usercentrics", "fides",
    # advertising
    "ad", "ads", "advert*", "dfp",
    # breadcrumbs and skip links
    "breadcrumb*", "skip", "skiplink",
    # credits, bylines, timestamps, legal lines, like counters, popovers: chosen from a count of
    # the tokens inside our output under each id/class word, in the gold or not, on the six body
    # sets (credit: 315 not in the gold / 51 in it, on 31 / 10 sites; byline 280 / 51, 28 / 19;
    # disclaimer 961 / 132; copyright 345 / 11; timestamp 81 / 0; likes 92 / 0; popover 286 / 3).
    # Every page, body F1 (trafilatura_eval snippet F1): aeb 0.9607 -> 0.9619, big9 0.9527 ->
    # 0.9536, cleanportaleval 0.9573 -> 0.9583, cx_bbc 0.9415 -> 0.9502, wcxb_dev 0.8163 ->
    # 0.8176, trafilatura_eval 0.8845 -> 0.8857, readability_testpages, cx_163, gne unchanged.
    "credit*", "byline*", "disclaimer*", "copyright", "timestamp", "likes", "popover",
    # infographics: a picture's labels and figures set as text among the story's paragraphs
    # (BBC's newsspec_infographic_template: a country profile's facts, "Davos 2017 in numbers").
    # Every page (2026-11-27): cx_bbc 0.9577 -> 0.9595 (9 pages up, none down); as a weak word
    # nothing changed (the boxes stand among the story's paragraphs); the eight other sets
    # unchanged on every page (the word names blocks on one wcxb_dev and one trafilatura_eval
    # page, neither in the body).
    "infographic*",
)
#: Words that name furniture on most pages but also layout wrappers of the story on some
#: ("elementor-widget", "has-sidebar", "article-overlay"): such a block goes only while it holds
#: under :data:`MAX_WEAK_SHARE` of the page's non-link text. Landmark tags, roles and hidden
#: elements are weak evidence in the same way. "widget" is not among them (on wcxb_dev's Elementor
#: pages every part of the story is a small "elementor-widget"), nor are "modal", "popup",
#: "overlay" and the dialog role (a product list's price explanation box: removing it moved the
#: walk off the list page's intro on the list_records gate set).
WEAK_FURNITURE_WORDS = (
    "nav", "navbar", "navigation", "menu", "sidebar*", "footer*", "toolbar",
    "pagination", "pager", "promo*", "sponsor*", "trending",
    "popular", "subscribe*", "subscription*", "signup", "register",
)
#: Words of a dialog the page opens over itself (a modal, a popup): weak evidence, as
#: :data:`WEAK_FURNITURE_WORDS`, on a block named so and by no story word ("modal-content" is
#: the dialog's inside, not the page's) that holds :data:`MIN_DIALOG_CHARS` characters of
#: non-link text or more. attac.org's newsletter sign-up modal was the walk's region (0 of 3
#: wanted snippets), cloudflare.com's "Talk to an expert" form dialog sat in its main region.
#: ZDF's login dialog held 79 % of a video page's text (over the weak share: it stays).
#: Every page of the nine body sets (2026-11-27): wcxb_dev 0.8499 -> 0.8509 (18 pages up, 2
#: down), trafilatura_eval snippets 0.9251 -> 0.9256, the seven others unchanged.
DIALOG_WORDS = ("modal*", "popup*", "dialog")
#: ... the least non-link text of a dialog that goes: a dialog that small cannot be mistaken for
#: the body, and removing it moves the walk of a list page (which weighs all its text):
#: louiestuxshop.com's 217-character price explanation box, on the list_records gate set, held
#: the walk above the list's heading and introduction (F1 0.80 -> 0.58 without it). Every block
#: so named (no least size, story words too): wcxb_dev 0.8511 (41 up, 8 down),
#: trafilatura_eval 0.9258, but that gate page lost; at 100: wcxb_dev 0.8511 (27 up, 3 down),
#: the gate page lost; at 300: the figures above.
#: The dialog roles too (``role=dialog``, ``alertdialog``) changed nothing more.
MIN_DIALOG_CHARS = 300
#: Share of the page's non-link text above which weak evidence does not remove a block.
MAX_WEAK_SHARE = 0.5
#: Weak evidence does not remove a box whose parent holds this many text paragraphs (``p``): set
#: among the story's paragraphs it is part of the story on the silver sets (cx_bbc's
#: ``aside.pullout`` analysis boxes and ``sidebar-holder`` quotes are in its gold). The exemption
#: is not for an element the page hides itself (``hidden``, ``display: none``, ``visibility:
#: hidden`` in its style): a hidden paragraph among the story's is not shown to a reader
#: (readability_testpages' hidden-nodes 0.48 -> 0.99; every page: readability_testpages 0.9309 ->
#: 0.9334, wcxb_dev 0.8219 -> 0.8220, gne 0.9852 -> 0.9827 (one 163.com page whose silver gold
#: keeps a hidden teaser of another story), the other sets unchanged).
MIN_PARAGRAPH_SIBLINGS = 2
#: Words that name the story's own container. A block holding over :data:`MAX_STRONG_SHARE` of
#: the page's non-link text whose name also holds one of them stays even with a strong word
#: ("body-ad-wrapper", "share-btn ... post", "block-body js-reply"): the page builder named the
#: story's wrapper after a feature it carries.
STORY_WORDS = ("article*", "body", "content*", "entry", "post", "story", "text", "main")
MAX_STRONG_SHARE = 0.5
#: The strong words of comment threads: only they remove a block over :data:`MAX_STRONG_SHARE`
#: of the page without a story word in its name (a thread can be longer than the story). Any other
#: strong word on such a block names a feature of the story's wrapper (trafilatura_eval: a
#: ``socialicons-sticky`` div holding 84 % of a WordPress page, ``share-zone`` 90 %, a
#: ``hcf-paywall`` 78 %). Every page of the nine dev sets: wcxb_dev 0.8145 -> 0.8147,
#: trafilatura_eval snippet F1 0.8837 -> 0.8846, the others unchanged.
COMMENT_WORDS = ("comment*", "disqus", "respond", "reply", "replies")
#: Words of a photo's caption ("caption", "wp-caption-text", "captionlink"): a block so named goes
#: as a strong word would while its text is at most :data:`MAX_CAPTION_CHARS` characters, unless
#: the word names a font style (:data:`_TYPE_STYLE`). Past that length the block is no caption but
#: a wrapper the page builder named after one (the outermost caption-named blocks of seven body
#: sets: under 600 characters, 8 000 of their 4-token shingles in the gold and 33 100 not; of
#: 1 000 or more, 26 600 in the gold, story wrappers the walk must be free to choose). As
#: ``figcaption``, the gold of aeb, big9, cx_bbc and wcxb_dev leaves captions out and
#: cleanportaleval's and readability_testpages' keep them. Every page, body F1 (trafilatura_eval
#: snippet F1): aeb 0.9621 -> 0.9684 (the photo carousels inside the story of Hearst's papers,
#: their captions four times over), big9 0.9573 -> 0.9576, cx_bbc 0.9502 -> 0.9509,
#: trafilatura_eval 0.9039 -> 0.9061; wcxb_dev 0.8220 -> 0.8213 (rei.com's star-rating captions
#: and a product grid's, in its gold), readability_testpages 0.9291 -> 0.9276, cleanportaleval
#: 0.9592 -> 0.9533 (captions in their gold); cx_163 and gne unchanged.
CAPTION_WORDS = ("caption*",)
MAX_CAPTION_CHARS = 500
#: The consent words among :data:`FURNITURE_WORDS`: like comment words, they remove a block
#: whatever its share of the page (a consent platform's preference panel is never the story's
#: wrapper, and on a forum page whose posts are comment-named it held over half the page's text:
#: OneTrust's panel was the body of four wcxb_dev forum pages). "cookie*" is not among them (a
#: recipe site's "cookie-recipes" wrapper). wcxb_dev 0.8213 -> 0.8224 (3 pages gain, none lose),
#: aeb, big9, readability_testpages, trafilatura_eval unchanged.
CONSENT_WORDS = ("consent*", "gdpr", "onetrust", "didomi", "usercentrics", "fides")
#: The paywall words among :data:`FURNITURE_WORDS`: a paywalled site names the story's own
#: container after its paywall ("entry__content steady-paywall-container", barrons.com's
#: "paywall", handelsblatt's "hcf-paywall"), while the prompt it shows a non-subscriber is a box
#: of a line or two. A block so named that holds :data:`MIN_STORY_PARAGRAPHS` or more ``p``
#: children with text is the story, whatever its share of the page (uebermedien.de's story was
#: 13 % of a page of long comments, so the walk chose the headline alone). Every page of the nine
#: body sets: aeb 0.9680 -> 0.9700 (barrons.com 0.24 -> 0.98), trafilatura_eval snippet F1
#: 0.9092 -> 0.9096 (uebermedien.de 0 -> 2 of 2 wanted snippets), the other seven unchanged.
#: Any strong word instead of "paywall" alone: wcxb_dev 0.8442 -> 0.8441 (documentation pages
#: whose sections are named "share", "related-name", "skip-item" lost their walk).
PAYWALL_WORDS = ("paywall*",)
#: The same number of ``p`` children with text keeps a block with weak evidence only (a weak
#: word, a landmark), whatever its share: a theme's story column named "sidebar-content" beside
#: its sidebar (modernfarmer.com, wcxb_dev: the walk then took a hidden republishing notice, F1 0
#: -> 0.72). Every page of the nine body sets (2026-11-27): wcxb_dev 0.8472 -> 0.8478 (3 pages
#: up, none down), the other eight unchanged.
MIN_STORY_PARAGRAPHS = 3
#: Elements removed whatever their size, as a strong word: image captions and credits. The gold
#: of aeb, big9, cx_bbc and wcxb_dev leaves them out, readability_testpages' keeps them (the
#: reference output of readability). Every page, body F1 (trafilatura_eval snippet F1):
#: aeb 0.9562 -> 0.9607, big9 0.9508 -> 0.9526, cx_bbc 0.9295 -> 0.9415, wcxb_dev 0.8130 ->
#: 0.8145, trafilatura_eval 0.8804 -> 0.8837, readability_testpages 0.9283 -> 0.9237; the others
#: unchanged. Token count over the six body sets, inside our output: 3 472 tokens of
#: ``figcaption`` text not in the gold against 700 in it, on 74 sites against 31.
STRONG_FURNITURE_TAGS = frozenset({"figcaption"})
#: Landmark elements that never hold the article body, and ``dialog`` (a box the page opens over
#: itself: vanguard.com sets a glossary definition behind each term in one; every page of the
#: nine body sets (2026-11-27): wcxb_dev 0.8509 -> 0.8511, 2 pages up, none down, the others
#: unchanged).
FURNITURE_TAGS = frozenset({"nav", "aside", "footer", "dialog"})
#: A ``header`` element outside every ``article``, ``aside``, ``main``, ``nav`` and ``section``
#: is the page's banner (its implicit ARIA role, HTML-AAM): weak furniture, as ``role=banner``.
#: Every page of the nine body sets (2026-11-27): trafilatura_eval snippets 0.9255 -> 0.9256 (a
#: company home page typed list, whose list walk kept its top bar of phone numbers), wcxb_dev
#: 0.8521 level (6 pages up, 1 down by 0.004), the other seven unchanged.
BANNER_HEADERS = True
_SECTIONING = frozenset({"article", "aside", "main", "nav", "section"})
#: ARIA roles of the same landmarks.
FURNITURE_ROLES = frozenset({"navigation", "complementary", "contentinfo", "search", "menu",
                             "menubar", "banner"})
#: A block the page hides itself (a ``hidden`` attribute, ``display: none`` or ``visibility:
#: hidden`` in its own style) goes whatever its share of the page's text: no reader sees it.
#: readability_testpages' visibility-hidden page hid three of its six paragraphs, half the text,
#: over :data:`MAX_WEAK_SHARE` (F1 0.61 -> 1.0). Every page of the nine body sets (2026-11-27):
#: readability_testpages 0.9406 -> 0.9427 (that page), wcxb_dev 0.8498 -> 0.8499 (2 pages up, 2
#: down: a portfolio page whose hidden contact form had been its region), the others
#: unchanged. Not in the second reading of a short body (strong labels only), where a story the
#: page hides until a script shows it is read again.
HIDDEN_ANY_SHARE = True
#: Words of a photo gallery or slideshow: a block so named goes as a strong word would (whatever
#: its share of the page, and among the story's paragraphs too), on a page that declares itself
#: an article (:func:`declares_article`) only, and not where its name also holds a story word
#: ("gallery-title-wrap article_content_top" held chocolate.com's story). A news story's
#: gallery is furniture in the gold of aeb, big9 and readability_testpages (Hearst's and the
#: Independent's 50-picture galleries set inside the story: the Independent's captions were 78 %
#: of the page's text, and the walk chose them); on a product page or a picture story (toutiao)
#: the gallery is the content. Every page of the nine body sets (2026-11-27), as weak evidence:
#: aeb 0.9768 -> 0.9773 (8 pages up, none down), big9 0.9707 -> 0.9716 (12 up, none down),
#: wcxb_dev 4 pages up, 2 down (0.8499 either way), trafilatura_eval snippets 0.9254 -> 0.9251
#: (drk.de, whose story is there twice, once hidden for a screen reader: the walk took the other
#: copy); then as strong evidence: readability_testpages 0.9427 -> 0.9495 (the Independent's
#: story 0.03 -> 0.87), aeb and wcxb_dev one page up each, none down. As a weak word on every
#: page: wcxb_dev 0.8490 and gne 0.8927 (product pages and a toutiao picture story lost); as a
#: strong word on every page: the same losses and trafilatura_eval 0.9247.
GALLERY_WORDS = ("gallery", "galleries", "slideshow")
#: Words of an author box (the writer's portrait, role and biography after or beside the
#: story: FAZ's "cbx-Author", cicero.de's "author-box", knowtechie's "mvp-author-box-wrap"),
#: furniture as :data:`GALLERY_WORDS` are (on a page that declares itself an article, not where
#: the name holds a story word), on elements other than the inline ones
#: (:data:`INLINE_NAME_TAGS`: "<span class=author>Sarah Archer</span> is the author of..." is
#: part of its sentence). The gold of trafilatura_eval and wcxb_dev leaves author boxes out.
#: Every page of the nine body sets (2026-11-27): trafilatura_eval snippets 0.9264 -> 0.9273
#: (6 pages up, none down), wcxb_dev 0.8526 -> 0.8527 (32 up, 5 down: the bylines of a news
#: front's items, cabletv.com/news, -0.06), the others unchanged. On every page rather than
#: declared articles only: wcxb_dev 0.8522 (58 up, 18 down: the authors of a publication list's
#: or a blog front's items).
AUTHOR_BOX_WORDS = ("author", "authors", "autor", "autoren", "autorin", "authorbox", "autorbox")
#: Inline elements: a name that marks one of them marks a word of a sentence, not a block.
INLINE_NAME_TAGS = ("span", "a", "em", "strong", "b", "i", "small", "cite", "abbr", "time",
                    "font", "label", "u", "sup", "sub")
#: A custom element (a tag with a hyphen: ``<pp-navigation>``, ``<cookie-banner>``,
#: ``<amp-ad>``) names itself as a class would: its tag's words are read with its id and class.
#: bmas.de (trafilatura_eval) sets its menu in ``<pp-header><pp-navigation>``, unnamed
#: otherwise: the walk took the menu's 13 000 characters for the press release. Every page of
#: the nine body sets (2026-11-27): trafilatura_eval snippets 0.9252 -> 0.9254 (that page: 0
#: -> 3 of 3 wanted snippets), wcxb_dev one page up, none down, the seven others unchanged.
CUSTOM_TAG_NAMES = True
#: Elements never removed for their class or id (their role in the page is the tag's).
NAME_EXEMPT_TAGS = frozenset({"html", "body", "main", "article"})
#: Links are never removed for their class or id: an in-text link named for a feature is part
#: of its sentence (southernliving's ``recommendation-inline-link`` cut "a vegetable garden" out
#: of "as a vegetable garden."); link lists go by CleanTree's link density, share buttons with
#: their block. Every page: wcxb_dev 0.8147 -> 0.8163 (with the open-button fix of
#: :mod:`extractors.page`), big9 0.9526 -> 0.9527, trafilatura_eval 0.8846 -> 0.8845.
INLINE_EXEMPT_TAGS = frozenset({"a"})
#: Inside these, class names are a syntax highlighter's (``<span class="hljs-comment">``,
#: ``token comment``, ``pl-c``): never furniture words. coryd.dev (wcxb_dev) lost every comment
#: line of its shell listing ("# initialize git") to the comment word (F1 0.56 -> 0.96). Every
#: page of the nine body sets (2026-11-27): wcxb_dev 0.8524 -> 0.8526 (4 pages up, 8 down by
#: 0.03 at most, golds that leave code comments out), readability_testpages 1 up.
CODE_TAGS = ("pre", "code")

# the point between a lower-case letter or digit and a capital ("relatedArticles"): a space goes
# there. Written as lookarounds so that sub() inserts a plain string (no group template to
# expand per match, which cost more than the search); the same points as r"([a-z0-9])([A-Z])"
# with r"\1 \2", whose matches never overlap (a capital cannot start the next one). The capital
# is tested first: it fails at once at most points of a page's names, where the lowercase
# letter before them holds (the same points: 0.11 -> 0.08 ms a page's names, big9 and cx_163).
_CAMEL = re.compile(r"(?=[A-Z])(?<=[a-z0-9])")
_SPLIT = re.compile(r"[^a-z0-9\0]+")
#: :data:`_SPLIT`'s runs on ASCII text, in two C passes: every character but ``[a-z0-9\0]`` to a
#: space (``str.translate`` over ASCII reads a table), then each run of spaces to one. The same
#: text as ``_SPLIT.sub(" ", ...)`` (the runs it replaces are the runs of spaces after the
#: translation); 0.13 -> 0.05 ms a page's names (big9 and cx_163, median page).
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789\0")
_TO_SPACES = str.maketrans({chr(c): chr(c) if chr(c) in _NAME_CHARS else " " for c in range(128)})
#: The runs of spaces made one by :func:`_one_space` (this pattern is its reference in the tests).
_SPACE_RUNS = re.compile(" {2,}")
_ATTRIBUTE_XPATH = ("descendant-or-self::*/@role | descendant-or-self::*/@hidden"
                    " | descendant-or-self::*/@aria-hidden | descendant-or-self::*/@style"
                    " | descendant-or-self::*/@itemprop | descendant-or-self::*/@itemtype"
                    " | descendant-or-self::a/@rel")
#: ... compiled once (a string given to ``xpath()`` is compiled on every call: 0.07 ms a page)
_ATTRIBUTES = etree.XPath(_ATTRIBUTE_XPATH)
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


#: A caption word that names a font style, not a caption: a type scale's step ("typography-caption",
#: "text-caption", "caption-s", "caption-xs"; wcxb_dev's marketing pages set teasers and author
#: lists in them).
_TYPE_STYLE = re.compile(r"(?:^|\s)(?:typography|text)(?:\s[a-z]+)?\scaption\b"
                         r"|(?:^|\s)caption\s(?:xxs|xs|s|sm|m|md|l|lg|xl|xxl|[0-9])(?=\s|$)")


@functools.lru_cache(maxsize=16)
def _word_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """A regex matching a whole word of :func:`name_words` that is one of ``words`` (a trailing
    ``*``: any word starting so): what :meth:`NameWords.matching_words` computes without it, kept
    as the reference the tests compare it with."""
    alternatives = (re.escape(w[:-1]) + "[a-z0-9]*" if w.endswith("*") else re.escape(w)
                    for w in words)
    return re.compile(r"(?:^|\s)(?:" + "|".join(alternatives) + r")(?=\s|$)")


def name_words(value: str) -> str:
    """The words of an ``id``/``class`` value, lower-cased, space-separated (NUL separators of
    several names kept).

    >>> name_words("relatedArticles post_share-bar")
    ' related articles post share bar '
    """
    spaced = _CAMEL.sub(" ", value).lower().replace("\0", " \0 ")
    if spaced.isascii():
        return " " + _one_space(spaced.translate(_TO_SPACES)) + " "
    return " " + _SPLIT.sub(" ", spaced) + " "


def _one_space(text: str) -> str:
    """``_SPACE_RUNS.sub(" ", text)`` for a ``text`` of lower-case letters, digits, NULs and
    spaces (:data:`_TO_SPACES`' output), by ``str.split`` and ``join``: its only whitespace is
    the space (NUL is none), so the split's words are the text between the runs, and a run at
    either end is one space there. 0.037 -> 0.021 ms a page's names (big9, first 80 pages),
    0.078 -> 0.050 (cx_163), median, warm."""
    words = text.split()
    if not words:
        return " " if text else ""
    return ((" " if text[0] == " " else "") + " ".join(words)
            + (" " if text[-1] == " " else ""))


_HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_SLUG_WORD = re.compile(r"[^\W_]+")
#: A heading's slug names no role: at least this many words.
MIN_SLUG_WORDS = 3


def _heading_slug_ids(nodes: NodeTable) -> set[int]:
    """Rows whose ``id`` is the slug of their heading's text: a heading, or a block whose first
    heading opens it within its first rows (docutils and Sphinx sections, Markdown anchors:
    ``<div class="section" id="sharing-with-a-single-developer"><h2>Sharing with a single
    developer</h2>``). Such an id names the section's subject, not the block's role on the page:
    "sharing" there is no share bar (readability_testpages' mercurial page lost three of its
    four sections to the strong word ``share*``)."""
    found: set[int] = set()
    idents, tags, end = nodes.ident, nodes.tag, nodes.end
    for row in compress(count(), idents):  # the rows with an id (most have none: skipped in C)
        ident = idents[row]
        if ident.count("-") + ident.count("_") < MIN_SLUG_WORDS - 1:
            continue
        head = row if tags[row] in _HEADING_TAGS else next(
            (r for r in range(row + 1, min(int(end[row]), row + 3) + 1) if tags[r] in _HEADING_TAGS),
            None)
        if head is None:
            continue
        words = _SLUG_WORD.findall(ident.lower())
        heading = _SLUG_WORD.findall(nodes.elements[head].text_content().lower())
        if len(words) >= MIN_SLUG_WORDS and heading[:len(words)] == words:
            found.add(row)
    return found


@dataclass(frozen=True, slots=True)
class NameWords:
    """Each row's ``id`` and ``class`` as one name (``names``: ``"id class"``, ``""`` for a row
    with neither), the distinct names (``unique``) and their words (:func:`name_words`), joined
    by NUL: one regex pass over ``joined`` tells which names a word pattern matches, where a
    search per name cost ~0.5 ms a page (furniture and story rules read them)."""

    names: list[str]
    unique: list[str]
    joined: str
    starts: np.ndarray  # where each name's words start in ``joined``
    #: the named rows and their plain ``"id class"`` (no slug id dropped, no tag added), as
    #: :func:`extractors.page.name_marks` reads them: found once for both
    row_names: RowNames
    #: What :meth:`matching_words` found on this page, kept for its next call (the furniture
    #: rules ask three to six times a page): the distinct words (and sorted), the rows of each
    #: listed word present, the present words of each tuple of stems, ``starts`` as a list.
    #: Bounded by the page's own words.
    _found: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, nodes: NodeTable) -> NameWords:
        shared = row_names(nodes)
        names = [""] * len(nodes)
        for row, text in zip(shared.rows, shared.texts):
            names[row] = text
        for row in _heading_slug_ids(nodes):  # (most pages: none) the slug id left out
            names[row] = " " + nodes.classes[row]
        custom = {tag for tag in set(nodes.tag) if "-" in tag} if CUSTOM_TAG_NAMES else ()
        for row, tag in enumerate(nodes.tag if custom else ()):
            if tag in custom:  # a custom element's tag is its name too (see CUSTOM_TAG_NAMES)
                names[row] = f"{names[row]} {tag}" if names[row] else f" {tag}"
        unique = list(set(names) - {""})
        joined = name_words("\0".join(unique))
        # each name's words, as a search of them alone would read them: every one starts and
        # ends with a space, so "^" and "$" of the patterns never decide a match and no match
        # crosses a NUL (patterns of words and spaces)
        words = joined.split("\0")[:len(unique)]
        starts = np.cumsum([0] + [len(w) + 1 for w in words[:-1]]) if words else np.zeros(0)
        return cls(names, unique, "\0".join(words), starts, shared)

    def matching(self, pattern: re.Pattern[str]) -> set[int]:
        """Indices into ``unique`` whose words ``pattern`` matches."""
        found = [m.start() for m in pattern.finditer(self.joined)]
        if not found or not self.unique:
            return set()
        return set((np.searchsorted(self.starts, found, side="right") - 1).tolist())

    def matching_words(self, word_lists: tuple[tuple[str, ...], ...]) -> list[set[int]]:
        """For each list of words (a word ending in ``*``: any word it starts), the indices into
        ``unique`` whose words hold one of the list's: ``[self.matching(_word_pattern(words))
        for words in word_lists]``, without a regex pass per list.

        Why it is the same: ``joined`` is words of ``[a-z0-9]`` and NULs, each alone between
        spaces (:func:`name_words`), so a word pattern matches exactly where one whole word is
        a listed word, or starts with a listed stem. The page's distinct words are tested
        against the lists with set and ``startswith`` operations, and ``joined`` is searched
        (``str.find``) only for the listed words the page has (usually a few), where each
        list's pattern tried all its alternatives at every word of every name (1.4 ms of the
        1.45 ms of :func:`_marks`, median of big9's and cx_163's pages).
        """
        found: list[set[int]] = [set() for _ in word_lists]
        if not self.unique:
            return found
        exact, stems, every_exact, every_stem = _word_lists(word_lists)
        memo = self._found
        present = memo.get("present")
        if present is None:
            present = memo["present"] = frozenset(self.joined.split())
        hits = present & every_exact
        if every_stem:
            stemmed = memo.get(every_stem)
            if stemmed is None:
                stemmed = memo[every_stem] = self._starting(every_stem)
            hits |= stemmed
        if not hits:
            return found
        for word in hits:
            rows = memo.get(("rows", word))
            if rows is None:
                rows = memo[("rows", word)] = self._rows_of(word)
            for i, (words, starts) in enumerate(zip(exact, stems, strict=True)):
                if word in words or (starts and word.startswith(starts)):
                    found[i] |= rows
        return found

    def _starting(self, stems: tuple[str, ...]) -> frozenset[str]:
        """The page's distinct words that start with one of ``stems``: ``frozenset(word for
        word in present if word.startswith(stems))``, read from the words sorted once per page
        (the words starting with a stem are the run from its ``bisect_left`` on), where the
        pass tested every word of the page against every stem, once per tuple of stems (0.07
        -> 0.02 ms a page, big9's, aeb's first 80 pages and cx_163's 74, median, warm)."""
        memo = self._found
        ordered = memo.get("sorted")
        if ordered is None:
            ordered = memo["sorted"] = sorted(memo["present"])
        found: set[str] = set()
        for stem in stems:
            at = bisect_left(ordered, stem)
            while at < len(ordered) and ordered[at].startswith(stem):
                found.add(ordered[at])
                at += 1
        return frozenset(found)

    def _rows_of(self, word: str) -> frozenset[int]:
        """Indices into ``unique`` whose words hold ``word`` whole (every word stands between
        two spaces in ``joined``): each place's name by ``bisect_right`` over ``starts`` as a
        list (kept per page), as ``np.searchsorted(starts, places, side="right") - 1`` finds it
        without an array call per word (a word is in a few places; 17-21 words a page)."""
        joined, spaced = self.joined, f" {word} "
        starts = self._found.get("starts")
        if starts is None:
            starts = self._found["starts"] = self.starts.tolist()
        at, rows = joined.find(spaced), set()
        while at >= 0:
            rows.add(bisect_right(starts, at) - 1)
            at = joined.find(spaced, at + 1)
        return frozenset(rows)


@functools.lru_cache(maxsize=32)
def _word_lists(word_lists: tuple[tuple[str, ...], ...]) -> tuple[
        tuple[frozenset[str], ...], tuple[tuple[str, ...], ...], frozenset[str], tuple[str, ...]]:
    """The whole words and the stems (a trailing ``*`` dropped) of each list, and of all lists:
    read once per set of lists (the word lists are constants)."""
    exact = tuple(frozenset(w for w in words if not w.endswith("*")) for words in word_lists)
    stems = tuple(tuple(w[:-1] for w in words if w.endswith("*")) for words in word_lists)
    return exact, stems, frozenset().union(*exact), tuple(s for listed in stems for s in listed)


@dataclass(frozen=True, slots=True)
class Markup:
    """Per-row facts of the markup the furniture and story rules read, found in one pass: the
    tag names as an array, rows with a landmark role or hidden, rows marked as the article body,
    rows hidden by their own ``hidden`` attribute or style.
    """

    tags: np.ndarray
    weak_attribute: np.ndarray
    article_body: np.ndarray
    hidden: np.ndarray
    #: (row, value) of every ``itemprop`` attribute, in document order (read here already, so the
    #: metadata and page-type steps need no walk of their own).
    itemprops: tuple[tuple[int, str], ...] = ()
    names: NameWords | None = None
    #: every ``itemtype`` attribute's value, in document order (the page's microdata types).
    itemtypes: tuple[str, ...] = ()
    #: the ``rel`` of each ``<a>`` that has one, by row: the metadata step reads the links'
    #: ``rel="author"`` from it instead of a ``get("rel")`` per link (the path costs 0.01-0.04
    #: ms in the search; the metadata step's body read 0.17 -> 0.06 ms a page on big9, 0.36 ->
    #: 0.12 on cx_163, see :func:`extractors.metadata._read_body`).
    link_rels: dict[int, str] = field(default_factory=dict)


def read_markup(nodes: NodeTable) -> Markup:
    """The :class:`Markup` of ``nodes`` (one XPath search over attributes, done in C).

    Each attribute's row is its element's, found by ``list.index`` from the previous
    attribute's row on (the scan over the rows is one pass in C, where a dict of every element
    cost 0.03 ms a page for a median 28 attributes; 0.01 now, median of big9's and aeb's first
    80 pages and cx_163's 74); an element not found so is looked up in that dict."""
    n = len(nodes)
    tags = np.array(nodes.tag, dtype=object)
    weak = np.zeros(n, dtype=bool)
    article_body = np.zeros(n, dtype=bool)
    hidden = np.zeros(n, dtype=bool)
    found = _ATTRIBUTES(nodes.elements[0]) if n else []
    itemprops, itemtypes, link_rels = [], [], {}
    if found:
        elements, at, index = nodes.elements, 0, None
        for value in found:
            parent = value.getparent()
            try:  # XPath gives the attributes in document order, the rows' order: look on
                row = at = elements.index(parent, at)  # from the last one's row, in C
            except ValueError:  # not after it: looked up among every row
                if index is None:
                    index = {el: row for row, el in enumerate(elements)}
                row = index.get(parent)
                if row is None:
                    continue
            name = value.attrname
            if name == "itemtype":
                itemtypes.append(str(value))
            elif name == "itemprop":
                article_body[row] |= value == "articleBody"
                itemprops.append((row, str(value)))
            elif name == "role":
                weak[row] |= value in FURNITURE_ROLES
            elif name == "rel":  # on an <a> (the path asks no other element's)
                link_rels[row] = str(value)
            elif name == "style":
                is_hidden = _HIDDEN_STYLE.search(value) is not None
                weak[row] |= is_hidden
                hidden[row] |= is_hidden
            else:  # hidden, aria-hidden
                weak[row] |= name == "hidden" or value == "true"
                hidden[row] |= name == "hidden"
    if BANNER_HEADERS:
        for row in np.flatnonzero(tags == "header").tolist():
            weak[row] |= _is_banner(nodes, row)
    return Markup(tags, weak, article_body, hidden, tuple(itemprops), NameWords.of(nodes),
                  tuple(itemtypes), link_rels)


def _is_banner(nodes: NodeTable, row: int) -> bool:
    """A ``header`` outside every sectioning element: the page's banner (HTML-AAM)."""
    return not nodes.has_ancestor(row, _SECTIONING)


def page_markup(page) -> Markup:
    """:func:`read_markup` of ``page.nodes``, read once per page (kept in ``page.memo``): the
    chain, the metadata and the page-type steps all read it."""
    markup = page.memo.get("markup")
    if markup is None:
        markup = page.memo["markup"] = read_markup(page.nodes)
    return markup


def declares_article(page) -> bool:
    """Whether ``page`` declares itself an article: a JSON-LD ``Article`` type (read once per
    page, as the fields step reads it) or ``og:type`` article."""
    if article_objects(page_jsonld(page).objects)[0]:
        return True
    head = page.root.find("head")
    return head is not None and any(
        (meta.get("content") or "").strip().lower() == "article"
        for meta in head.iterfind("meta[@property='og:type']"))


#: Words of a product page's customer reviews ("reviews", "review-card", "pdp-reviews"): on a
#: page that declares a product and not an article (:func:`declares_product`), a block so named
#: goes as a gallery does on an article (strong, not where the name holds a story word). A
#: shop's reviews are its customers' comments, and the walk took them for the page's text:
#: rei.com's 25-litre pack (its description and features: F1 0 -> 0.96), thomann.de, two
#: coffee shops of trafilatura_eval. Whole words: "reviewed" names a site (reviewed.com), and
#: an article about products (reviewed.com's appliance picks, JSON-LD ``NewsArticle`` and
#: ``Product``) keeps its "...-review" product boxes. Every page of the nine body sets
#: (2026-11-27): wcxb_dev 0.8531 -> 0.8547 (17 up, 3 down: drinco.com, whose gold keeps its
#: reviews, -0.32), trafilatura_eval snippets 0.9301 -> 0.9307 (2 up), the others unchanged.
#: On every page that declares a product, articles too: wcxb_dev 0.8543 (reviewed.com -0.83).
REVIEW_WORDS = ("review", "reviews")


#: The microdata property of a comment on a question or an answer (schema.org ``Question`` and
#: ``Answer`` ``comment``): on a page that declares itself a question with its answers
#: (``QAPage``), an element so marked goes as a gallery does on an article. The answers are the
#: page's content; the remarks under them ("Will a backup refuse to copy a corrupt file?",
#: each with its author and time) are not, in the gold of every Stack Exchange page of wcxb_dev.
#: A forum's replies carry the same property (``DiscussionForumPosting``'s ``comment``): they stay,
#: as on every page not declaring a ``QAPage``. Every page of the nine body sets (2026-11-27):
#: wcxb_dev 0.8587 -> 0.8592 (9 pages up by up to 0.24; 1 down by 0.05, a Stack Overflow page
#: whose gold keeps the comments), the eight other sets unchanged on every page. The whole ``QAPage``
#: read as a non-discussion page instead (its comment-named blocks furniture): 10 up, 1 down by
#: 0.62 (wallstreetoasis.com, whose answers are named comments).
QA_COMMENT_PROP = "comment"


def declares_question(page) -> bool:
    """Whether ``page`` declares a question with its answers: a JSON-LD ``QAPage`` or the
    microdata type."""
    if any("QAPage" in type_names(obj) for obj in page_jsonld(page).objects):
        return True
    return any(value.rstrip("/").endswith("/QAPage") for value in page_itemtypes(page))


def page_itemtypes(page) -> tuple[str, ...]:
    """Every microdata ``itemtype`` of ``page``, ``<html>``'s own first (:class:`Markup` reads
    those of the elements below it)."""
    return (page.root.get("itemtype") or "",) + page_markup(page).itemtypes


def declares_product(page) -> bool:
    """Whether ``page`` declares a product: a JSON-LD ``Product`` object or ``og:type``
    product."""
    if any("product" in type_names(obj) for obj in page_jsonld(page).objects):
        return True
    head = page.root.find("head")
    return head is not None and any(
        (meta.get("content") or "").strip().lower() in ("product", "og:product")
        for meta in head.iterfind("meta[@property='og:type']"))


def furniture_mask(nodes: NodeTable, markup: Markup | None = None,
                   max_weak_share: float = MAX_WEAK_SHARE, thread: bool = False,
                   article: bool = False, product: bool = False,
                   question: bool = False) -> np.ndarray:
    """A row mask of ``nodes`` without the subtrees the page labels as furniture (see module doc).

    ``thread``: the page is a discussion (a forum topic, a question and its answers), whose posts
    are the content even when named as comments or replies: comment words are not furniture.
    ``article``: the page declares itself an article (:func:`declares_article`): its galleries
    and author boxes are furniture (:data:`GALLERY_WORDS`, :data:`AUTHOR_BOX_WORDS`).
    ``product``: the page declares a product (and no article): its customer reviews are
    furniture (:data:`REVIEW_WORDS`).
    ``question``: the page declares a question with its answers (``QAPage``): the comments
    its microdata marks on them are furniture (:data:`QA_COMMENT_PROP`).
    """
    n = len(nodes)
    markup = read_markup(nodes) if markup is None else markup
    strong, strong_story, weak, paywall = _marks(nodes, markup, thread)
    related, read_also = _related_blocks(nodes)
    strong = strong | read_also
    gallery = np.zeros(n, dtype=bool)
    if article:  # a declared article's galleries and author boxes (not its inline names)
        gallery = _named_rows(nodes, markup, GALLERY_WORDS) | (
            _named_rows(nodes, markup, AUTHOR_BOX_WORDS) & ~np.isin(markup.tags, INLINE_NAME_TAGS))
    if product:  # a shop's customer reviews
        gallery = gallery | _named_rows(nodes, markup, REVIEW_WORDS)
    if question:  # the comments under a question and its answers
        for row, prop in markup.itemprops:
            gallery[row] |= prop == QA_COMMENT_PROP
    dialog = _named_rows(nodes, markup, DIALOG_WORDS) & (nodes.nonlink_text >= MIN_DIALOG_CHARS)
    keep = np.ones(n, dtype=bool)
    if not (strong.any() or weak.any() or related.any() or gallery.any() or dialog.any()):
        return keep
    lc = nodes.nonlink_text
    total = max(int(lc[0]), 1)
    small = lc <= max_weak_share * total
    weak &= small | (markup.hidden if HIDDEN_ANY_SHARE and max_weak_share > 0 else False)
    paragraphs = _paragraph_count(nodes, markup)
    weak &= ~((paragraphs >= MIN_STORY_PARAGRAPHS) & ~markup.hidden)  # see MIN_STORY_PARAGRAPHS
    weak |= dialog & small
    strong |= gallery
    weak |= related  # a block its heading names as other stories', whatever its share (below)
    weak &= ~(_among_paragraphs(nodes, markup, paragraphs) & ~markup.hidden)
    strong &= ~(strong_story & (lc > MAX_STRONG_SHARE * total))
    if paywall.any():  # the paywalled story (see PAYWALL_WORDS)
        strong &= ~(paywall & (paragraphs >= MIN_STORY_PARAGRAPHS))
    protected = _subtree_any((markup.tags == "h1") | markup.article_body, nodes.end)
    for row in np.flatnonzero((strong | weak) & ~protected):
        if keep[row]:
            keep[row:int(nodes.end[row]) + 1] = False
    return keep


#: A line that heads links to other stories: "Recommended for You", "You may also like...",
#: "Related stories", "More stories from ...", "Most read", "Mehr zum Thema", "Lesen Sie auch".
#: "Verwandte Themen(bereiche)", "Empfehlungen aus der Redaktion", "Explore further" (phys.org),
#: "Mehr zu ..." and "Mehr Kolumnen auf ...": every page of the nine body sets (2026-11-27),
#: trafilatura_eval snippets 0.9244 -> 0.9252 (5 pages up, none down), aeb 1 page up, the
#: seven other sets unchanged on every page. Spanish and Polish labels ("Lea más", "Czytaj
#: też"), short ones with their colon before links only ("Lea:", "Mira:"), and "Related: <the
#: headline>" all in one link: trafilatura_eval 0.9256 -> 0.9264, big9 +4 pages, cleanportaleval
#: +2, readability_testpages and cx_bbc one page down each (golds that keep "Related:" links),
#: every page of the nine sets (2026-11-27, docs/evaluation.md "Midday").
_RELATED_HEADING = re.compile(
    r"^[^\S\n]*(?:recommended (?:for you|stories|articles|reading)"
    r"|you (?:may|might) also (?:like|enjoy)|related (?:stories|articles|posts|content|coverage"
    r"|news|links|reading)|more (?:stories|news|articles|videos) (?:from|on|about)\b[^\n]*"
    r"|most (?:popular|read|viewed)(?: stories| articles)?|trending(?: now| stories)?"
    r"|top stories|weitere artikel|mehr zum thema|das k\u00f6nnte sie auch interessieren"
    r"|\u00e4hnliche (?:artikel|beitr\u00e4ge)|lesen sie auch|auch interessant|meistgelesen"
    r"|(?:lesen sie |auch )?(?:weiterlesen|zum weiterlesen)|auch lesen|siehe auch|mehr themen"
    r"|weitere beitr\u00e4ge(?: [^\n]{0,40})?|das k\u00f6nnte dich (?:auch )?interessieren"
    r"|read (?:more|also)|see also|related|lea tambi\u00e9n|(?:le|te) puede interesar"
    r"|(?:\u00e0 )?lire aussi|leggi anche"
    r"|voc\u00ea (?:tamb\u00e9m )?pode gostar|(?:leia|veja) tamb\u00e9m"
    r"|(?:posts|artigos|not\u00edcias|mat\u00e9rias|noticias|art\u00edculos) relacionad[oa]s"
    r"|(?:tambi\u00e9n )?(?:le|te) puede interesar|sur le m\u00eame sujet|articles similaires"
    r"|(?:\u00e0 )?voir aussi|articoli correlati|(?:ti )?potrebbe interessarti|lees ook"
    r"|gerelateerde artikelen|(?:part of )?(?:complete|full) coverage(?: on| of)?"
    r"|verwandte (?:themen|themenbereiche|artikel)|empfehlungen aus der redaktion|explore further"
    r"|mehr (?:zu|kolumnen auf) [^\n]{1,40}"
    r"|lea m\u00e1s|lee (?:m\u00e1s|tambi\u00e9n)|vea (?:tambi\u00e9n|adem\u00e1s)"
    r"|puedes ver|notas relacionadas"
    r"|(?:prze)?czytaj (?:te\u017c|tak\u017ce|r\u00f3wnie\u017c|wi\u0119cej)"
    r"|zobacz (?:te\u017c|tak\u017ce|r\u00f3wnie\u017c)"
    r"|(?P<short>(?:lea|lee|mira|mire|vea|read)(?=[^\S\n]*:))"  # with a colon, before a link
    r"|(?P<lone>also))"  # only as a label alone in its element: see _related_blocks
    r"(?:[^\w\n]*$|(?P<prefix>[^\S\n]*:[^\S\n]*\w))",  # alone, or "Label: more words"
    re.M)  # matched on the lower-cased text: IGNORECASE would cost 3x
#: Such a heading is short: at most this many characters.
MAX_RELATED_HEADING_CHARS = 60
#: A line of the body that is such a heading alone (no words after it, not the lone "also"),
#: left there when the links it headed went as furniture ("Auch interessant:", "Mehr Themen:",
#: "NOTAS RELACIONADAS", "You may also like..."), is not the story's: it goes
#: (:func:`extractors._without_related_labels`), but for the headings of these words, which
#: head a section of the page's own on documentation and wiki pages ("See also") or whose links
#: the gold keeps ("Read more:", "Leggi anche"): of the lines they would remove, 16 of 29 were in
#: the gold (wcxb_dev's docs pages, aeb, readability_testpages, cx_bbc). Every page of the nine
#: body sets (2026-11-27): trafilatura_eval snippets 0.9308 -> 0.9316 (5 pages up, none down),
#: aeb 0.9776 -> 0.9777 (2 up), cleanportaleval 1 page up, big9 1 up, wcxb_dev 11 up, 1 down by
#: under 0.001 (0.8607 level), readability_testpages, cx_bbc, cx_163, gne unchanged.
SECTION_LABELS = ("see also", "siehe auch", "voir aussi", "à voir aussi", "read more",
                  "leggi anche")


def is_related_label(line: str) -> bool:
    """Whether ``line`` is a heading of links to other stories alone (see
    :data:`SECTION_LABELS`)."""
    low = " ".join(line.split()).lower()
    if not low or len(low) > MAX_RELATED_HEADING_CHARS:
        return False
    match = _RELATED_HEADING.fullmatch(low)
    return bool(match) and not (match.group("prefix") or match.group("lone")
                                or match.group("short")) and not low.startswith(SECTION_LABELS)


#: A line of one of these tags that is such a label and then a link, up to this many characters
#: of link text, is the link to another story set between the story's paragraphs ("Lesen Sie
#: auch: ...", "LE PUEDE INTERESAR: ...", "Related: ..."): it goes as a strong word would, even
#: among the paragraphs (a block the heading opens is weak furniture only).
_READ_ALSO_TAGS = frozenset({"p", "div", "li", "h2", "h3", "h4", "h5", "h6"})
MAX_READ_ALSO_CHARS = 300


#: A photo credit as a line of its own: a credit label at the line's start ("Foto: dpa",
#: "(Photo: Joe Darrow)", "Photograph by ...", "Crédits photos : ...", "Titelbild: ...",
#: "Abbildung 4: ...") or an agency at its end (".../Getty Images"), the line at most
#: :data:`MAX_CREDIT_CHARS` characters. Matched on the page's lower-cased text segments after a
#: line break (:func:`_related_blocks`' text). The line goes as a strong word would. Over our
#: output on the nine body sets, such lines were outside the gold 35 times (aeb's
#: ".../Getty Images" lines, big9's "(Photo: ...)", cx_bbc's "Getty Images", trafilatura_eval's
#: unwanted "Photograph by ...", "Crédits photos : ...") and in it 4 times (wcxb_dev). Every page
#: (2026-11-27): trafilatura_eval snippets 0.9264 -> 0.9279 (10 pages up, none down), big9
#: 0.9719 -> 0.9721 (9 up), cx_bbc 0.9550 -> 0.9551 (5 up), aeb 1 up, wcxb_dev 0.8526 either
#: way (5 up, 3 down by 0.011 at most: golds that keep "Photo by ..." and "Image: ..." lines).
_CREDIT_LABEL_PART = (
    r"\n[^\S\n]*\(?(?:fotos?|photos?|photograph|image|bild|bildquelle|credits?|cr\u00e9dits? photos?"
    r"|titelbild|beitragsbild|abbildung(?: \d+)?|picture)[^\S\n]*(?:by\b|:|\u00a9)")
_CREDIT_AGENCY_PART = r"getty images\)?[^\S\n]*(?=\n|$)"
_CREDIT_LINE = re.compile(_CREDIT_LABEL_PART + "|" + _CREDIT_AGENCY_PART)
MAX_CREDIT_CHARS = 150
#: :data:`_CREDIT_LINE`'s two alternatives searched apart (:func:`_credit_matches`): each opens
#: with a fixed text the search skips to in C (a line break; "getty images"), where the
#: alternation tested every character of the page's text against both first characters.
_CREDIT_LABEL = re.compile(_CREDIT_LABEL_PART)
_CREDIT_AGENCY = re.compile(_CREDIT_AGENCY_PART)


def _credit_matches(text: str) -> list[re.Match]:
    """``list(_CREDIT_LINE.finditer(text))``, from its two alternatives' searches: no match of
    one can overlap a match of the other (a label's match is a line break, spaces, a bracket,
    a label word and "by", ":" or "©"; an agency's holds no line break and no label's text), so
    the alternation's matches are both searches' matches in the order of their starts (0.074
    -> 0.028 ms a page big9, 0.063 -> 0.026 aeb, 0.086 -> 0.057 cx_163: the lower-cased text of
    big9's and aeb's first 80 pages and cx_163's 74, median, warm; the same matches on each)."""
    found = list(_CREDIT_LABEL.finditer(text))
    agencies = list(_CREDIT_AGENCY.finditer(text))  # usually none
    if agencies:
        found = sorted(found + agencies, key=re.Match.start)
    return found


def _credit_lines(nodes: NodeTable, credits: list[re.Match], starts: np.ndarray,
                  lines: np.ndarray) -> None:
    """Mark the photo credits (``credits``: the matches of :data:`_CREDIT_LINE` in the joined
    text whose segments start at ``starts``) in ``lines``: the element that holds the credit's
    segment and nothing more (climbing while the parent's text is the same), where the credit
    opens it (a label) or closes it (an agency)."""
    for match in credits:
        label = match.group().startswith("\n")
        at = match.start() + 1 if label else match.start()
        segment = int(np.searchsorted(starts, at, side="right")) - 1
        row = int(nodes.seg_owner[segment])
        while (nodes.parent[row] > 0 and nodes.text[int(nodes.parent[row])] == nodes.text[row]):
            row = int(nodes.parent[row])
        edge = nodes.seg_lo[row] == segment if label else nodes.seg_hi[row] - 1 == segment
        if edge and 0 < nodes.text[row] <= MAX_CREDIT_CHARS:
            lines[row] = True


def _related_blocks(nodes: NodeTable) -> tuple[np.ndarray, np.ndarray]:
    """Rows of blocks that open with a heading of links to other stories
    (:data:`_RELATED_HEADING`): the heading's parent, when the heading (an element of at most
    :data:`MAX_RELATED_HEADING_CHARS` characters and one child at most) is its first text; and,
    apart, the lines that are such a label followed by links only (see :data:`MAX_READ_ALSO_CHARS`)
    and the photo credits (:data:`_CREDIT_LINE`). One regex pass each over the page's text
    segments, joined by line breaks and lower-cased.

    The blocks are weak furniture (they go unless they sit among the story's paragraphs) but
    whatever their share of the page's text (:data:`MAX_WEAK_SHARE` does not hold them): under
    a one-paragraph post, "Você pode gostar..." opened five teasers holding 77 % of the page's
    text, which the walk then took (aeb, mensagensreflexao.com.br: F1 0 -> 1; aeb 0.9700 ->
    0.9755, the other eight body sets unchanged on every page, 2026-11-27).

    A heading in a group of its own (a header wrapper around an ``<h2>``, or a label and its
    subtitle: CNN's "Part of complete coverage on" / "Fukushima crisis") opens the block around
    the group, climbing while the group stays heading-sized; a label alone in its element opens
    the link-only siblings after it (:func:`_links_after`: latimes.com's "<p><b>ALSO</b></p>"
    before three linked headlines, Substack's "Read more" before another post's line). "ALSO"
    is such a label only there. Measured 2026-11-27 with the per-page script over the nine body
    sets: big9 0.9671 -> 0.9700 (with the ``noembed`` change of the page, 15 pages up, 0 down),
    readability_testpages 0.9322 -> 0.9349 (yahoo.com's stream: F1 0.25 -> 0.98; wapo-1 -0.012,
    whose gold keeps its "Read more:" links), aeb +1 page, wcxb_dev 0.8480 (6 up, 3 down by
    0.005 at most), cx_bbc 1 page -0.003 (its gold keeps three related links), the others
    unchanged."""
    result = np.zeros(len(nodes), dtype=bool)
    lines = np.zeros(len(nodes), dtype=bool)
    if not nodes.seg_text:
        return result, lines
    segments = nodes.seg_text
    text = "\n".join(segments).lower()
    matches = _related_headings(text)
    credits = _credit_matches(text)  # usually none
    if not matches and not credits:
        return result, lines
    found = [at for at, _ in matches]
    kinds = dict(matches)
    lengths = [len(t) for t in segments]
    if len(text) != sum(lengths) + len(segments) - 1:  # a letter whose lower case is longer ("İ")
        lengths = [len(t.lower()) for t in segments]
    starts = np.cumsum([0] + [length + 1 for length in lengths[:-1]])
    if credits:
        _credit_lines(nodes, credits, starts, lines)
    for at, segment in zip(found, np.searchsorted(starts, found, side="right") - 1):
        row = int(nodes.seg_owner[segment])
        kind = kinds[at]
        if kind >= _LINE_LABEL:  # a label that heads its own line of links, never a block
            if nodes.seg_lo[row] == segment:
                line = _read_also_line(nodes, row)
                if kind == _LINE_LABEL:
                    rest = nodes.text[line] - len(segments[segment].strip())
                    linked = 0 < rest <= MAX_READ_ALSO_CHARS and nodes.link_text[line] >= rest - 2
                else:  # "Related: <the other story's headline>" in one linked text
                    linked = (nodes.text[line] <= MAX_READ_ALSO_CHARS + MAX_RELATED_HEADING_CHARS
                              and nodes.link_text[line] >= nodes.text[line] - 2)
                lines[line] |= linked and nodes.tag[line] in _READ_ALSO_TAGS
            continue
        heading = nodes.text[row] <= MAX_RELATED_HEADING_CHARS and nodes.n_children[row] <= 1
        if kind == _LONE_LABEL and not heading:
            continue
        if heading:  # the label is an element of its own: the block it opens is its parent's
            opened = int(nodes.parent[row])
            if opened <= 0 or nodes.seg_lo[opened] != nodes.seg_lo[row]:
                continue
            while (nodes.text[opened] <= MAX_RELATED_HEADING_CHARS and nodes.parent[opened] > 0
                   and (nodes.text[row] < nodes.text[opened] or nodes.tag[row] in _HEADING_TAGS)
                   and nodes.seg_lo[int(nodes.parent[opened])] == nodes.seg_lo[row]):
                opened = int(nodes.parent[opened])  # the heading's group (label, subtitle)
        elif nodes.seg_lo[row] == segment:  # the label is the first text of a longer element
            opened = row
        else:
            continue
        line = _read_also_line(nodes, opened)
        rest = nodes.text[line] - len(segments[segment].strip())
        if (nodes.tag[line] in _READ_ALSO_TAGS and 0 < rest <= MAX_READ_ALSO_CHARS
                and nodes.link_text[line] >= rest - 2):
            lines[line] = True  # "Lesen Sie auch: <a>the other story</a>"
        elif heading:
            if nodes.text[opened] <= nodes.text[row]:  # the label alone: the links follow it
                _links_after(nodes, opened, lines)
            if kind != _LONE_LABEL:
                result[opened] = True
    return result, lines


def _read_also_line(nodes: NodeTable, row: int) -> int:
    """The line element of ``row``: ``row`` or the ancestors with the same text, up to one of
    :data:`_READ_ALSO_TAGS` ("<p><b>Read also: <a>...</a></b></p>": the ``p``)."""
    while (nodes.tag[row] not in _READ_ALSO_TAGS and nodes.parent[row] > 0
           and nodes.text[int(nodes.parent[row])] == nodes.text[row]):
        row = int(nodes.parent[row])
    return row


#: :data:`_RELATED_HEADING` after a line break, in place of its leading ``^``: a search for a
#: pattern that starts with a fixed character skips in C to where that character is, where
#: ``^`` is tried at every character of the text (0.40 -> 0.26 ms a page, median of 100
#: wcxb_dev pages; 0.24 -> 0.20 on big9's).
#: The first letters of :data:`_RELATED_HEADING`'s labels (each starts with one; a test derives
#: the set from the pattern): a line that starts with none of them is passed over at its break
#: without the labels tried one by one (the same matches; the search of a page's lower-cased
#: text, median page: 0.39 -> 0.05 ms cx_163, whose lines start with Chinese characters).
RELATED_FIRST_LETTERS = "acdefglmnprstvwyz\u00e0\u00e4"
_RELATED_AFTER_BREAK = re.compile(
    rf"\n(?=[^\S\n]*[{RELATED_FIRST_LETTERS}])" + _RELATED_HEADING.pattern.removeprefix("^"),
    _RELATED_HEADING.flags)


#: Kinds of a :data:`_RELATED_HEADING` match: a heading or label; the lone label "also"; a
#: short label with its colon ("Lea:", "Mira:"), or any label with a colon and more words in
#: the same text ("Related: <the headline>"), that heads a line of links only.
_HEADING_LABEL, _LONE_LABEL, _LINE_LABEL, _PREFIX_LABEL = 0, 1, 2, 3


def _label_kind(match: re.Match) -> int:
    if match.group("prefix") is not None:
        return _PREFIX_LABEL if match.group("lone") is None else -1
    if match.group("short") is not None:
        return _LINE_LABEL
    return _LONE_LABEL if match.group("lone") is not None else _HEADING_LABEL


def _related_headings(text: str) -> list[tuple[int, int]]:
    """(start, kind: :data:`_HEADING_LABEL`...) of every match of :data:`_RELATED_HEADING` in
    ``text``, as its ``finditer`` gives them: a match starts at the text's start or after a
    line break (``^`` with ``re.M``) and never spans one (no part of the pattern matches
    ``\n``), so the matches are the one at 0, if any, and those after each line break. "Also:"
    and more words is no label (kind -1, left out)."""
    found = []
    first = _RELATED_HEADING.match(text)
    if first is not None:
        found.append((0, _label_kind(first)))
    found += [(m.start() + 1, _label_kind(m)) for m in _RELATED_AFTER_BREAK.finditer(text)]
    return [(at, kind) for at, kind in found if kind >= 0]


def _links_after(nodes: NodeTable, row: int, lines: np.ndarray) -> None:
    """Mark the siblings after ``row`` that hold links only ("<p><b>ALSO</b></p>" then one
    ``<p><a>other story</a></p>`` a story), up to the first that holds other text."""
    parent, n = nodes.parent[row], len(nodes)
    sibling = int(nodes.end[row]) + 1
    while sibling < n and nodes.parent[sibling] == parent and not lines[sibling]:
        # (a sibling already marked: an earlier label's walk went on from there; stopping keeps
        # a page of thousands of linked "ALSO" lines linear: 17 s -> 0.07 s at 8 000)
        if nodes.text[sibling]:
            if nodes.link_text[sibling] < nodes.text[sibling] - 2:
                break
            lines[sibling] = True
        sibling = int(nodes.end[sibling]) + 1


#: A block named by a :data:`SOCIAL_WORDS` word and an :data:`EMBEDDED_POST_WORDS` word, by no
#: other strong word, that holds a ``blockquote`` (:data:`EMBEDDED_POST_TAG`) is a post the story
#: embeds and quotes (a tweet), not sharing buttons: it is no furniture. bbc.com's
#: ``div.social-embed`` and nj.com's ``div.social-media-embed`` round ``blockquote.twitter-tweet``,
#: which cx_bbc's and aeb's golds keep (2026-11-28, every page of the eight body sets: cx_bbc
#: 0.9597 -> 0.9600, 2 pages up; aeb 0.9784 -> 0.9793, 1 page up; no page of the others changed;
#: trafilatura_eval snippets unchanged, 0.9370). Without the ``blockquote`` test omr.com's
#: Instagram consent placeholders (``social``/``embed``-named, no post in them) came back:
#: trafilatura_eval snippets 0.9370 -> 0.9368.
EMBEDDED_POST_WORDS = ("embed",)
SOCIAL_WORDS = ("social*",)
EMBEDDED_POST_TAG = "blockquote"
_NOT_SOCIAL = tuple(w for w in FURNITURE_WORDS if w not in SOCIAL_WORDS)


def _marks(nodes: NodeTable, markup: Markup, thread: bool = False
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows named as furniture by a strong word, those of them whose name also holds a story
    word, rows with weak evidence only (a weak word, a landmark tag or role, hidden), and rows
    named by a paywall word (:data:`PAYWALL_WORDS`)."""
    found = markup.names if markup.names is not None else NameWords.of(nodes)
    names, unique = found.names, found.unique
    strong_names, consent_names, weak_names, story_names, comment_names, caption_names, \
        paywall_names, embed_names, social_names, other_names = found.matching_words((
            tuple(w for w in FURNITURE_WORDS if w not in COMMENT_WORDS) if thread
            else FURNITURE_WORDS, CONSENT_WORDS, WEAK_FURNITURE_WORDS, STORY_WORDS,
            COMMENT_WORDS, CAPTION_WORDS, PAYWALL_WORDS, EMBEDDED_POST_WORDS, SOCIAL_WORDS,
            _NOT_SOCIAL))
    if caption_names:  # (both read the joined words as a search of each would)
        caption_names -= found.matching(_TYPE_STYLE)
    verdicts = {"": 0}  # name -> 4 caption, 3 strong + story word, 2 strong, 1 weak, 0 none
    for k, name in enumerate(unique):
        verdict = 2 if k in strong_names else int(k in weak_names)
        if not verdict and k in caption_names:
            verdict = 4
        guarded = (k in story_names or k not in comment_names) and k not in consent_names
        verdicts[name] = 3 if verdict == 2 and guarded else verdict
    verdict = np.fromiter(map(verdicts.__getitem__, names), dtype=np.int8, count=len(names))
    # the three tag sets as bits of one code per row (a dict lookup per row; np.isin over an
    # object array sorts it, three times)
    bits = dict.fromkeys(NAME_EXEMPT_TAGS | INLINE_EXEMPT_TAGS, 1)
    for tag in FURNITURE_TAGS:
        bits[tag] = bits.get(tag, 0) | 2
    for tag in STRONG_FURNITURE_TAGS:
        bits[tag] = bits.get(tag, 0) | 4
    tag_bits = np.fromiter(map(bits.get, markup.tags, repeat(0)), dtype=np.int8,
                           count=len(markup.tags))
    verdict[(tag_bits & 1) != 0] = 0
    for row in np.flatnonzero(np.isin(markup.tags, CODE_TAGS)):  # usually none or a few
        verdict[row + 1:int(nodes.end[row]) + 1] = 0
    embedded = {unique[k] for k in embed_names & social_names - other_names}
    if embedded:  # usually none
        for row in np.flatnonzero(np.fromiter(map(embedded.__contains__, names), dtype=bool,
                                              count=len(names))).tolist():
            if (markup.tags[row + 1:int(nodes.end[row]) + 1] == EMBEDDED_POST_TAG).any():
                verdict[row] = 0
    caption = (verdict == 4) & (nodes.text <= MAX_CAPTION_CHARS)
    verdict[verdict == 4] = 0
    weak = (verdict == 1) | ((tag_bits & 2) != 0) | markup.weak_attribute
    strong = (verdict >= 2) | caption | ((tag_bits & 4) != 0)
    paywall = np.zeros(len(names), dtype=bool)
    if paywall_names:
        named = {unique[k] for k in paywall_names}
        paywall = np.fromiter(map(named.__contains__, names), dtype=bool, count=len(names))
    return strong, verdict == 3, weak & ~strong, paywall


def rows_named(page, words: tuple[str, ...]) -> np.ndarray:
    """A row mask of ``page``'s elements named by one of ``words`` (id/class words, as
    :data:`FURNITURE_WORDS` are matched) and by no :data:`STORY_WORDS` word."""
    return _named_rows(page.nodes, page_markup(page), words)


#: Classes that hide an element from sight and leave it to screen readers (Bootstrap's
#: ``sr-only`` and ``visually-hidden``, WordPress's ``screen-reader-text``, Foundation's
#: ``show-for-sr``, Drupal's ``element-invisible``...): whole class tokens. A reader of the page
#: never sees their text: "(opens in a new tab)", "Posted in", a heading for a list's navigation.
#: Left out of the body's text only (:func:`extractors._without_unseen`), not of the walk: as
#: furniture they moved the walk off a product page's description (wcxb_dev newtwist.com:
#: its filter menu became the body) and scored wcxb_dev 0.8605 -> 0.8600 (33 pages down).
#: Every page of the nine body sets, out of the text (2026-11-27): see
#: :data:`HIDDEN_SKIP_LINKS`.
SCREEN_READER_CLASSES = ("sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text",
                         "screen-reader-only", "sr-text", "show-for-sr", "assistive-text",
                         "a11y-hidden", "u-visually-hidden", "is-visually-hidden")
#: ... and a link to a place on the same page (``href="#..."``) whose class is ``hidden`` or
#: ``element-invisible``: a skip link for screen readers (the BBC's "Continue reading the main
#: story" before each box set inside a story). Other elements so classed are not left out: a
#: ``hidden`` class is how many themes fold a tab or a "read more" that a script opens (wcxb_dev
#: 0.8605 -> 0.8603 with every ``hidden`` element: 21 pages down, a bank's tabbed product page
#: -0.31). With both, every page of the nine body sets: cleanportaleval 0.9573 -> 0.9580 (the
#: BBC's skip links, 7 pages up, none down), wcxb_dev 0.8605 -> 0.8607 (53 up, 7 down: a
#: comparison table's "Yes"/"No" marks set for screen readers, which its gold keeps), big9
#: 0.9728 -> 0.9727 (3 BBC pages whose gold keeps the skip link's label, which the gold of
#: cleanportaleval leaves out on 13), readability_testpages one page up (0.9533 level), the
#: other five unchanged.
HIDDEN_SKIP_LINKS = ("hidden", "element-invisible")
# Both looked up as whole words of a lower-cased name (its ``split()``, white space as ``\s``
# reads it): what a search for ``(?:^|\s)(?:word|...)(?=\s|$)`` finds, without a regex search
# of each distinct name per list (screen_reader_rows 0.10 -> 0.04 ms big9, 0.24 -> 0.07 ms
# cx_163, median page; the same names on 635 pages of big9, cx_163, aeb, trafilatura_eval).
_SCREEN_READER = frozenset(SCREEN_READER_CLASSES)
_HIDDEN_CLASS = frozenset(HIDDEN_SKIP_LINKS)


def screen_reader_rows(page) -> list[int]:
    """The rows of ``page`` that only a screen reader reads (see :data:`SCREEN_READER_CLASSES`
    and :data:`HIDDEN_SKIP_LINKS`), in document order; each row's subtree goes with it.
    A pass over the page's distinct ``id class`` names, not its rows (cached per page)."""
    rows = page.memo.get("screen_reader")
    if rows is None:
        nodes, names = page.nodes, page_markup(page).names
        unseen, skip = set(), set()
        for name in names.unique:
            words = name.lower().split()
            if not _SCREEN_READER.isdisjoint(words):
                unseen.add(name)
            if not _HIDDEN_CLASS.isdisjoint(words):
                skip.add(name)
        rows = []
        if unseen or skip:
            named = unseen | skip
            for row in np.flatnonzero(np.fromiter(map(named.__contains__, names.names),
                                                  dtype=bool, count=len(nodes))).tolist():
                name = names.names[row]
                if name in unseen or (nodes.tag[row] == "a" and (
                        nodes.elements[row].get("href") or "").startswith("#")):
                    rows.append(row)
        page.memo["screen_reader"] = rows
    return rows


def _named_rows(nodes: NodeTable, markup: Markup, words: tuple[str, ...]) -> np.ndarray:
    """Rows named by one of ``words`` and by no :data:`STORY_WORDS` word."""
    found = markup.names if markup.names is not None else NameWords.of(nodes)
    listed, story = found.matching_words((words, STORY_WORDS))
    named = {found.unique[k] for k in listed - story}
    if not named:
        return np.zeros(len(nodes), dtype=bool)
    return np.fromiter(map(named.__contains__, found.names), dtype=bool, count=len(nodes))


def _paragraph_count(nodes: NodeTable, markup: Markup) -> np.ndarray:
    """The number of ``p`` children with non-link text of each row."""
    is_p = (markup.tags == "p") & (nodes.nonlink_text > 0)
    parents = nodes.parent[is_p]
    return np.bincount(parents[parents >= 0], minlength=len(nodes))


def _among_paragraphs(nodes: NodeTable, markup: Markup, paragraphs: np.ndarray | None = None
                      ) -> np.ndarray:
    """Rows whose parent also holds at least :data:`MIN_PARAGRAPH_SIBLINGS` ``p`` children with
    text: a box set among the story's paragraphs (a pull-out, a fact box). ``paragraphs``:
    :func:`_paragraph_count`, when the caller has it."""
    if paragraphs is None:
        paragraphs = _paragraph_count(nodes, markup)
    result = np.zeros(len(nodes), dtype=bool)
    has_parent = nodes.parent >= 0
    result[has_parent] = paragraphs[nodes.parent[has_parent]] >= MIN_PARAGRAPH_SIBLINGS
    return result


def _subtree_any(flags: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Whether each row's subtree (rows ``i .. end[i]``) holds a flagged row."""
    return _subtree_sum(flags, end) > 0
