"""LeaseQueue against a real Redis server: a request taken is leased, expires and returns; an ack
ends it."""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from crawler.scheduling.leases import LeaseKeys, LeaseQueue
from crawler.scheduling.seen import FRONTS_TTL_S, from_hex, seen_bucket, signed64


def _fp(name: str) -> str:
    """A request fingerprint as scrapy-redis makes them: 40 hex characters."""
    return hashlib.sha1(name.encode()).hexdigest()


@pytest.fixture
def client(redis_server: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server)
    yield client
    client.close()


@pytest.fixture
def queue(client: redis.Redis) -> LeaseQueue:
    prefix = f"test:leases:{uuid.uuid4().hex}"
    return LeaseQueue(client, LeaseKeys(f"{prefix}:requests", f"{prefix}:dupefilter"))


def test_a_request_taken_and_not_acked_returns_to_the_queue_when_its_lease_expires(
    queue: LeaseQueue,
) -> None:
    assert queue.push(b"request-a", -5, _fp("fp-a"))
    member, score, again = queue.lease(lease_ms=300)
    assert (member, score, again) == (b"request-a", -5.0, False)
    assert queue.sizes() == (0, 1)
    assert queue.lease(lease_ms=300) is None  # nothing else to take: it is leased, not queued
    assert queue.reap() == 0  # not expired yet
    time.sleep(0.4)
    assert queue.reap() == 1
    assert queue.sizes() == (1, 0)
    # back at its priority, marked as a redelivery (its page may already be in the stream)
    assert queue.lease(lease_ms=300) == (b"request-a", -5.0, True)
    assert queue.ack([member]) == 1
    assert queue.client.scard(queue.keys.redelivered) == 0  # the mark goes with the ack


def test_an_ack_ends_the_lease_for_good(queue: LeaseQueue) -> None:
    queue.push(b"request-b", 0, _fp("fp-b"))
    member, _, _ = queue.lease(lease_ms=100)
    assert queue.ack([member]) == 1
    assert queue.sizes() == (0, 0)
    time.sleep(0.15)
    assert queue.reap() == 0
    assert queue.sizes() == (0, 0)
    assert queue.client.hlen(queue.keys.lease_scores) == 0
    assert queue.ack([member]) == 0  # acknowledging twice is harmless


def test_renewal_keeps_a_lease_alive_and_release_returns_it_at_once(queue: LeaseQueue) -> None:
    queue.push(b"request-c", -1, _fp("fp-c"))
    member, _, _ = queue.lease(lease_ms=300)
    for _ in range(3):
        time.sleep(0.2)
        assert queue.renew([member], lease_ms=300) == 1
        assert queue.reap() == 0
    assert queue.release([member]) == 1
    assert queue.sizes() == (1, 0)
    assert queue.renew([member], lease_ms=300) == 0  # no longer leased: nothing renewed
    assert queue.lease(lease_ms=300)[2] is True  # a released request is a redelivery too


def test_push_is_deduplicated_by_fingerprint_and_priority_orders_the_leases(
    queue: LeaseQueue,
) -> None:
    assert queue.push(b"low", 0, _fp("fp-low"))
    assert queue.push(b"high", -100, _fp("fp-high"))
    assert not queue.push(b"low-again", 0, _fp("fp-low"))  # seen: not queued
    assert queue.push(b"retry", 0, "")  # no fingerprint (dont_filter): always queued
    taken = [queue.lease(lease_ms=1000)[0] for _ in range(3)]
    assert taken == [b"high", b"low", b"retry"]
    assert queue.lease(lease_ms=1000) is None


def test_articles_go_to_intset_buckets_fronts_to_an_expiring_set_per_round(
    queue: LeaseQueue, client: redis.Redis
) -> None:
    """crawler.scheduling.seen's layout: an article's 64-bit fingerprint in its bucket (an intset:
    8 bytes a member), seen for good with no refetch age; a front's in its round's set, which
    expires; the older format's set (40-character members) is read, never written."""
    queue = LeaseQueue(client, queue.keys, age_days=0)
    dupefilter = queue.keys.dupefilter
    article = _fp("article")
    assert queue.push(b"article", 0, article)
    assert not queue.push(b"article-again", 0, article)
    bucket = f"{dupefilter}:{seen_bucket(from_hex(article))}"
    assert client.smembers(bucket) == {str(signed64(from_hex(article))).encode()}
    assert client.object("encoding", bucket) == b"intset"

    front = _fp("front")
    assert queue.push(b"front-1", 0, front, crawl_round=1)
    assert not queue.push(b"front-1-again", 0, front, crawl_round=1)  # once a round
    assert queue.push(b"front-2", 0, front, crawl_round=2)  # the next round fetches it again
    assert 0 < client.ttl(f"{dupefilter}:fronts:2") <= FRONTS_TTL_S
    assert not client.exists(dupefilter)  # the older set: never written

    legacy = _fp("seen-by-the-older-code")
    client.sadd(dupefilter, legacy)
    assert not queue.push(b"legacy", 0, legacy)  # seen before the upgrade: not fetched again
    assert queue.push(b"legacy-front", 0, legacy, crawl_round=3)  # fronts: every round
    queued = [queue.lease(lease_ms=1000)[0] for _ in range(4)]
    assert queued == [b"article", b"front-1", b"front-2", b"legacy-front"]


def test_an_article_may_be_queued_again_once_older_than_the_refetch_age(
    queue: LeaseQueue, client: redis.Redis
) -> None:
    """With a refetch age (here 2 s: generations of 0.5 s), an article's fingerprint goes to its
    generation's bucket, which expires when the generation leaves the window; within the age the
    article is a duplicate, past age × 1.25 it is queued again. A fingerprint of the no-age
    layout stays seen."""
    aged = LeaseQueue(client, queue.keys, age_days=2 / 86400)
    assert aged.generation_ms == 500
    article = _fp("updated-article")
    assert aged.push(b"first", 0, article)
    (key,) = [k.decode() for k in client.scan_iter(match=f"{queue.keys.dupefilter}:g*")]
    assert key.endswith(f":{seen_bucket(from_hex(article))}")
    assert 0 < client.pttl(key) <= 2500
    time.sleep(1.0)
    assert not aged.push(b"within-the-age", 0, article)
    time.sleep(1.6)  # 2.6 s after the first push: past the age and its last generation
    assert aged.push(b"again", 0, article)
    forever = _fp("seen-with-no-age")
    assert LeaseQueue(client, queue.keys, age_days=0).push(b"forever", 0, forever)
    assert not aged.push(b"forever-again", 0, forever)
    assert [queue.lease(lease_ms=1000)[0] for _ in range(3)] == [b"again", b"first", b"forever"]
