"""The sibling link of an article: among the page's own links, the nearest one of the same template.

Paper 003 pairs a target page with "a similar page of the same site found among the target's links".
Here a link is a candidate when its :func:`~crawler.templates.template_key` equals the page's (same
site, same URL shape) and it is not the page itself (fragments ignored). The *nearest* candidate
is chosen by, in this order:

1. the longest common prefix of path segments with the page (``/news/world/a-b`` is nearer to
   ``/news/world/c-d`` than to ``/news/sport/e-f``);
2. the smallest edit distance (Levenshtein) between the last path segments (``business-38646804``
   is nearer to ``business-38651816`` than to ``health-38157770``);
3. document order (the first link on the page wins a tie).

>>> choose_sibling_link("https://a.org/news/world/rain-in-spain", [
...     "https://a.org/news/sport/cup-final", "https://a.org/news/world/snow-in-oslo",
...     "https://a.org/news/world/rain-in-spain#top", "https://a.org/news/world/"])
'https://a.org/news/world/snow-in-oslo'
>>> choose_sibling_link("https://a.org/news/business-38646804", [
...     "https://a.org/news/health-38157770", "https://a.org/news/business-38651816"])
'https://a.org/news/business-38651816'
>>> choose_sibling_link("https://a.org/news/rain-in-spain", ["https://a.org/about"]) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urldefrag, urlsplit

from crawler.templates import template_key

__all__ = ["choose_sibling_link", "edit_distance"]


def edit_distance(a: str, b: str) -> int:
    """The Levenshtein distance of two strings (insertions, deletions, substitutions cost 1).

    >>> edit_distance("business-38646804", "business-38651816"), edit_distance("", "abc")
    (4, 3)
    """
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _segments(url: str) -> list[str]:
    return urlsplit(url).path.split("/")


def _common_prefix(a: list[str], b: list[str]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def choose_sibling_link(url: str, links: Iterable[str]) -> str | None:
    """The nearest same-template link of the page at ``url`` (rules in the module docstring)."""
    key = template_key(url)
    own = urldefrag(url).url
    path = _segments(url)
    best: tuple[int, int, int] | None = None
    chosen = None
    for order, link in enumerate(links):
        if urldefrag(link).url == own or template_key(link) != key:
            continue
        other = _segments(link)
        rank = (-_common_prefix(path, other), edit_distance(path[-1], other[-1]), order)
        if best is None or rank < best:
            best, chosen = rank, link
    return chosen
