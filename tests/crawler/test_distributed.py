"""Distributed crawl: real Redis, the demo site, `newscrawl seed` and two `newscrawl worker` processes."""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path

import pytest
import redis

from crawler.demo.server import DemoServer, load_site
from crawler.scheduling import DUPEFILTER_KEY, QUEUE_KEY
from tests.crawler.demo_helpers import (
    Expected,
    assert_articles_paired,
    jsonl_items,
    newscrawl,
    path_of,
    seen_counts,
    start_newscrawl,
    warc_responses,
)

STREAM_KEY = "newscrawl:items"
SEEDS_KEY = "newscrawl:seeds"
WRAPPERS_KEY = "newscrawl:wrappers"
PICKLE_PROTOCOL_HEADERS = [b"\x80" + bytes([p]) for p in range(2, 6)]
WORKER_TIMEOUT_S = 120
DB = 5  # this test's own database on the shared test server; flushed first


@pytest.fixture
def redis_url(redis_server: str) -> str:
    url = redis_server.rsplit("/", 1)[0] + f"/{DB}"
    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture(scope="module")
def demo_server():
    server = DemoServer(load_site()).start()
    yield server
    server.stop()


def _values(client: redis.Redis, key: bytes) -> list[bytes]:
    """Every value stored under ``key``, whatever its type."""
    kind = client.type(key)
    if kind == b"string":
        return [client.get(key)]
    if kind == b"list":
        return client.lrange(key, 0, -1)
    if kind == b"set":
        return list(client.smembers(key))
    if kind == b"zset":
        return client.zrange(key, 0, -1)
    if kind == b"hash":
        return [v for pair in client.hgetall(key).items() for v in pair]
    if kind == b"stream":
        return [v for _, fields in client.xrange(key) for pair in fields.items() for v in pair]
    raise AssertionError(f"unexpected type {kind!r} of {key!r}")


def _assert_no_pickle(client: redis.Redis) -> None:
    """No value of any key holds a pickle protocol 2-5 header."""
    keys = list(client.scan_iter())
    assert keys
    for key in keys:
        for value in _values(client, key):
            assert not any(h in value for h in PICKLE_PROTOCOL_HEADERS), (key, value[:80])


def _run_workers(redis_url: str, tmp_path: Path, count: int = 2) -> list[Path]:
    # DEPTH_LIMIT as the site expects. Two requests at a time and a delay make one worker alone take
    # about 11 s, so the other joins in (an idle worker looks at the shared queue every 0.2 s).
    depth = str(load_site().manifest["depth_limit"])
    options = [
        "--redis",
        redis_url,
        "--idle-timeout",
        "5",
        "--depth",
        depth,
        "--no-autothrottle",
        "-s",
        "CONCURRENT_REQUESTS=2",
        "-s",
        "DOWNLOAD_DELAY=0.3",
        "--progress-interval",
        "0",
    ]
    outs = [tmp_path / f"worker{i}" for i in range(count)]
    logs = [tmp_path / f"worker{i}.log" for i in range(count)]
    with ExitStack() as files:
        procs = [
            start_newscrawl(
                "worker", *options, "--out", str(out), log=files.enter_context(open(log, "wb"))
            )
            for out, log in zip(outs, logs, strict=True)
        ]
        try:
            for proc, log in zip(procs, logs, strict=True):
                assert proc.wait(WORKER_TIMEOUT_S) == 0, log.read_text()
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    return outs


def test_two_workers_share_one_crawl(
    redis_url: str, demo_server: DemoServer, tmp_path: Path
) -> None:
    expected = Expected(demo_server.site)
    seeded = newscrawl("seed", "--redis", redis_url, *demo_server.seed_urls())
    assert seeded.returncode == 0, seeded.stderr
    outs = _run_workers(redis_url, tmp_path)

    # each worker fetches robots.txt itself; every other URL is fetched (and archived) once
    warc_paths = [path for out in outs for path, _ in warc_responses(out) if path != "/robots.txt"]
    assert len(warc_paths) == len(set(warc_paths)), "a page was fetched twice"
    assert set(warc_paths) == expected.requested_paths - {"/robots.txt"}
    items = [item for out in outs for item in jsonl_items(out)]
    assert sorted(path_of(item["url"]) for item in items) == sorted(expected.item_paths)
    # siblings come from the shared Redis store, whichever worker fetched them
    assert_articles_paired(items, expected.article_paths, expected.cjk_article_paths,
                           first_pages=len(outs))

    summaries = [json.loads((out / "summary.json").read_text()) for out in outs]
    assert sum(s["pages_fetched"] for s in summaries) == expected.pages_fetched
    assert all(s["pages_fetched"] > 0 for s in summaries), "one worker did all the work"
    skipped: dict[str, int] = {}
    for s in summaries:
        for reason, n in s["skipped"].items():
            skipped[reason] = skipped.get(reason, 0) + n
    assert skipped == dict(expected.skipped)

    client = redis.Redis.from_url(redis_url)
    stream_urls = [json.loads(fields[b"item"])["url"] for _, fields in client.xrange(STREAM_KEY)]
    assert sorted(path_of(u) for u in stream_urls) == sorted(expected.item_paths)
    assert client.zcard(QUEUE_KEY % {"spider": "news"}) == 0
    # every request taken ended in an acknowledgement: pages with items, 404, robots.txt refusals,
    # redirect loops, non-HTML and empty pages, duplicates
    assert client.zcard(QUEUE_KEY % {"spider": "news"} + ":leases") == 0
    assert client.hlen(QUEUE_KEY % {"spider": "news"} + ":lease_scores") == 0
    leases = [s.get("leases", {}) for s in summaries]
    assert sum(lease.get("taken", 0) for lease in leases) == sum(
        lease.get(k, 0) for lease in leases for k in ("acked", "handed_over", "failed")
    )
    assert client.llen(SEEDS_KEY) == 0
    assert sum(seen_counts(client, DUPEFILTER_KEY % {"spider": "news"})) >= len(
        expected.fetched_paths
    )
    assert not client.exists(DUPEFILTER_KEY % {"spider": "news"})  # the older set: never written
    _assert_no_pickle(client)
    # the two section pages share one list template: one wrapper in the shared hash, used by both
    ((key, value),) = client.hgetall(WRAPPERS_KEY).items()
    stored = json.loads(value)
    assert stored["key"] == key.decode() and stored["notation"] == "html.body.ul(1)(li.a)[li]"
    wrappers = [s["wrappers"] for s in summaries]
    assert sum(w.get("induced", 0) for w in wrappers) >= 1
    assert sum(w.get("induced", 0) + w.get("reinduced", 0) + w.get("applied", 0)
               for w in wrappers) == 2
    sections = [i for i in items if path_of(i["url"]) in ("/news/", "/money/")]
    assert all(len(i["records"]) == 15 for i in sections)


def test_no_pickle_anywhere_in_redis(
    redis_url: str, demo_server: DemoServer, tmp_path: Path
) -> None:
    # Leave requests in the queue: one worker, stopped by --max-pages before the queue is drained.
    newscrawl("seed", "--redis", redis_url, *demo_server.seed_urls())
    result = newscrawl(
        "worker",
        "--redis",
        redis_url,
        "--out",
        str(tmp_path),
        "--max-pages",
        "2",
        "--progress-interval",
        "0",
        "--no-autothrottle",
    )
    assert result.returncode == 0, result.stderr
    client = redis.Redis.from_url(redis_url)
    queue = QUEUE_KEY % {"spider": "news"}
    assert client.zcard(queue) > 0, "the worker's close must not wipe the shared queue"
    _assert_no_pickle(client)
    for member in client.zrange(queue, 0, -1):
        assert json.loads(member)["url"].startswith(demo_server.base_url)


def test_crawl_with_redis_runs_one_worker_to_the_end(
    redis_url: str, demo_server: DemoServer, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = newscrawl(
        "crawl", *demo_server.seed_urls(), "--redis", redis_url, "--out", str(out), "--depth", "1",
        "--idle-timeout", "1", "--progress-interval", "0",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    index_paths = {e["path"] for e in demo_server.site.manifest["entries"] if e["kind"] == "index"}
    assert {path_of(i["url"]) for i in jsonl_items(out)} == index_paths
    client = redis.Redis.from_url(redis_url)
    assert client.xlen(STREAM_KEY) == len(index_paths)
    assert sum(seen_counts(client, DUPEFILTER_KEY % {"spider": "news"})) > 0  # kept after the crawl
