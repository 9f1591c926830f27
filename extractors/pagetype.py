"""A first page-type heuristic (article / list / other) from the node table; DWSIE replaces it later.

An article has a subject region with a body of real prose; a list page has many links with
headline-length anchors and little prose outside them.
"""

from __future__ import annotations

import numpy as np

from extractors.attenuation import MainText
from extractors.page import Page

__all__ = ["classify_page"]

#: Body characters from which a page reads as an article (CJK characters count triple, since one
#: carries about a word).
MIN_ARTICLE_CHARS = 400
#: ... and the body must also outweigh the page's headline-like links by this factor (a section front
#: with teasers has a long "body" but many more headline links). Both constants come from a grid
#: (200–600 chars × ratio 5–80) on gerapy_listdetail, the first 300 pages of wcxb_dev and
#: news_article_vs_nonarticle: accuracy 0.80 (article vs list vs not-article), against 0.76 without the
#: ratio. A first heuristic only: the DWSIE classifier is meant to replace it.
MIN_BODY_CHARS_PER_HEADLINE_LINK = 10
#: Links with at least this many anchor characters look like headlines.
MIN_HEADLINE_LINK_CHARS = 12
#: Headline-like links from which a page without an article body reads as a list.
MIN_LIST_LINKS = 10


def classify_page(page: Page, main: MainText) -> str:
    """``"article"``, ``"list"`` or ``"other"``."""
    nodes = page.nodes
    is_link = np.fromiter((t == "a" for t in nodes.tag), dtype=bool, count=len(nodes))
    headline_links = int(np.count_nonzero(nodes.text[is_link] >= MIN_HEADLINE_LINK_CHARS))
    length = _weighted_length(main.text)
    if length >= MIN_ARTICLE_CHARS and length >= MIN_BODY_CHARS_PER_HEADLINE_LINK * headline_links:
        return "article"
    return "list" if headline_links >= MIN_LIST_LINKS else "other"


def _weighted_length(text: str) -> int:
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff")
    return len(text) + 2 * cjk
