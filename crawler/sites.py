"""The sites file: the sites a scheduled crawl visits, each with its own seeds, limits and pace.

TOML (read with the standard library's ``tomllib``), one ``[[site]]`` table per site::

    [[site]]
    name = "example"                              # optional; the first seed's host by default
    seeds = ["https://www.example.com/"]          # fronts: fetched again each round
    sitemaps = ["https://www.example.com/news-sitemap.xml"]   # read each round (crawler/sources.py)
    feeds = ["https://www.example.com/rss"]                   # idem
    every = 1800            # seconds between this site's rounds (default: the crawl's --every)
    depth = 2               # link depth from the seeds (default: the crawl's --depth)
    max_pages = 500         # pages requested per round, seeds included (default: no limit)
    allow = ["/news/", "/world/"]   # only links under these path prefixes are followed
    concurrency = 2         # requests in flight at once (default NEWSCRAWL_SITE_CONCURRENCY)
    delay = 1.0             # seconds between request starts (default NEWSCRAWL_SITE_DELAY)

A site is the scheme, host (``www.`` ignored) and port of its first seed, as for link following
(:func:`crawler.scope.site_origin`); every seed, sitemap and feed of a table must be on it. A file
that breaks a rule is refused as a whole, with the site and the key named (:class:`SitesError`).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from crawler.scope import site_origin

__all__ = ["SITES_KEY", "Site", "SiteBook", "SitesError", "load_sites", "parse_sites"]

_KEYS = {"name", "seeds", "sitemaps", "feeds", "every", "depth", "max_pages", "allow",
         "concurrency", "delay"}  # fmt: skip
#: Largest sites file read (a file of 10 000 sites is about 3 MB).
MAX_FILE_BYTES = 16_000_000


class SitesError(ValueError):
    """A sites file that cannot be used; the message names the file, the site and the key."""


@dataclass(slots=True)
class Site:
    name: str
    origin: str  # scheme://host:port (crawler.scope.site_origin)
    seeds: list[str] = field(default_factory=list)
    sitemaps: list[str] = field(default_factory=list)
    feeds: list[str] = field(default_factory=list)
    every: float | None = None
    depth: int | None = None
    max_pages: int | None = None
    allow: list[str] = field(default_factory=list)
    concurrency: int | None = None
    delay: float | None = None

    @property
    def start_urls(self) -> list[str]:
        """What a round fetches first: seeds, sitemaps, feeds."""
        return [*self.seeds, *self.sitemaps, *self.feeds]

    def allows(self, url: str) -> bool:
        """Whether a link of this site is followed (under an ``allow`` prefix, when any)."""
        path = urlsplit(url).path or "/"
        return not self.allow or any(path.startswith(prefix) for prefix in self.allow)

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


def load_sites(path: str | Path) -> list[Site]:
    """The sites of file ``path``; :class:`SitesError` naming what is wrong."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise SitesError(f"cannot read sites file {path}: {error.strerror or error}") from error
    if len(data) > MAX_FILE_BYTES:
        raise SitesError(f"sites file {path} is over {MAX_FILE_BYTES} bytes")
    try:
        return parse_sites(tomllib.loads(data.decode("utf-8")))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise SitesError(f"sites file {path}: not TOML: {error}") from error
    except SitesError as error:
        raise SitesError(f"sites file {path}: {error}") from error


def parse_sites(document: dict[str, Any]) -> list[Site]:
    """Sites from a parsed sites document.

    >>> [s.origin for s in parse_sites({"site": [{"seeds": ["https://www.a.org/"], "depth": 1}]})]
    ['https://a.org:443']
    >>> try:
    ...     parse_sites({"site": [{"seeds": ["https://a.org/"], "dept": 1}]})
    ... except SitesError as error:
    ...     print(str(error)[:40])
    site 1 (a.org): unknown key 'dept' (know
    """
    tables = document.get("site")
    if not isinstance(tables, list) or not tables:
        raise SitesError("no [[site]] tables")
    unknown_top = set(document) - {"site"}
    if unknown_top:
        raise SitesError(f"unknown top-level key {sorted(unknown_top)[0]!r} (only [[site]])")
    sites, names = [], set()
    for number, table in enumerate(tables, 1):
        site = _site(number, table)
        if site.name in names:
            raise SitesError(f"site {number}: name {site.name!r} used twice")
        names.add(site.name)
        sites.append(site)
    return sites


def _site(number: int, table: Any) -> Site:
    if not isinstance(table, dict):
        raise SitesError(f"site {number}: not a table")
    urls = {key: table.get(key, []) for key in ("seeds", "sitemaps", "feeds")}
    first = next((u for key in urls for u in (urls[key] if isinstance(urls[key], list) else [])
                  if isinstance(u, str)), None)  # fmt: skip
    label = f"site {number}" + (f" ({urlsplit(first).hostname})" if first else "")

    def fail(text: str) -> SitesError:
        return SitesError(f"{label}: {text}")

    unknown = set(table) - _KEYS
    if unknown:
        raise fail(f"unknown key {sorted(unknown)[0]!r} (known: {', '.join(sorted(_KEYS))})")
    if first is None:
        raise fail("no seeds, sitemaps or feeds")
    from crawler.commands import seed_problem

    origin = site_origin(first)
    for key, values in urls.items():
        if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
            raise fail(f"{key} must be a list of URLs")
        for url in values:
            problem = seed_problem(url)
            if problem:
                raise fail(f"{key}: {url!r}: {problem}")
            if site_origin(url) != origin:
                raise fail(f"{key}: {url!r} is not on the site {origin} (one site per table)")
    site = Site(str(table.get("name") or urlsplit(first).hostname), origin, **urls)
    for key, kind, low in (("every", float, 0.0), ("depth", int, 0), ("max_pages", int, 1),
                           ("concurrency", int, 1), ("delay", float, 0.0)):  # fmt: skip
        if key in table:
            value = table[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                    kind is int and not isinstance(value, int)) or value < low:  # fmt: skip
                raise fail(f"{key} must be {'an integer' if kind is int else 'a number'} >= {low}")
            setattr(site, key, kind(value))
    allow = table.get("allow", [])
    if not isinstance(allow, list) or not all(isinstance(p, str) and p.startswith("/")
                                              for p in allow):  # fmt: skip
        raise fail("allow must be a list of path prefixes starting with /")
    site.allow = allow
    return site


#: Redis hash of the sites of a distributed crawl (origin → the site as JSON), written by
#: ``newscrawl seed --sites``, read by every worker.
SITES_KEY = "newscrawl:sites"
#: A worker reads the shared sites again after this many seconds.
REFRESH_S = 60.0
MAX_SITE_BYTES = 100_000


class SiteBook:
    """The sites of a crawl by origin: from the sites file (embedded) or from Redis (distributed,
    re-read every ``REFRESH_S``; a bad entry is skipped and counted)."""

    def __init__(self, sites: list[Site] | None = None, link: Any = None, crawler: Any = None,
                 link_factory: Any = None) -> None:  # fmt: skip
        self.by_origin = {site.origin: site for site in sites or []}
        self.link, self.crawler = link, crawler
        #: builds the link on first use (a spider is made before the crawl's stats exist, which
        #: the link needs when it replays a journal of held writes)
        self.link_factory = link_factory
        self._read_at = -REFRESH_S

    def get(self, url: str) -> Site | None:
        if self.link is None and self.link_factory is not None:
            self.link = self.link_factory()
        if self.link is not None:
            self._refresh()
        return self.by_origin.get(site_origin(url)) if self.by_origin else None

    def _refresh(self) -> None:
        import time

        from pipelines.untrusted import UntrustedData, load_json

        now = time.monotonic()
        if now - self._read_at < REFRESH_S:
            return
        self._read_at = now
        stored = self.link.query(lambda client: client.hgetall(SITES_KEY), None)
        if stored is None:  # Redis away: keep what we had
            return
        sites = {}
        for origin, value in stored.items():
            try:
                data = load_json(value, max_bytes=MAX_SITE_BYTES, max_depth=3)
                site = _site(0, {k: v for k, v in data.items() if k in _KEYS})
            except (UntrustedData, SitesError, AttributeError, TypeError):
                if self.crawler is not None:
                    self.crawler.stats.inc_value("newscrawl/rejected/site_entry")
                continue
            sites[site.origin] = site
        self.by_origin = sites


def store_sites(client: Any, sites: list[Site]) -> None:
    """Put ``sites`` in Redis for the workers (:data:`SITES_KEY`), replacing what was there."""
    import json

    with client.pipeline() as pipe:
        pipe.delete(SITES_KEY)
        for site in sites:
            data = {k: v for k, v in site.to_dict().items() if k in _KEYS and v not in (None, [])}
            pipe.hset(SITES_KEY, site.origin, json.dumps(data))
        pipe.execute()
