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

from extractors.boilerplate import Markup, name_words, read_markup
from extractors.nodetable import NodeTable

__all__ = ["MIN_STORY_SHARE", "STORY_BODY_NAMES", "story_container"]

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
    pattern = _names_pattern(STORY_BODY_NAMES)
    names = [i + " " + c if (i or c) else "" for i, c in zip(nodes.ident, nodes.classes)]
    unique = list(set(names) - {""})
    hits = {name for name, words in zip(unique, name_words("\0".join(unique)).split("\0"))
            if pattern.search(words)}
    yield [row for row, name in enumerate(names) if name in hits]
    yield list(np.flatnonzero(markup.tags == "article"))
