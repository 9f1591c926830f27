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

List pages are keyed and paired by :func:`list_template_key`, a coarser key: the sections of a
news site (``/world/``, ``/business/``) are usually one list template under different words, and
PSNT (paper 004) needs two pages of one template, not two pages of one section.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from urllib.parse import urldefrag, urlsplit, urlunsplit

from crawler.templates import template_key

__all__ = ["choose_sibling_link", "edit_distance", "list_template_key"]

#: A plain word segment (``news``, ``Parts``, ``world_cup``): what a section name looks like.
_WORD = re.compile(r"[A-Za-z][A-Za-z_]*")
#: Its shape in a list template key.
WORD_SHAPE = "<w>"
_PLACEHOLDER = "newscrawlsectionword"


def list_template_key(url: str) -> str:
    """The template key of a list page: :func:`template_key` with the last non-empty path segment,
    when it is a plain word (a section name), shaped ``<w>``.

    >>> list_template_key("https://a.org/news/"), list_template_key("https://a.org/money/")
    ('a.org/<w>/', 'a.org/<w>/')
    >>> list_template_key("https://www.ifixit.com/Parts/iPhone?p=2")
    'ifixit.com/Parts/<w>?p=<n1>'
    >>> list_template_key("https://a.org/"), list_template_key("https://a.org/news/2024/")
    ('a.org/', 'a.org/news/<n4>/')
    """
    parts = urlsplit(url)
    segments = parts.path.split("/")
    last = max((i for i, s in enumerate(segments) if s), default=None)
    if last is None or not _WORD.fullmatch(segments[last]):
        return template_key(url)
    segments[last] = _PLACEHOLDER  # a plain word: template_key keeps it as written
    key = template_key(urlunsplit(parts._replace(path="/".join(segments))))
    path, sep, query = key.partition("?")
    before, _, after = path.rpartition(_PLACEHOLDER)
    return before + WORD_SHAPE + after + sep + query


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


def choose_sibling_link(
    url: str, links: Iterable[str], key_of: Callable[[str], str] = template_key
) -> str | None:
    """The nearest same-template link of the page at ``url`` (rules in the module docstring);
    ``key_of``: the template key function (:func:`list_template_key` for list pages)."""
    key = key_of(url)
    own = urldefrag(url).url
    path = _segments(url)
    best: tuple[int, int, int] | None = None
    chosen = None
    for order, link in enumerate(links):
        if urldefrag(link).url == own or key_of(link) != key:
            continue
        other = _segments(link)
        rank = (-_common_prefix(path, other), edit_distance(path[-1], other[-1]), order)
        if best is None or rank < best:
            best, chosen = rank, link
    return chosen
