"""LeaseQueue against a real Redis server: a request taken is leased, expires and returns; an ack
ends it."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from crawler.scheduling.leases import LeaseKeys, LeaseQueue


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
    assert queue.push(b"request-a", -5, "fp-a")
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
    queue.push(b"request-b", 0, "fp-b")
    member, _, _ = queue.lease(lease_ms=100)
    assert queue.ack([member]) == 1
    assert queue.sizes() == (0, 0)
    time.sleep(0.15)
    assert queue.reap() == 0
    assert queue.sizes() == (0, 0)
    assert queue.client.hlen(queue.keys.lease_scores) == 0
    assert queue.ack([member]) == 0  # acknowledging twice is harmless


def test_renewal_keeps_a_lease_alive_and_release_returns_it_at_once(queue: LeaseQueue) -> None:
    queue.push(b"request-c", -1, "fp-c")
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
    assert queue.push(b"low", 0, "fp-low")
    assert queue.push(b"high", -100, "fp-high")
    assert not queue.push(b"low-again", 0, "fp-low")  # seen: not queued
    assert queue.push(b"retry", 0, "")  # no fingerprint (dont_filter): always queued
    taken = [queue.lease(lease_ms=1000)[0] for _ in range(3)]
    assert taken == [b"high", b"low", b"retry"]
    assert queue.lease(lease_ms=1000) is None
