"""AddressGuard: no request reaches a private, loopback, link-local or reserved address (SSRF).

A downloader middleware, so it sees every request the crawl makes: seeds, links, sibling and record
requests, ``robots.txt``, and every redirect (``RedirectMiddleware``) and meta refresh
(``MetaRefreshMiddleware``), which come back through the downloader as new requests. For each:

1. the scheme must be ``http`` or ``https`` (reason ``scheme``);
2. the host is resolved with the reactor's resolver (Scrapy's caching resolver: the download that
   follows reads the same cache entry, so the address checked is the address connected to);
3. the address is judged by :func:`crawler.scope.refusal` against ``NEWSCRAWL_ALLOWED_NETWORKS``;
4. a refused address is still fetched when the request's exact scheme, host and port are those of a
   seed (the seed exception: a crawl of ``http://127.0.0.1:8000/``, the demo and the tests). Seed
   requests carry their origin in ``meta["newscrawl_seed_origin"]`` (set by
   :meth:`crawler.spiders.news.NewsSpider.seed_request`, kept by redirects and by the shared queue),
   which is how a worker learns the seed origins of requests it did not seed itself.

A refused request raises :class:`AddressRefused` (an ``IgnoreRequest``: the spider's errback counts
``newscrawl/skipped/refused``) and is counted under ``newscrawl/refused/<reason>``. A host that does
not resolve fails here with the resolver's error (counted ``skipped/dns`` as before), so a name that
fails the check cannot resolve differently at connect time.

Known limit: with an HTTP proxy (``HTTP_PROXY``) the proxy resolves names, not this process.
"""

from __future__ import annotations

import logging
from ipaddress import ip_address
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import maybe_deferred_to_future

from crawler.scope import FETCHABLE_SCHEMES, host_origin, parse_networks, refusal

if TYPE_CHECKING:
    from typing import Self

    from scrapy import Request
    from scrapy.crawler import Crawler

__all__ = ["SEED_ORIGIN", "AddressGuard", "AddressRefused"]

logger = logging.getLogger(__name__)

#: Request meta key: the exact origin (:func:`crawler.scope.host_origin`) of the seed request.
SEED_ORIGIN = "newscrawl_seed_origin"
#: Seed origins remembered per worker (a crawl has a few hundred seeds; the bound keeps a queue of
#: forged metas from growing the set without limit).
MAX_SEED_ORIGINS = 100_000


class AddressRefused(IgnoreRequest):
    """The request's address is outside the crawl's scope; ``reason`` says why in one slug."""

    def __init__(self, url: str, reason: str, address: str | None = None) -> None:
        super().__init__(f"refused {url}: {reason}" + (f" ({address})" if address else ""))
        self.reason = reason


class AddressGuard:
    """The downloader middleware of the module docstring."""

    def __init__(self, crawler: Crawler, allowed_networks: list[str]) -> None:
        self.crawler = crawler
        self.allowed = parse_networks(allowed_networks)
        self.seed_origins: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler, crawler.settings.getlist("NEWSCRAWL_ALLOWED_NETWORKS"))

    async def process_request(self, request: Request) -> None:
        seed = request.meta.get(SEED_ORIGIN)
        if isinstance(seed, str) and len(self.seed_origins) < MAX_SEED_ORIGINS:
            self.seed_origins.add(seed)
        parts = urlsplit(request.url)
        if parts.scheme.lower() not in FETCHABLE_SCHEMES:
            self._refuse(request, "scheme")
        host = parts.hostname
        if not host:
            self._refuse(request, "no_host")
        address = await self._address(host)
        reason = refusal(address, self.allowed)
        if reason is not None and host_origin(request.url) not in self.seed_origins:
            self._refuse(request, reason, str(address))

    async def _address(self, host: str):  # noqa: ANN202 (an ipaddress address)
        try:
            return ip_address(host)
        except ValueError:
            pass
        from twisted.internet import reactor  # the running reactor, installed by Scrapy

        return ip_address(await maybe_deferred_to_future(reactor.resolve(host)))

    def _refuse(self, request: Request, reason: str, address: str | None = None) -> None:
        self.crawler.stats.inc_value(f"newscrawl/refused/{reason}")
        logger.info("refused %s: %s%s", request.url, reason, f" ({address})" if address else "")
        raise AddressRefused(request.url, reason, address)
