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
  saying whether it is a redelivery;
- :meth:`ack`: remove the lease (the request is done); :meth:`renew`: push deadlines forward;
- :meth:`reap`: move expired leases back to ``queue`` (run by every live worker);
- :meth:`release`: move given leases back at once (a worker closing with work unfinished).

Deadlines use Redis's ``TIME``, so workers' clocks need not agree. Scripts are replicated by effect
(the default since Redis 5), which ``TIME`` followed by writes needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crawler.scheduling.seen import (
    FRONTS_TTL_S, GENERATIONS, REFETCH_AFTER_DAYS, from_hex, generation_seconds, seen_bucket,
    signed64,
)

if TYPE_CHECKING:
    import redis

__all__ = ["LeaseKeys", "LeaseQueue"]

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
return 1
"""

_LEASE = _NOW_MS + """
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
if #first == 0 then return false end
redis.call('ZREM', KEYS[1], first[1])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[1]), first[1])
redis.call('HSET', KEYS[3], first[1], first[2])
return {first[1], first[2], redis.call('SISMEMBER', KEYS[4], first[1])}
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

    def push(
        self, member: bytes | str, score: float, fingerprint: str = "",
        crawl_round: int | None = None,
    ) -> bool:  # fmt: skip
        """Queue ``member`` unless ``fingerprint`` (hex; an empty one: always queue) was seen: a
        front (``crawl_round`` given) in its round, an article within the refetch age (ever, with
        no age; see :mod:`crawler.scheduling.seen`)."""
        fp = from_hex(fingerprint) if fingerprint else 0
        bucket = seen_bucket(fp)
        if crawl_round is None:
            seen_key = f"{self.keys.dupefilter}:{bucket}"
            args = [fingerprint, str(self.generation_ms), "article"]
        else:
            seen_key = f"{self.keys.dupefilter}:fronts:{crawl_round}"
            args = ["", str(FRONTS_TTL_S * 1000), "front"]
        keys = [self.keys.queue, seen_key, self.keys.dupefilter]
        args = [member, score, signed64(fp) if fingerprint else "", *args,
                f"{self.keys.dupefilter}:g", bucket, GENERATIONS]  # fmt: skip
        return bool(self._push(keys=keys, args=args))

    def lease(self, lease_ms: int) -> tuple[bytes, float, bool] | None:
        """The first queued request, its score and whether it is a redelivery (an earlier lease of
        it expired or was released), now leased for ``lease_ms``; None if the queue is empty."""
        found = self._lease(keys=self._moving, args=[int(lease_ms)])
        if not found:
            return None
        return found[0], float(found[1]), bool(found[2])

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
