"""Crawl rounds: fronts are fetched again each round, articles once.

A scheduled crawl comes back to its sites: the front pages (seeds) and the list pages they lead to
change, the articles they list mostly do not. A request carries the round it belongs to in
``meta[ROUND_META]`` when it is a *front*: a seed, or a link whose URL has the shape of a list page
(:func:`crawler.routing.list_shaped`: a path ending in ``/``, a listing word, a ``page``
parameter). Its fingerprint is kept in a set of its round only (the embedded crawl's
:class:`~crawler.scheduling.resume.ResumableScheduler` keeps the current and the previous round's;
Redis, ``<dupefilter>:fronts:<round>``, expiring a day after the round's last front, see
:mod:`crawler.scheduling.seen`), and in the embedded crawl also salted with the round (Scrapy's
fingerprinter, ``REQUEST_FINGERPRINTER_CLASS``): within a round a front is fetched once, the next
round fetches it again, and fronts do not pile up round after round. Every other request
(articles) keeps its plain fingerprint in the seen set, so an article seen in any earlier round is
never fetched, nor emitted, again (until the refetch age, below); a round's items are its fronts (as list items) and the articles
new since the last round.

Rounds: each ``newscrawl crawl`` run into the same ``--out`` is a round (the frontier journal keeps
what was seen, see :mod:`crawler.scheduling.resume`), unless the last run stopped with requests
still to do (killed, or ``--max-pages``): then the new run resumes that round. ``--rounds N --every
S`` runs N rounds in one process; in distributed mode each ``newscrawl seed`` is a round (a counter
in Redis).

Known limit: a section page whose URL does not look like a list (``/world/africa``) is fetched
once; give it as a seed to have it revisited. Articles are fetched again for updates only once
older than the refetch age (``NEWSCRAWL_REFETCH_AFTER_DAYS``, :mod:`crawler.scheduling.seen`).

Memory of seen URLs: one 64-bit fingerprint per article, about 9 bytes per URL in the embedded
crawl and 8.5 in Redis (100 M URLs: about 0.9 GB each; 245 and 88 bytes per URL before, with
40-character hex strings); the fronts of the last rounds only. Figures, collision odds and how they were measured:
:mod:`crawler.scheduling.seen`, ``newscrawl seen-bench``.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

from scrapy.utils.request import RequestFingerprinter

from crawler.routing import list_shaped

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler

__all__ = ["ROUND_META", "RoundFingerprinter", "is_front"]

#: Request meta key: the round a front request belongs to.
ROUND_META = "newscrawl_round"


def is_front(url: str) -> bool:
    """Whether a link is fetched again each round (its URL has the shape of a list page).

    >>> is_front("https://example.com/world/"), is_front("https://example.com/news/a-story-1234")
    (True, False)
    """
    return list_shaped(url)


def _salted(fingerprint: bytes, request: Request) -> bytes:
    crawl_round = request.meta.get(ROUND_META)
    if crawl_round is None:
        return fingerprint
    return hashlib.sha1(fingerprint + b"|round:" + str(crawl_round).encode()).digest()


class RoundFingerprinter:
    """Scrapy's request fingerprinter, salted with the round of front requests."""

    def __init__(self, crawler: Crawler | None = None) -> None:
        self._base = RequestFingerprinter(crawler)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RoundFingerprinter:
        return cls(crawler)

    def fingerprint(self, request: Request) -> bytes:
        return _salted(self._base.fingerprint(request), request)
