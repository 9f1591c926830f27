"""SiblingHold: the bounded holding area of article pages that wait for a same-template sibling.

A held page is a Deferred the extract pipeline awaits; it fires with

- ``None`` when a page of the same template key arrived (:meth:`SiblingHold.arrived`): look again;
- a reason string when the page must go on without a sibling: the wait timed out
  (:meth:`SiblingHold.expire`), the holding area was full and this was its oldest page, or the
  crawl is closing (:meth:`SiblingHold.release_all`).

The area is bounded by a number of pages and by the sum of their body sizes (the held responses stay
counted in Scrapy's scraper slot, see :mod:`pipelines.siblings.pairing`); when a new page would pass
a bound, the oldest held pages are released first. Nothing here knows about Scrapy's engine: the
owner calls :meth:`expire` and :meth:`release_all` from its timer.

>>> hold = SiblingHold(wait=10, max_pages=1, max_bytes=100, clock=lambda: 0.0)
>>> first = hold.hold("t", "https://a.org/1", 10)
>>> second = hold.hold("t", "https://a.org/2", 10)
>>> first.result if first.called else None
'holding area full'
>>> hold.arrived("t")
1
>>> second.called, second.result
(True, None)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from twisted.internet.defer import Deferred

from pipelines.reasons import HOLD_FULL

__all__ = ["SiblingHold"]


@dataclass(slots=True)
class _Held:
    template_key: str
    url: str
    size: int
    deadline: float
    waiter: Deferred[str | None]


class SiblingHold:
    """Pages waiting for a sibling: at most ``max_pages`` pages and ``max_bytes`` body bytes."""

    def __init__(
        self,
        wait: float,
        max_pages: int,
        max_bytes: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.wait = wait
        self.max_pages = max_pages
        self.max_bytes = max_bytes
        self.clock = clock
        self._held: OrderedDict[int, _Held] = OrderedDict()
        self._serial = 0
        self.held_bytes = 0

    def __len__(self) -> int:
        return len(self._held)

    def waiting(self) -> list[tuple[str, str]]:
        """(template key, URL) of every held page, oldest first."""
        return [(held.template_key, held.url) for held in self._held.values()]

    def hold(self, template_key: str, url: str, size: int) -> Deferred[str | None]:
        """Hold a page; the Deferred fires as the module docstring says."""
        self._serial += 1
        waiter: Deferred[str | None] = Deferred()
        deadline = self.clock() + self.wait
        self._held[self._serial] = _Held(template_key, url, size, deadline, waiter)
        self.held_bytes += size
        while self._held and (len(self._held) > self.max_pages or self.held_bytes > self.max_bytes):
            self._release(next(iter(self._held)), HOLD_FULL)
        return waiter

    def arrived(self, template_key: str) -> int:
        """A page of ``template_key`` was stored: wake its waiters; how many were woken."""
        ids = [i for i, held in self._held.items() if held.template_key == template_key]
        for i in ids:
            self._release(i, None)
        return len(ids)

    def expire(self, reason: str) -> int:
        """Release the pages whose wait is over with ``reason``; how many were released."""
        now = self.clock()
        ids = [i for i, held in self._held.items() if held.deadline <= now]
        for i in ids:
            self._release(i, reason)
        return len(ids)

    def release_all(self, reason: str) -> int:
        """Release every held page with ``reason`` (the crawl is closing)."""
        ids = list(self._held)
        for i in ids:
            self._release(i, reason)
        return len(ids)

    def _release(self, serial: int, reason: str | None) -> None:
        held = self._held.pop(serial)
        self.held_bytes -= held.size
        held.waiter.callback(reason)
