"""RedisStreamPipeline against a real Redis server: JSON entries, the length cap, outages."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from scrapy.exceptions import NotConfigured

from pipelines.redis_conn.clients import RedisUnavailable
from pipelines.sinks.jsonl import JsonlSinkPipeline
from pipelines.sinks.redis_stream import RedisStreamPipeline, content_hash
from tests.pipelines.helpers import build, drive, make_crawler, run, run_pipeline


@pytest.fixture
def key() -> str:
    return f"test:items:{uuid.uuid4().hex}"


@pytest.fixture
def client(redis_server: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_server)
    yield client
    client.close()


def stream(url: str, key: str, **settings):
    crawler = make_crawler({"NEWSCRAWL_REDIS_URL": url, "NEWSCRAWL_STREAM_KEY": key, **settings})
    return crawler, build(RedisStreamPipeline, crawler)


def items(n: int) -> list[dict]:
    return [{"id": str(i), "title": f"Überschrift {i}", "site": "bbc.com"} for i in range(n)]


def test_each_item_is_one_json_entry(redis_server: str, key: str, client: redis.Redis) -> None:
    crawler, pipeline = stream(redis_server, key)
    sent = items(3)
    assert run_pipeline(pipeline, sent) == sent
    entries = client.xrange(key)
    fields = [b"item", b"id", b"site", b"page_type", b"published"]
    assert [list(entry) for _, entry in entries] == [fields] * 3
    assert [json.loads(entry[b"item"]) for _, entry in entries] == sent
    assert [(e[b"id"], e[b"site"], e[b"published"]) for _, e in entries][0] == (b"0", b"bbc.com", b"")
    assert crawler.stats.get_value("newscrawl/items_streamed") == 3


def test_stream_length_is_capped(redis_server: str, key: str, client: redis.Redis) -> None:
    _, pipeline = stream(redis_server, key, NEWSCRAWL_STREAM_MAXLEN=50, NEWSCRAWL_STREAM_GROUP="")
    run_pipeline(pipeline, items(1000))
    # MAXLEN ~ trims whole radix-tree nodes, so up to one node's worth above the cap remains.
    node = int(client.config_get("stream-node-max-entries")["stream-node-max-entries"])
    assert 50 <= client.xlen(key) <= 50 + node
    assert json.loads(client.xrevrange(key, count=1)[0][1][b"item"])["id"] == "999"


def test_not_configured_without_url() -> None:
    with pytest.raises(NotConfigured):
        build(RedisStreamPipeline, make_crawler())


def test_unreachable_server_fails_at_open(key: str) -> None:
    _, pipeline = stream("redis://127.0.0.1:1/0", key)
    with pytest.raises(RedisUnavailable, match=r"redis://127\.0\.0\.1:1/0: Connection refused"):
        run_pipeline(pipeline, [])


def test_server_killed_mid_crawl_items_still_reach_jsonl(
    redis_server_factory, key: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = redis_server_factory()
    crawler = make_crawler(
        {
            "NEWSCRAWL_REDIS_URL": server.url,
            "NEWSCRAWL_STREAM_KEY": key,
            "NEWSCRAWL_JSONL_DIR": str(tmp_path),
        }
    )
    sinks = [build(JsonlSinkPipeline, crawler), build(RedisStreamPipeline, crawler)]
    sent = items(5)

    async def crawl() -> None:
        for pipeline in sinks:
            await drive(pipeline, [], close=False)
        for n, item in enumerate(sent):
            if n == 2:
                server.kill()
            passed = item
            for pipeline in sinks:
                passed = await pipeline.process_item(passed)
        for pipeline in sinks:
            pipeline.close_spider()

    with caplog.at_level(logging.ERROR, logger="pipelines.redis_conn.link"):
        run(crawl())
    (jsonl,) = tmp_path.glob("*.jsonl")
    assert [json.loads(line) for line in jsonl.read_text().splitlines()] == sent
    assert crawler.stats.get_value("newscrawl/items_streamed") == 2
    assert crawler.stats.get_value("newscrawl/redis/held/xadd") == 3
    assert crawler.stats.get_value("newscrawl/redis/outages") == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1  # one clear message for the outage, not one per item
    assert server.url in errors[0].getMessage() and "unreachable" in errors[0].getMessage()


def test_items_held_while_down_are_replayed_in_order(redis_server_factory, key: str) -> None:
    server = redis_server_factory()
    crawler, pipeline = stream(server.url, key)

    async def crawl() -> None:
        await drive(pipeline, [], close=False)
        await pipeline.process_item({"id": "before"})
        server.kill()
        await pipeline.process_item({"id": "during"})
        server.start(port=server.port)
        # Redis is back, but "after" must not overtake "during": it is held too, then both replay
        await pipeline.process_item({"id": "after"})
        assert crawler.stats.get_value("newscrawl/redis/held/xadd") == 2
        pipeline.close_spider()  # replays what is held

    run(crawl())
    client = redis.Redis.from_url(server.url)
    try:
        ids = [json.loads(f[b"item"])["id"] for _, f in client.xrange(key)]
    finally:
        client.close()
    # the test server keeps nothing on disk: "before" died with it
    assert ids == ["during", "after"]
    assert crawler.stats.get_value("newscrawl/items_streamed") == 3
    assert crawler.stats.get_value("newscrawl/redis/replayed/xadd") == 2


def test_an_item_streamed_twice_gives_one_entry_unless_its_content_changed(
    redis_server: str, key: str, client: redis.Redis
) -> None:
    crawler, pipeline = stream(redis_server, key)
    first = {"id": "a1", "body": "text", "fetched_at": "t1", "warc": {"file": "x", "offset": 1}}
    refetched = {**first, "fetched_at": "t2", "warc": {"file": "y", "offset": 9}}
    changed = {**first, "body": "new text"}
    run_pipeline(pipeline, [first, refetched, changed])
    bodies = [json.loads(f[b"item"])["body"] for _, f in client.xrange(key)]
    assert bodies == ["text", "new text"]
    assert crawler.stats.get_value("newscrawl/stream_duplicates") == 1


def test_a_redelivered_page_adds_no_entry_for_an_id_the_stream_holds(
    redis_server: str, key: str, client: redis.Redis
) -> None:
    """A worker died after streaming a page; the page fetched again by another worker can extract
    differently (another sibling page), yet it is the same article: no second entry. A new page
    that happens to be a redelivery (its first worker died before streaming it) is streamed."""
    crawler, pipeline = stream(redis_server, key)
    first = {"id": "a1", "body": "text", "extraction": {}}
    again = {"id": "a1", "body": "text and a caption", "extraction": {"redelivered": True}}
    new = {"id": "b2", "body": "other", "extraction": {"redelivered": True}}
    run_pipeline(pipeline, [first, again, new])
    assert [json.loads(f[b"item"])["id"] for _, f in client.xrange(key)] == ["a1", "b2"]
    assert crawler.stats.get_value("newscrawl/stream_duplicates") == 1


def test_a_group_created_at_start_gets_every_entry_and_nothing_unacked_is_trimmed(
    redis_server: str, key: str, client: redis.Redis, monkeypatch
) -> None:
    """Cap 10, 300 items, a group that has read nothing: nothing may be trimmed, the crawl warns
    and waits (backpressure, shortened here), adds every item anyway. Once the group has
    acknowledged 150, entries before its oldest pending one may go, and no later one does."""
    monkeypatch.setattr("pipelines.sinks.redis_stream.BACKPRESSURE_STEP_S", 0.01)
    monkeypatch.setattr("pipelines.sinks.redis_stream.BACKPRESSURE_MAX_S", 0.01)
    crawler, pipeline = stream(redis_server, key, NEWSCRAWL_STREAM_MAXLEN=10,
                               NEWSCRAWL_STREAM_GROUP="clusterer")  # fmt: skip
    run_pipeline(pipeline, items(300))
    assert client.xlen(key) == 300  # unread by the group: nothing trimmed
    assert crawler.stats.get_value("newscrawl/stream_over_cap") >= 1
    assert crawler.stats.get_value("newscrawl/stream_backpressure_s") > 0
    read = client.xreadgroup("clusterer", "c1", {key: ">"}, count=200)[0][1]
    assert [json.loads(f[b"item"])["id"] for _, f in read] == [str(i) for i in range(200)]
    client.xack(key, "clusterer", *[entry_id for entry_id, _ in read[:150]])
    pipeline.trim()
    left = client.xrange(key)
    assert 150 <= len(left) < 300  # the acknowledged ones may go (whole nodes: approximately)
    ids = [json.loads(f[b"item"])["id"] for _, f in left]
    assert ids[-150:] == [str(i) for i in range(150, 300)]  # pending and unread all kept


def test_the_seen_check_keeps_64_bit_integers_in_bucket_hashes_and_reads_the_older_hash(
    redis_server: str, key: str, client: redis.Redis
) -> None:
    """Item id and content hash as 64-bit integers in small bucket hashes (listpacks, ~20 bytes
    an item); the single hash of the older format is read (an item it holds unchanged is not
    streamed again), never written."""
    old = {"id": "old1", "body": "text"}
    client.hset(f"{key}:seen", "old1", content_hash(old))
    crawler, pipeline = stream(redis_server, key)
    changed = {**old, "body": "changed"}
    run_pipeline(pipeline, [old, {"id": "new1", "body": "x"}, changed, changed, old])
    streamed = [json.loads(f[b"item"]) for _, f in client.xrange(key)]
    assert [(i["id"], i["body"]) for i in streamed] == [("new1", "x"), ("old1", "changed"),
                                                        ("old1", "text")]  # fmt: skip
    assert client.hkeys(f"{key}:seen") == [b"old1"]
    buckets = list(client.scan_iter(match=f"{key}:seen:*"))
    assert 1 <= len(buckets) <= 2
    assert {client.object("encoding", b) for b in buckets} <= {b"ziplist", b"listpack"}
    fields = [(int(f), int(v)) for b in buckets for f, v in client.hgetall(b).items()]
    assert len(fields) == 2 and all(-(2**63) <= n < 2**63 for pair in fields for n in pair)
