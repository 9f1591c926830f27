"""The service's ``--allow-fetch``: fetch a page by URL, never from a private network (no SSRF).

The connector's resolver resolves the host, judges every address with :func:`crawler.scope.refusal`
(the crawl's own rule: loopback, private, link-local, multicast, reserved and other non-global
addresses are refused) and hands aiohttp only the addresses it checked, so the connection goes to
an address that was judged, on the first request and on every redirect (DNS rebinding cannot slip
another address in between). The body is read up to the service's size limit.
"""

from __future__ import annotations

import socket
from ipaddress import ip_address
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from crawler.scope import FETCHABLE_SCHEMES, refusal

__all__ = ["FetchRefused", "fetch_page"]

#: Redirects followed at most.
MAX_REDIRECTS = 5


class FetchRefused(Exception):
    """The URL may not be fetched, or its fetch failed; ``reason`` is a slug."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


class GuardedResolver(AbstractResolver):
    """aiohttp's default resolver, every answer judged by :func:`crawler.scope.refusal`."""

    def __init__(self) -> None:
        self._inner = aiohttp.ThreadedResolver()

    async def resolve(self, host: str, port: int = 0,
                      family: socket.AddressFamily = socket.AF_INET) -> list[ResolveResult]:
        found = await self._inner.resolve(host, port, family)
        for entry in found:
            why = refusal(ip_address(entry["host"]))
            if why is not None:
                raise FetchRefused(why, f"{host} resolves to {entry['host']}")
        return found

    async def close(self) -> None:
        await self._inner.close()


def check_url(url: str) -> None:
    """Refuse a URL of another scheme, or whose host is an address literal that may not be
    reached (aiohttp connects to a literal without asking the resolver)."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in FETCHABLE_SCHEMES or not parts.hostname:
        raise FetchRefused("scheme", url)
    try:
        literal = ip_address(parts.hostname)
    except ValueError:
        return  # a name: the resolver judges its addresses
    why = refusal(literal)
    if why is not None:
        raise FetchRefused(why, parts.hostname)


async def fetch_page(url: str, max_bytes: int, timeout: float) -> str:
    """The text of ``url`` (decoded as the response says, else UTF-8 with replacement); redirects
    are followed here, each target checked like the first URL."""
    connector = aiohttp.TCPConnector(resolver=GuardedResolver(), use_dns_cache=False)
    client_timeout = aiohttp.ClientTimeout(total=timeout)
    try:
        async with aiohttp.ClientSession(connector=connector, timeout=client_timeout,
                                         trust_env=False) as session:
            for _hop in range(MAX_REDIRECTS + 1):
                check_url(url)
                async with session.get(url, allow_redirects=False) as response:
                    if response.status in (301, 302, 303, 307, 308) and \
                            response.headers.get("Location"):
                        url = str(response.url.join(aiohttp.helpers.URL(
                            response.headers["Location"])))
                        continue
                    if response.status >= 400:
                        raise FetchRefused("http_status", str(response.status))
                    body = await response.content.read(max_bytes + 1)
                    if len(body) > max_bytes:
                        raise FetchRefused("too_large", f"over {max_bytes} bytes")
                    return body.decode(response.charset or "utf-8", errors="replace")
            raise FetchRefused("redirects", f"more than {MAX_REDIRECTS}")
    except FetchRefused:
        raise
    except aiohttp.ClientConnectorError as error:  # our resolver's refusal arrives wrapped
        cause = error.__cause__ or error.os_error
        if isinstance(cause, FetchRefused):
            raise cause from None
        raise FetchRefused("connect", str(error)) from None
    except (aiohttp.ClientError, TimeoutError, LookupError, UnicodeError) as error:
        raise FetchRefused("fetch", type(error).__name__) from None
