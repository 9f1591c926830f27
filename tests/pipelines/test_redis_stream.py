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

from pipelines.jsonl import JsonlSinkPipeline
from pipelines.redis_client import RedisUnavailable
from pipelines.redis_stream import RedisStreamPipeline
from tests.pipelines.helpers import build, drive, make_crawler, run, run_pipeline

#: Fast retries for tests: 3 tries in all, 1 ms back-off, a probe for every item while down.
FAST_RETRY = {
    "NEWSCRAWL_STREAM_RETRIES": 2,
    "NEWSCRAWL_STREAM_RETRY_BACKOFF": 0.001,
    "NEWSCRAWL_STREAM_COOLDOWN": 0,
}


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
    assert [list(fields) for _, fields in entries] == [[b"item"]] * 3
    assert [json.loads(fields[b"item"]) for _, fields in entries] == sent
    assert crawler.stats.get_value("newscrawl/items_streamed") == 3


def test_stream_length_is_capped(redis_server: str, key: str, client: redis.Redis) -> None:
    _, pipeline = stream(redis_server, key, NEWSCRAWL_STREAM_MAXLEN=50)
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
            **FAST_RETRY,
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

    with caplog.at_level(logging.ERROR, logger="pipelines.redis_stream"):
        run(crawl())
    (jsonl,) = tmp_path.glob("*.jsonl")
    assert [json.loads(line) for line in jsonl.read_text().splitlines()] == sent
    assert crawler.stats.get_value("newscrawl/items_streamed") == 2
    assert crawler.stats.get_value("newscrawl/errors/redis_stream") == 3
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1  # one clear message for the outage, not one per item
    assert server.url in errors[0].getMessage() and "unreachable" in errors[0].getMessage()


def test_stream_resumes_when_server_comes_back(redis_server_factory, key: str) -> None:
    server = redis_server_factory()
    crawler, pipeline = stream(server.url, key, **FAST_RETRY)

    async def crawl() -> None:
        await drive(pipeline, [], close=False)
        await pipeline.process_item({"id": "before"})
        server.kill()
        await pipeline.process_item({"id": "during"})
        server.start(port=server.port)
        await pipeline.process_item({"id": "after"})
        pipeline.close_spider()

    run(crawl())
    client = redis.Redis.from_url(server.url)
    try:
        assert [json.loads(f[b"item"])["id"] for _, f in client.xrange(key)] == ["after"]
    finally:
        client.close()
    assert crawler.stats.get_value("newscrawl/items_streamed") == 2
    assert crawler.stats.get_value("newscrawl/errors/redis_stream") == 1


def test_while_down_items_are_not_retried_until_the_cooldown_ends(
    redis_server_factory, key: str
) -> None:
    server = redis_server_factory()
    crawler, pipeline = stream(server.url, key, **{**FAST_RETRY, "NEWSCRAWL_STREAM_COOLDOWN": 3600})

    async def crawl() -> None:
        await drive(pipeline, [], close=False)
        server.kill()
        await pipeline.process_item({"id": "first"})  # tries, fails, marks the stream down
        server.start(port=server.port)
        await pipeline.process_item({"id": "second"})  # within the cooldown: not even tried
        pipeline.close_spider()

    run(crawl())
    client = redis.Redis.from_url(server.url)
    try:
        assert client.xlen(key) == 0
    finally:
        client.close()
    assert crawler.stats.get_value("newscrawl/errors/redis_stream") == 2
