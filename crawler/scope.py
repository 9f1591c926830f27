"""Crawl scope: which site a URL belongs to, and which network addresses the crawl may fetch.

**Same site** (links followed from a page): the same scheme, host (lower-cased, without ``www.``)
and port (the scheme's default when absent): ``http://a.org/x`` and ``http://www.a.org:80/y`` are
one site; ``https://a.org/``, ``http://a.org:8080/`` and ``http://b.a.org/`` are three others.

>>> site_origin("http://WWW.a.org/x?q=1"), site_origin("https://a.org:8443/")
('http://a.org:80', 'https://a.org:8443')

**Addresses** (the SSRF rule, enforced by :class:`crawler.downloadermiddlewares.address_guard.
AddressGuard` on every request, redirect and meta refresh, after DNS resolution): an address that is
not globally routable (loopback, private, link-local, shared/CGNAT, multicast, unspecified,
reserved, IPv4 embedded in IPv6 included) is refused, unless it lies in an allowed network
(``NEWSCRAWL_ALLOWED_NETWORKS``) or the request's exact scheme, host and port are those of a seed
(:func:`host_origin`): a crawl seeded with ``http://127.0.0.1:8000/`` fetches that host and port,
and nothing else on that address.

>>> from ipaddress import ip_address
>>> [refusal(ip_address(a)) for a in ("93.184.216.34", "127.0.0.1", "10.1.2.3", "169.254.169.254")]
[None, 'loopback', 'private', 'link_local']
>>> refusal(ip_address("::ffff:127.0.0.1")), refusal(ip_address("0.0.0.0"))
('loopback', 'unspecified')
>>> refusal(ip_address("10.1.2.3"), parse_networks(["10.0.0.0/8"])) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import IPv4Address, IPv6Address, IPv4Network, IPv6Network, ip_network
from urllib.parse import urlsplit

__all__ = [
    "FETCHABLE_SCHEMES",
    "host_origin",
    "parse_networks",
    "refusal",
    "site_origin",
]

#: URL schemes the crawl fetches (``file:``, ``ftp:``, ``s3:``, ``data:`` never: a link or a
#: redirect to ``file:///etc/passwd`` is refused with the reason ``scheme``).
FETCHABLE_SCHEMES = ("http", "https")
_DEFAULT_PORTS = {"http": 80, "https": 443}

Network = IPv4Network | IPv6Network
Address = IPv4Address | IPv6Address


def _port(parts) -> int | None:  # noqa: ANN001 (a SplitResult)
    try:
        return parts.port or _DEFAULT_PORTS.get(parts.scheme.lower())
    except ValueError:  # a port out of range or not a number
        return None


def site_origin(url: str) -> str:
    """The site of ``url`` for link following: ``scheme://host:port``, host without ``www.``."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower().removeprefix("www.")
    return f"{parts.scheme.lower()}://{host}:{_port(parts)}"


def host_origin(url: str) -> str:
    """The exact origin of ``url`` for the seed exception: ``scheme://host:port``, host as given
    (lower-cased), so ``localhost`` and ``127.0.0.1`` are different origins.

    >>> host_origin("http://127.0.0.1:8000/a"), host_origin("http://localhost:8000/a")
    ('http://127.0.0.1:8000', 'http://localhost:8000')
    """
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{(parts.hostname or '').lower()}:{_port(parts)}"


def parse_networks(values: Iterable[str]) -> list[Network]:
    """Networks from CIDR strings (``10.0.0.0/8``, ``fd00::/8``, ``192.168.1.5``); ValueError
    naming a bad one."""
    networks = []
    for value in values:
        try:
            networks.append(ip_network(value.strip(), strict=False))
        except ValueError as error:
            raise ValueError(f"NEWSCRAWL_ALLOWED_NETWORKS: {value!r} is not a network") from error
    return networks


def refusal(address: Address, allowed: Iterable[Network] = ()) -> str | None:
    """Why the crawl must not connect to ``address`` (a reason slug), or None when it may."""
    if isinstance(address, IPv6Address):
        embedded = address.ipv4_mapped or address.sixtofour
        if embedded is not None:
            address = embedded
    if any(address in network for network in allowed if network.version == address.version):
        return None
    for reason, test in (
        ("unspecified", address.is_unspecified),
        ("loopback", address.is_loopback),
        ("link_local", address.is_link_local),
        ("multicast", address.is_multicast),
        ("private", address.is_private),
        ("reserved", address.is_reserved),
    ):
        if test:
            return reason
    return None if address.is_global else "not_global"
