"""The shared per-site slots of a distributed crawl, as both the lease and the politeness take them.

A site's slots are the members of ``newscrawl:polite:<site>:active`` (a sorted set scored by each
slot's expiry; :mod:`crawler.downloadermiddlewares.politeness` has the rules). Two places take one:

- the lease (:meth:`crawler.scheduling.leases.LeaseQueue.lease`) *reserves* a slot of the site of
  the request it hands out, and skips the requests of sites whose slots are all taken or whose
  delay has not passed: a worker no longer holds one of its ``CONCURRENT_REQUESTS`` waiting for a
  full site while the queue holds requests for other sites (the head-of-line wait: on the crawl
  bench, 45-54 waits a worker in a two-worker run);
- the politeness middleware, when the request reaches it, *confirms* the reservation (the slot is
  then held for the download, ``DOWNLOAD_TIMEOUT`` + 10 s, and the site's delay starts), or takes
  a slot as before for a request that has none (a robots.txt, a sibling fetch, a request leased
  from an entry whose site the queue does not know).

A reservation lives :data:`RESERVE_S` in Redis, so one whose request never reaches the middleware
(a worker killed, a request dropped on the way) frees itself; the middleware also gives back
the reservation of a request dropped before it (``process_exception``). A request that reaches
the middleware without a reservation of its own first takes over one this worker holds for the
same site and has not used yet (:class:`Reservations`): the robots.txt that the robots middleware
fetches before the reserved requests may go would otherwise wait for their reservations to lapse.

Fair between workers: a slot's token is ``<worker>:<uuid>`` (:attr:`Reservations.worker`), so
the lease can count a site's slots by worker. A lease that hands out nothing (every site near the
queue's head full, or its delay running) notes its worker as refused for each of those sites in
``<PREFIX>:<site>:refused`` (worker -> Redis-time deadline, :data:`REFUSAL_POLLS` of that worker's
poll intervals ahead). A later lease by another worker passes over a site with a free slot while a
worker noted there, within its deadline, holds fewer of the site's slots than the leasing worker:
the slot stays for the refused worker's next poll. Without it the worker whose download just ended
asks at once and retakes the slot it freed, while the refused worker asks only at its poll (0.2 s):
on one fast site with two slots the first worker kept both for the whole crawl
(``tests/crawler/test_distributed.py::test_two_workers_share_one_crawl``, 1 run in 2, the lease of
the reverted ``crawl22`` merge). Only a lease that got nothing is noted: a worker that got another
site's request is working, and noting it would leave slots idle on a crawl of many sites.

The queue entry's site: the lease script reads the entry's URL prefix (``scheme://netloc``, the
start of the JSON our serializer writes, :data:`URL_PREFIX_LUA` / :data:`URL_PREFIX_RE`) and looks
it up in the hash :data:`SITES_HASH` (prefix → "``concurrency site``"), which the push
writes; an entry whose prefix is unknown (pushed by an older worker, or not by us) is leased
as before, without a reservation, and its request takes its slot in the middleware.
"""

from __future__ import annotations

import re
import time
import uuid
from typing import TYPE_CHECKING, Any

from pipelines.redis_conn.clients import per_crawler

if TYPE_CHECKING:
    from collections.abc import Callable

    from scrapy.crawler import Crawler

__all__ = [
    "FAIR_SLOTS", "PREFIX", "REFUSAL_POLLS", "RESERVE_S", "SITES_HASH", "TAKE_SLOT",
    "URL_PREFIX_LUA", "URL_PREFIX_RE", "Reservations", "give_back", "reservations", "refusal_ms",
    "site_pace", "slot_keys", "url_prefix",
]

PREFIX = "newscrawl:polite"
#: Hash: a URL's ``scheme://netloc`` as the queue entry spells it → "``concurrency site``".
SITES_HASH = f"{PREFIX}:sites"
#: How long a slot reserved by the lease waits for its request to reach the politeness middleware
#: (seconds). A leased request reaches it within milliseconds, or after this worker's robots.txt
#: fetch of the site (which takes the reservation over); a reservation whose request was dropped
#: or whose worker died holds the site's slot this long, against ``DOWNLOAD_TIMEOUT`` + 10 s
#: (190 s) for a slot taken by a download.
RESERVE_S = 5.0
#: How long a worker stays noted as refused for a site after a lease that handed it nothing, in
#: its own poll intervals (``NEWSCRAWL_QUEUE_POLL_INTERVAL``): its next poll comes one interval
#: later, but a loaded machine's reactor can be late by as much again, and a note that lapses
#: before the poll lets the holder retake the slot. Three: a slot passed over for a worker that
#: stopped asking (its engine filled with other sites' requests) idles at most 0.6 s at the 0.2 s
#: default.
REFUSAL_POLLS = 3
#: Refusal notes are kept at least this long (ms), for workers that poll seldom or never (a poll
#: interval of 0 asks again only at Scrapy's 5 s heartbeat, or when a download ends).
MIN_REFUSAL_MS = 200
#: The start of a queue entry: ``{"url":"<scheme>://<netloc>`` (``Request.to_dict`` puts the URL
#: first; :mod:`crawler.serializers.json_request` writes compact JSON). The Lua pattern and the
#: regular expression read the same prefix (``tests/crawler/test_site_slots.py`` checks both).
URL_PREFIX_LUA = '^{"url":"(%a[%w+.-]*://[^/?#"]*)'
URL_PREFIX_RE = re.compile(rb'\{"url":"([A-Za-z][A-Za-z0-9+.-]*://[^/?#"]*)')

#: Lua functions of both scripts: ``slot_wait(active, next, concurrency, now)``: 0 if a slot of
#: the site is free and its delay has passed, -1 while every slot is taken, else the ms until the
#: delay has passed (expired slots dropped first); ``hold_slot(active, token, hold_ms, key_ms,
#: now)``: the slot ``token`` held until now + ``hold_ms`` (the key kept at least ``key_ms``);
#: ``start_delay(next, site, delay_ms, now)``: the site's next start no sooner than the larger of
#: ``delay_ms`` and its robots.txt ``Crawl-delay`` (``<PREFIX>:crawl_delay``) from now.
TAKE_SLOT = """
local function slot_wait(active, nextkey, concurrency, now)
  redis.call('ZREMRANGEBYSCORE', active, '-inf', now)
  if redis.call('ZCARD', active) >= concurrency then return -1 end
  local next_at = tonumber(redis.call('GET', nextkey) or '0')
  if now < next_at then return next_at - now end
  return 0
end
local function start_delay(nextkey, site, delay_ms, now)
  local robots = tonumber(redis.call('HGET', '%(prefix)s:crawl_delay', site) or '0')
  local delay = math.max(delay_ms, robots)
  if delay > 0 then redis.call('SET', nextkey, now + delay, 'PX', math.floor(delay) + 1000) end
end
local function hold_slot(active, token, hold_ms, key_ms, now)
  redis.call('ZADD', active, now + hold_ms, token)
  if redis.call('PTTL', active) < key_ms then redis.call('PEXPIRE', active, key_ms) end
end
""" % {"prefix": PREFIX}

#: Lua functions of the lease (after :data:`TAKE_SLOT`): ``passes_over(active, refused, worker,
#: now)``: true while a worker noted in the hash ``refused`` (worker -> deadline ms) until after
#: ``now`` holds fewer of the site's slots (tokens ``<worker>:...`` in ``active``, expired ones
#: already dropped by ``slot_wait``) than ``worker``; ``worker``'s own note is dropped (it is
#: being served). ``note_refused(refused, worker, deadline)``: the note a lease that handed out
#: nothing leaves for each site it found full.
FAIR_SLOTS = """
local function passes_over(active, refused, worker, now)
  local notes = redis.call('HGETALL', refused)
  if #notes == 0 then return false end
  local held, waiting = {}, {}
  for i = 1, #notes, 2 do
    if notes[i] == worker then
      redis.call('HDEL', refused, worker)
    elseif tonumber(notes[i + 1]) > now then
      waiting[#waiting + 1] = notes[i]
    end
  end
  if #waiting == 0 then return false end
  for _, token in ipairs(redis.call('ZRANGE', active, 0, -1)) do
    local owner = string.match(token, '^([^:]+):')
    if owner then held[owner] = (held[owner] or 0) + 1 end
  end
  local mine = held[worker] or 0
  for _, other in ipairs(waiting) do
    if (held[other] or 0) < mine then return true end
  end
  return false
end
local function note_refused(refused, worker, deadline, now)
  redis.call('HSET', refused, worker, deadline)
  redis.call('PEXPIRE', refused, deadline - now + 1000)
end
"""


def slot_keys(site: str) -> tuple[str, str]:
    """The Redis keys of ``site``'s slots and of its next allowed start."""
    return f"{PREFIX}:{site}:active", f"{PREFIX}:{site}:next"


def url_prefix(member: bytes | str) -> str | None:
    """The ``scheme://netloc`` a queue entry starts with (what the lease script reads), or None."""
    raw = member.encode("utf-8") if isinstance(member, str) else member
    found = URL_PREFIX_RE.match(raw)
    return found.group(1).decode("utf-8") if found else None


def site_pace(sites: Any, url: str, concurrency: int, delay_ms: int) -> tuple[int, int]:
    """(requests in flight, ms between starts) for the site of ``url``: its sites-file entry's
    (``sites``: a :class:`crawler.sites.SiteBook`), else the crawl's defaults."""
    rules = sites.get(url)
    if rules and rules.concurrency:
        concurrency = rules.concurrency
    if rules and rules.delay is not None:
        delay_ms = int(rules.delay * 1000)
    return concurrency, delay_ms


class Reservations:
    """The slots this worker's leases reserved and its requests have not confirmed yet, by site.

    The scheduler adds one per request leased with a reservation; the politeness middleware claims
    the request's own, or takes over another of the site's for a request that came without one."""

    def __init__(self) -> None:
        #: This worker's id, the first part of every slot token it takes (``<worker>:<uuid>``): the
        #: lease counts a site's slots by worker with it (no ``:`` inside).
        self.worker = uuid.uuid4().hex[:16]
        self.by_site: dict[str, dict[str, float]] = {}  # site -> token -> monotonic deadline
        #: Set by the politeness middleware (without it no request would confirm a reservation):
        #: a URL's (concurrency, delay ms), :func:`site_pace` with the worker's sites and defaults.
        self.pace: Callable[[str], tuple[int, int]] | None = None
        #: How long a download holds its slot (ms), set with ``pace``.
        self.slot_ms = 0

    def token(self) -> str:
        """A new slot token of this worker."""
        return f"{self.worker}:{uuid.uuid4().hex}"

    def add(self, site: str, token: str) -> None:
        now = time.monotonic()
        tokens = self.by_site.setdefault(site, {})
        if len(tokens) >= 16:  # requests dropped on the way left theirs: forget the lapsed ones
            for lapsed in [t for t, deadline in tokens.items() if deadline <= now]:
                del tokens[lapsed]
        tokens[token] = now + RESERVE_S

    def claim(self, site: str, token: str) -> bool:
        """Whether ``token`` was still this worker's unused reservation of ``site`` (now used)."""
        tokens = self.by_site.get(site)
        deadline = tokens.pop(token, None) if tokens else None
        self._forget_if_empty(site)
        return deadline is not None and deadline > time.monotonic()

    def take_over(self, site: str) -> str | None:
        """One unused, unexpired reservation of ``site`` (now this caller's), or None."""
        tokens = self.by_site.get(site)
        now = time.monotonic()
        while tokens:
            token, deadline = tokens.popitem()
            if deadline > now:
                self._forget_if_empty(site)
                return token
        self._forget_if_empty(site)
        return None

    def _forget_if_empty(self, site: str) -> None:
        if site in self.by_site and not self.by_site[site]:
            del self.by_site[site]


def give_back(link: Any, held: Reservations, site: str, token: str) -> None:
    """Give back a slot of ``site`` that ``held`` still counts as this worker's unused reservation
    (its request will not be fetched); ``link``: the crawl's :class:`RedisLink`."""
    if site and held.claim(site, token):
        active = slot_keys(site)[0]
        link.query(lambda client: client.zrem(active, token), None)


def refusal_ms(poll_s: float) -> int:
    """How long a lease that handed out nothing notes its worker as refused (ms), for a worker
    that asks the queue again every ``poll_s`` seconds."""
    return max(int(REFUSAL_POLLS * poll_s * 1000), MIN_REFUSAL_MS)


def reservations(crawler: Crawler) -> Reservations:
    """The reservations of ``crawler`` (one per worker, shared by its scheduler and middleware)."""
    return per_crawler(crawler, "polite_reservations", Reservations)
