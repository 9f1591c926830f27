"""The Redis room: a worker's one connection to the crawl's Redis.

- :mod:`pipelines.redis_conn.clients`: every Redis client of newscrawl, from the one setting
  ``NEWSCRAWL_REDIS_URL`` (``crawler_redis``: the worker's one client; ``redis_from_url``: the
  CLI's one-off clients);
- :mod:`pipelines.redis_conn.link`: ``RedisLink``, the worker's writes to Redis, held while Redis
  is away and replayed in order when it returns.

It sits in ``pipelines`` (below ``crawler``) so that the crawler's scheduler and the rooms that
store in Redis (siblings, lists, sinks) can all use it; it imports no other room. Not named
``redis``: that would read like the redis-py package it imports.
"""
