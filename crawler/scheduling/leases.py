"""LeaseQueue: the shared request queue in Redis, where a request taken is leased, not popped.

The reliable-queue pattern of Redis (an entry moved atomically to a "processing" structure and
removed only when acknowledged), with the lease deadlines in a sorted set so that any worker can
find the expired ones. Keys (``%(spider)s`` filled in by the scheduler):

- ``queue``: sorted set of serialised requests, score ``-priority`` (scrapy-redis's
  ``PriorityQueue`` layout, so its tools and ours read it alike);
- ``dupefilter:g<generation>:<bucket>``: the articles seen within the refetch age, 64-bit
  fingerprints (intsets) in :data:`~crawler.scheduling.seen.SEEN_BUCKETS` sets per generation,
  expiring with it (:mod:`crawler.scheduling.seen`; ``dupefilter:<bucket>``, with no refetch age:
  the same, for good); the push script builds these names (they are not declared ``KEYS``: no
  Redis Cluster);
  ``dupefilter:fronts:<round>``: a round's fronts (expiring); ``dupefilter`` itself: the seen set
  of the older format (scrapy-redis's ``RFPDupeFilter`` key and format), read, never written;
- ``leases``: sorted set of the requests taken, score = lease deadline in ms of Redis's clock;
- ``lease_scores``: hash request → its queue score, to put it back at its priority;
- ``redelivered``: set of the requests put back after a lease of theirs expired or was released
  (their page may already be in the stream), until acknowledged.

Every step is one Lua script, so a worker killed at any point leaves each request either queued or
leased, never neither:

- :meth:`push`: SADD the fingerprint and ZADD the request in one step (scrapy-redis does them in two
  calls: a crash between them lost the request for good), unless the older set has it;
- :meth:`lease`: move the first request from ``queue`` to ``leases`` with deadline now + lease,
  saying whether it is a redelivery; :meth:`lease_polite`: the same for the first request, among
  the first :data:`LEASE_WINDOW`, whose site has a free shared slot, which it reserves, fair
  between workers
  (:mod:`crawler.scheduling.slots`; sites are known by the ``newscrawl:polite:sites`` hash that
  :meth:`push` keeps);
- :meth:`ack`: remove the lease (the request is done); :meth:`renew`: push deadlines forward;
- :meth:`reap`: move expired leases back to ``queue`` (run by every live worker);
- :meth:`release`: move given leases back at once (a worker closing with work unfinished).

Deadlines use Redis's ``TIME``, so workers' clocks need not agree. Scripts are replicated by effect
(the default since Redis 5), which ``TIME`` followed by writes needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from crawler.scheduling.slots import (
    FAIR_SLOTS, PREFIX, SITES_HASH, TAKE_SLOT, URL_PREFIX_LUA,
)
from crawler.scheduling.seen import (
    FRONTS_TTL_S, GENERATIONS, REFETCH_AFTER_DAYS, from_hex, generation_seconds, seen_bucket,
    signed64,
)

if TYPE_CHECKING:
    import redis

__all__ = ["LEASE_WINDOW", "LeaseKeys", "LeaseQueue", "Leased", "Refused"]

_NOW_MS = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""

_PUSH = """
if ARGV[3] ~= '' then
  if ARGV[6] == 'front' then
    if redis.call('SADD', KEYS[2], ARGV[3]) == 0 then return 0 end
    redis.call('PEXPIRE', KEYS[2], ARGV[5])
  else
    if ARGV[4] ~= '' and redis.call('SISMEMBER', KEYS[3], ARGV[4]) == 1 then return 0 end
    if redis.call('SISMEMBER', KEYS[2], ARGV[3]) == 1 then return 0 end
    local gen_ms = tonumber(ARGV[5])
    if gen_ms == 0 then
      redis.call('SADD', KEYS[2], ARGV[3])
    else
      local t = redis.call('TIME')
      local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
      local g = math.floor(now / gen_ms)
      local generations = tonumber(ARGV[9])
      for i = 0, generations do
        local key = ARGV[7] .. string.format('%d', g - i) .. ':' .. ARGV[8]
        if redis.call('SISMEMBER', key, ARGV[3]) == 1 then return 0 end
      end
      local key = ARGV[7] .. string.format('%d', g) .. ':' .. ARGV[8]
      redis.call('SADD', key, ARGV[3])
      redis.call('PEXPIREAT', key, string.format('%d', (g + 1 + generations) * gen_ms))
    end
  end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if ARGV[10] ~= '' and redis.call('HGET', KEYS[4], ARGV[10]) ~= ARGV[11] then
  redis.call('HSET', KEYS[4], ARGV[10], ARGV[11])
end
return 1
"""

# ARGV: lease ms, window, token ("": no politeness, the first entry), reserve ms, slots key ms,
# worker, refusal note ms. A site is passed over when its slots are full or its delay runs, and
# when a worker refused there holds fewer of its slots than this one (FAIR_SLOTS); a lease that
# hands out nothing notes its worker as refused for the sites it found full or running a delay.
_LEASE = _NOW_MS + TAKE_SLOT + FAIR_SLOTS + """
local window = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
if #window == 0 then return false end
local pick, site, full, refused, yielded = nil, '', {}, {}, 0
if ARGV[3] == '' then pick = 1 end
for i = 1, #window, 2 do
  if pick then break end
  local prefix = string.match(window[i], '""" + URL_PREFIX_LUA + """')
  local info = prefix and redis.call('HGET', KEYS[5], prefix)
  local concurrency, entry_site = nil, nil
  if info then concurrency, entry_site = string.match(info, '^(%d+) (.+)$') end
  if not entry_site then
    pick = i
  elseif not full[entry_site] then
    local keys = '""" + PREFIX + """:' .. entry_site
    local active = keys .. ':active'
    full[entry_site] = true
    if slot_wait(active, keys .. ':next', tonumber(concurrency), now) ~= 0 then
      refused[#refused + 1] = keys .. ':refused'
    elseif passes_over(active, keys .. ':refused', ARGV[6], now) then
      yielded = yielded + 1
    else
      hold_slot(active, ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), now)
      pick, site = i, entry_site
    end
  end
end
if not pick then
  for _, key in ipairs(refused) do note_refused(key, ARGV[6], now + tonumber(ARGV[7]), now) end
  return {#window / 2, yielded}
end
local member, score = window[pick], window[pick + 1]
redis.call('ZREM', KEYS[1], member)
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), member)
redis.call('HSET', KEYS[3], member, score)
return {member, score, redis.call('SISMEMBER', KEYS[4], member), site, (pick - 1) / 2, yielded}
"""

_ACK = """
local n = 0
for i = 1, #ARGV do
  n = n + redis.call('ZREM', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i])
  redis.call('SREM', KEYS[3], ARGV[i])
end
return n
"""

_RENEW = _NOW_MS + """
local n = 0
for i = 2, #ARGV do
  n = n + redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[i])
end
return n
"""

_REQUEUE = """
local function requeue(member)
  if redis.call('ZREM', KEYS[2], member) == 0 then return 0 end
  local score = redis.call('HGET', KEYS[3], member) or '0'
  redis.call('HDEL', KEYS[3], member)
  redis.call('ZADD', KEYS[1], score, member)
  redis.call('SADD', KEYS[4], member)
  return 1
end
"""

_REAP = _NOW_MS + _REQUEUE + """
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
local n = 0
for _, member in ipairs(expired) do n = n + requeue(member) end
return n
"""

_RELEASE = _REQUEUE + """
local n = 0
for i = 1, #ARGV do n = n + requeue(ARGV[i]) end
return n
"""

#: Most expired leases one :meth:`LeaseQueue.reap` call moves back (a bounded script run).
REAP_BATCH = 500
#: Queue entries :meth:`LeaseQueue.lease_polite` looks at for one whose site has a free slot (a
#: bounded script run). The scheduler's scores already interleave the sites within a priority
#: (:meth:`crawler.scheduling.scheduler.SharedQueueScheduler._score`), so the first entries span
#: many sites: the crawl bench's queue (8 sites) has every site within its first 16.
LEASE_WINDOW = 64


class Leased(NamedTuple):
    """A request :meth:`LeaseQueue.lease_polite` handed out."""

    member: bytes
    score: float
    redelivered: bool
    site: str  # the site whose slot it reserved ("" for none)
    skipped: int  # entries before it whose sites were full
    yielded: int  # sites passed over for a worker refused there that holds fewer of their slots


class Refused(NamedTuple):
    """What :meth:`LeaseQueue.lease_polite` looked at when it handed out nothing."""

    looked: int  # queue entries
    yielded: int  # sites with a free slot passed over for a refused worker


class LeaseKeys:
    """The five Redis keys of one crawl's shared queue."""

    def __init__(self, queue: str, dupefilter: str) -> None:
        self.queue = queue
        self.dupefilter = dupefilter
        self.leases = f"{queue}:leases"
        self.lease_scores = f"{queue}:lease_scores"
        self.redelivered = f"{queue}:redelivered"


class LeaseQueue:
    """The Redis side of leased requests; members are serialised requests (bytes)."""

    def __init__(
        self, client: redis.Redis, keys: LeaseKeys, age_days: float = REFETCH_AFTER_DAYS
    ) -> None:
        self.client = client
        self.keys = keys
        #: Length of a seen-set generation in ms (0: no refetch age), crawler.scheduling.seen.
        self.generation_ms = int(generation_seconds(age_days) * 1000)
        self._push = client.register_script(_PUSH)
        self._lease = client.register_script(_LEASE)
        self._ack = client.register_script(_ACK)
        self._renew = client.register_script(_RENEW)
        self._reap = client.register_script(_REAP)
        self._release = client.register_script(_RELEASE)

    @property
    def _moving(self) -> list[str]:
        return [self.keys.queue, self.keys.leases, self.keys.lease_scores, self.keys.redelivered]

    @property
    def _lease_keys(self) -> list[str]:
        return [*self._moving, SITES_HASH]

    def push(
        self, member: bytes | str, score: float, fingerprint: str = "",
        crawl_round: int | None = None, site: tuple[str, str] | None = None,
    ) -> bool:  # fmt: skip
        """Queue ``member`` unless ``fingerprint`` (hex; an empty one: always queue) was seen: a
        front (``crawl_round`` given) in its round, an article within the refetch age (ever, with
        no age; see :mod:`crawler.scheduling.seen`). ``site``: the entry's URL prefix and
        "``concurrency site``", kept in ``newscrawl:polite:sites`` for :meth:`lease_polite`."""
        fp = from_hex(fingerprint) if fingerprint else 0
        bucket = seen_bucket(fp)
        if crawl_round is None:
            seen_key = f"{self.keys.dupefilter}:{bucket}"
            args = [fingerprint, str(self.generation_ms), "article"]
        else:
            seen_key = f"{self.keys.dupefilter}:fronts:{crawl_round}"
            args = ["", str(FRONTS_TTL_S * 1000), "front"]
        keys = [self.keys.queue, seen_key, self.keys.dupefilter, SITES_HASH]
        args = [member, score, signed64(fp) if fingerprint else "", *args,
                f"{self.keys.dupefilter}:g", bucket, GENERATIONS, *(site or ("", ""))]  # fmt: skip
        return bool(self._push(keys=keys, args=args))

    def lease(self, lease_ms: int) -> tuple[bytes, float, bool] | None:
        """The first queued request, its score and whether it is a redelivery (an earlier lease of
        it expired or was released), now leased for ``lease_ms``; None if the queue is empty."""
        found = self._lease(keys=self._lease_keys, args=[int(lease_ms), 1, ""])
        if not found:
            return None
        return found[0], float(found[1]), bool(found[2])

    def lease_polite(
        self, lease_ms: int, token: str, reserve_ms: int, key_ms: int, refusal_ms: int,
        window: int = LEASE_WINDOW,
    ) -> Leased | Refused | None:  # fmt: skip
        """The first of the first ``window`` queued requests whose site has a free shared slot, no
        delay running and no refused worker holding fewer of its slots than this one, leased for
        ``lease_ms``, with a slot of its site reserved for ``reserve_ms`` under ``token``
        (``<worker>:<uuid>``; ``Leased.site``; "" for an entry whose site the queue does not know,
        leased as :meth:`lease` would, with no slot reserved). None if the queue is empty;
        :class:`Refused` if no entry could be handed out, the worker then noted as refused for
        ``refusal_ms`` at each site it found full (:mod:`crawler.scheduling.slots`)."""
        worker = token.partition(":")[0]
        args = [int(lease_ms), int(window), token, int(reserve_ms), int(key_ms), worker,
                int(refusal_ms)]  # fmt: skip
        found = self._lease(keys=self._lease_keys, args=args)
        if not found:
            return None
        if len(found) == 2:
            return Refused(int(found[0]), int(found[1]))
        member, score, again, site, skipped, yielded = found
        return Leased(member, float(score), bool(again), site.decode("utf-8"), int(skipped),
                      int(yielded))  # fmt: skip

    def ack(self, members: list[bytes | str]) -> int:
        """Drop these leases (their requests are done); how many were still leased."""
        if not members:
            return 0
        keys = [self.keys.leases, self.keys.lease_scores, self.keys.redelivered]
        return int(self._ack(keys=keys, args=members))

    def renew(self, members: list[bytes | str], lease_ms: int) -> int:
        """Move these leases' deadlines to now + ``lease_ms``; how many were still leased."""
        if not members:
            return 0
        return int(self._renew(keys=[self.keys.leases], args=[int(lease_ms), *members]))

    def reap(self, limit: int = REAP_BATCH) -> int:
        """Put up to ``limit`` expired leases back in the queue; how many were put back."""
        return int(self._reap(keys=self._moving, args=[limit]))

    def release(self, members: list[bytes | str]) -> int:
        """Put these leases back in the queue at once; how many were still leased."""
        if not members:
            return 0
        return int(self._release(keys=self._moving, args=members))

    def sizes(self) -> tuple[int, int]:
        """(requests queued, requests leased)."""
        with self.client.pipeline(transaction=False) as pipe:
            pipe.zcard(self.keys.queue).zcard(self.keys.leases)
            queued, leased = pipe.execute()
        return int(queued), int(leased)
