"""Why a page went on without a sibling: the reasons an item says (``extraction.sibling.reason``)
and their stats slugs (``newscrawl/siblings/none/<slug>``).

Both rooms that pair pages read them: the sibling room gives them
(:mod:`pipelines.siblings.pairing`, :mod:`pipelines.siblings.hold`), the list room says one of its
own (``NOT_NEEDED``: the template has a wrapper) and slugs its own reasons with :func:`reason_slug`.
They live here, below both rooms, so that neither room imports the other.
"""

from __future__ import annotations

import re

from extractors import NOT_CJK, SIBLING_OFF

__all__ = [
    "CLOSED",
    "DISABLED",
    "HOLD_FULL",
    "NOT_ARTICLE",
    "NOT_CJK",
    "NOT_NEEDED",
    "NOT_STORED",
    "NO_LINK",
    "SIBLING_OFF",
    "STORE_DOWN",
    "reason_slug",
]

DISABLED = "sibling pairing disabled"
NOT_ARTICLE = "only article and list pages are paired"
NO_LINK = "no same-template link on the page"
STORE_DOWN = "sibling store unavailable"
CLOSED = "crawl closed before a sibling arrived"
NOT_STORED = "the template's pages were not stored"
NOT_NEEDED = "not needed: the template has a wrapper"
HOLD_FULL = "holding area full"

#: Stats slugs of the reasons above (``newscrawl/siblings/none/<slug>``); others are slugified.
_SLUGS = {
    DISABLED: "disabled",
    NOT_ARTICLE: "not_article",
    NO_LINK: "no_same_template_link",
    STORE_DOWN: "store_unavailable",
    CLOSED: "crawl_closed",
    HOLD_FULL: "hold_full",
    NOT_STORED: "not_stored",
    NOT_NEEDED: "not_needed",
    NOT_CJK: "not_cjk",
    SIBLING_OFF: "use_sibling_never",
}


def reason_slug(reason: str) -> str:
    """The stats slug of a "no sibling" reason (or of any reason: slugified).

    >>> reason_slug("no sibling arrived within 30 s"), reason_slug(NO_LINK)
    ('no_sibling_arrived_within_30_s', 'no_same_template_link')
    """
    return _SLUGS.get(reason) or re.sub(r"[^a-z0-9]+", "_", reason.lower()).strip("_")[:48]
