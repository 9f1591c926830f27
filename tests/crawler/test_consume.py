"""`newscrawl consume` against a real Redis: every item once, a killed consumer's entries claimed by
another, poisoned entries skipped, nothing unacknowledged trimmed by the producer."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis

from pipelines.sinks.redis_stream import RedisStreamPipeline
from tests.crawler.demo_helpers import newscrawl
from tests.pipelines.helpers import build, make_crawler, run_pipeline


@pytest.fixture
def key() -> str:
    return f"test:consume:{uuid.uuid4().hex}"


def produce(url: str, key: str, n: int, start: int = 0, group: str = "clusterer") -> list[dict]:
    """``n`` items written by the crawl's own stream pipeline."""
    crawler = make_crawler({"NEWSCRAWL_REDIS_URL": url, "NEWSCRAWL_STREAM_KEY": key,
                            "NEWSCRAWL_STREAM_GROUP": group})  # fmt: skip
    items = [{"id": f"id{i}", "site": "bbc.com", "page_type": "article",
              "published": "2024-05-01", "title": f"Story {i}"} for i in range(start, start + n)]
    run_pipeline(build(RedisStreamPipeline, crawler), items)
    return items


def consume(url: str, key: str, *extra: str) -> subprocess.CompletedProcess:
    return newscrawl("consume", "--redis", url, "--key", key, "--group", "clusterer",
                     "--idle-exit", "1.5", *extra)  # fmt: skip


def test_every_item_once_as_json_lines_and_acknowledged(redis_server: str, key: str) -> None:
    sent = produce(redis_server, key, 7)
    result = consume(redis_server, key, "--consumer", "c1")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line) for line in result.stdout.splitlines()] == sent
    client = redis.Redis.from_url(redis_server)
    assert client.xpending(key, "clusterer")["pending"] == 0
    again = consume(redis_server, key, "--consumer", "c1")  # nothing new, nothing pending
    assert again.returncode == 0 and again.stdout == ""
    client.close()


def test_a_consumer_killed_with_entries_pending_leaves_them_to_another(
    redis_server: str, key: str, tmp_path: Path
) -> None:
    """A consumer process (a plain redis-py reader, as a clustering system's own code reads) takes
    8 entries and is killed with -9 before it acknowledges them (it stops itself first, so the
    kill lands between read and ack: a real process, a real kill, no race); `newscrawl consume`
    under another name claims them once idle: every item is printed, none is lost."""
    sent = produce(redis_server, key, 20)
    client = redis.Redis.from_url(redis_server)
    # the victim: reads one batch, then is frozen (SIGSTOP on itself) before printing or acking
    victim = subprocess.Popen(
        [sys.executable, "-c", (
            "import os, signal, redis, sys; "
            f"c = redis.Redis.from_url({redis_server!r}); "
            f"c.xreadgroup('clusterer', 'victim', {{{key!r}: '>'}}, count=8); "
            "os.kill(os.getpid(), signal.SIGSTOP)"
        )],
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while client.xpending(key, "clusterer")["pending"] < 8 and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    assert client.xpending(key, "clusterer")["pending"] == 8  # read, never acknowledged
    time.sleep(1.0)
    result = consume(redis_server, key, "--consumer", "heir", "--claim-idle", "0.5")
    assert result.returncode == 0, result.stderr
    got = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    assert sorted(got) == sorted(item["id"] for item in sent)  # the 8 claimed + the 12 unread
    assert "8 claimed" in result.stderr
    assert client.xpending(key, "clusterer")["pending"] == 0
    client.close()


def test_poisoned_entries_are_skipped_and_acknowledged(redis_server: str, key: str) -> None:
    produce(redis_server, key, 2)
    client = redis.Redis.from_url(redis_server)
    client.xadd(key, {"item": "{not json"})
    client.xadd(key, {"other": "x"})
    client.xadd(key, {"item": "[" * 5000 + "]" * 5000})
    result = consume(redis_server, key, "--consumer", "c1")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert len(result.stdout.splitlines()) == 2
    assert result.stderr.count("skipped entry") == 3 and "3 skipped" in result.stderr
    assert client.xpending(key, "clusterer")["pending"] == 0
    client.close()


def test_max_items_stops_and_the_rest_waits_for_the_next_read(redis_server: str, key: str) -> None:
    produce(redis_server, key, 10)
    first = consume(redis_server, key, "--consumer", "c1", "--count", "4", "--max-items", "4")
    second = consume(redis_server, key, "--consumer", "c1")
    ids = [json.loads(line)["id"] for line in (first.stdout + second.stdout).splitlines()]
    assert len(first.stdout.splitlines()) == 4 and ids == [f"id{i}" for i in range(10)]
