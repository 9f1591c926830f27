"""SiblingStore: K pages per template, bounded bytes, LRU (memory); JSON lists with TTL (real Redis)."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator

import pytest
import redis

from pipelines.siblings.store import MemorySiblingStore, RedisSiblingStore
from tests.pipelines.helpers import PAGES

T = "bbc.com/news/<slug>"
BBC = (PAGES / "cx_bbc-00000.html").read_bytes()


def url(n: int) -> str:
    return f"https://www.bbc.com/news/business-{27107354 + n}"


# --- memory ---------------------------------------------------------------------------------------


def test_memory_keeps_the_last_k_pages_newest_first() -> None:
    store = MemorySiblingStore(per_template=2)
    for n in range(3):
        store.add(T, url(n), BBC + str(n).encode(), "text/html")
    assert store.get(T, exclude_url="").url == url(2)
    assert store.get(T, exclude_url=url(2)).url == url(1)
    store2 = MemorySiblingStore(per_template=2)
    store2.add(T, url(0), BBC, None)
    assert store2.get(T, exclude_url=url(0)) is None  # a page is never its own sibling


def test_memory_returns_the_body_and_content_type_as_stored() -> None:
    store = MemorySiblingStore()
    store.add(T, url(0), BBC, "text/html; charset=utf-8")
    page = store.get(T, exclude_url=url(1))
    assert (page.url, page.body, page.content_type) == (url(0), BBC, "text/html; charset=utf-8")


def test_memory_stores_bodies_compressed() -> None:
    store = MemorySiblingStore()
    store.add(T, url(0), BBC, None)
    assert 0 < store.total_bytes < len(BBC) / 2


def test_memory_byte_cap_evicts_least_recently_used_templates() -> None:
    one = MemorySiblingStore()
    one.add("a", url(0), BBC, None)
    cap = one.total_bytes * 2 + 10  # room for two pages
    store = MemorySiblingStore(max_bytes=cap)
    store.add("a", url(0), BBC, None)
    store.add("b", url(1), BBC, None)
    assert store.get("a", exclude_url="") is not None  # "a" is now the most recently used
    store.add("c", url(2), BBC, None)
    assert store.get("b", exclude_url="") is None  # "b" was the least recently used
    assert store.get("a", exclude_url="") and store.get("c", exclude_url="")
    assert store.total_bytes <= cap and len(store) == 2


def test_memory_does_not_store_a_body_over_the_body_cap() -> None:
    store = MemorySiblingStore(max_body_bytes=100)
    assert store.add(T, url(0), BBC, None) is False
    assert store.get(T, exclude_url="") is None and store.total_bytes == 0


def test_memory_same_url_twice_is_kept_once() -> None:
    store = MemorySiblingStore(per_template=3)
    store.add(T, url(0), BBC, None)
    store.add(T, url(0), BBC, None)
    assert store.get(T, exclude_url=url(0)) is None


# --- redis ----------------------------------------------------------------------------------------


@pytest.fixture
def client(redis_server: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server)
    yield client
    client.close()


@pytest.fixture
def prefix() -> str:
    return f"test:siblings:{uuid.uuid4().hex}:"


def test_redis_keeps_k_pages_per_template_with_a_ttl(client: redis.Redis, prefix: str) -> None:
    store = RedisSiblingStore(client, per_template=2, ttl=600, key_prefix=prefix)
    for n in range(4):
        store.add(T, url(n), BBC, "text/html")
    key = prefix + T
    assert client.llen(key) == 2
    assert 590 < client.ttl(key) <= 600
    page = store.get(T, exclude_url=url(3))
    assert (page.url, page.body, page.content_type) == (url(2), BBC, "text/html")


def test_redis_values_are_json_never_pickle(client: redis.Redis, prefix: str) -> None:
    store = RedisSiblingStore(client, key_prefix=prefix)
    store.add(T, url(0), BBC, None)
    store.add("other.org/<id>", url(1), os.urandom(2000), None)
    keys = list(client.scan_iter(match=prefix + "*"))
    assert len(keys) == 2
    for key in keys:
        for raw in client.lrange(key, 0, -1):
            assert not raw.startswith(b"\x80")  # pickle protocol 2+ opcode
            assert set(json.loads(raw)) == {"url", "content_type", "body"}


def test_redis_does_not_store_a_body_over_the_cap(client: redis.Redis, prefix: str) -> None:
    store = RedisSiblingStore(client, max_body_bytes=100, key_prefix=prefix)
    assert store.add(T, url(0), BBC, None) is False
    assert client.exists(prefix + T) == 0


def test_redis_store_is_shared_between_workers(redis_server: str, prefix: str) -> None:
    a, b = redis.Redis.from_url(redis_server), redis.Redis.from_url(redis_server)
    RedisSiblingStore(a, key_prefix=prefix).add(T, url(0), BBC, None)
    assert RedisSiblingStore(b, key_prefix=prefix).get(T, exclude_url=url(1)).url == url(0)
    a.close()
    b.close()


def test_redis_ignores_values_it_did_not_write(client: redis.Redis, prefix: str) -> None:
    client.lpush(prefix + T, b"\x80\x04not json")
    store = RedisSiblingStore(client, key_prefix=prefix)
    assert store.get(T, exclude_url="") is None
