"""A worker that found the shared queue empty takes a request another worker queued at once, not at
Scrapy's 5 s heartbeat (real Redis, a real `newscrawl worker`, a local HTTP server; slow: ~10 s).

Before the poll (crawler/scheduling/scheduler.py), an idle engine asked its scheduler again only on
its 5 s heartbeat: a request queued 1.5 s after the worker's last page waited about 3.5 s.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import redis
from scrapy.utils.test import get_crawler

from crawler.demo.server import load_site
from crawler.scheduling import distributed_settings
from crawler.scheduling.scheduler import SharedQueueScheduler
from crawler.spiders.news import NewsSpider
from pipelines.redis_conn.clients import CLIENT_NAME
from tests.crawler.demo_helpers import start_newscrawl
from tests.crawler.http_helpers import PageHandler, serve

DB = 11  # this test's own database on the shared test server; flushed first
PAGE = load_site().replies["/news/business-27107354"].body  # a real article of the demo site
#: Seconds a request queued while the worker is idle may wait before the worker fetches it: the
#: poll interval (0.2 s) and a loaded machine's slack; the heartbeat took 3.5 s here.
MAX_WAIT_S = 1.5


class _Recorder(PageHandler):
    """The article at /first and /second, 404 elsewhere; the time each path was first asked."""

    seen: dict[str, float] = {}
    lock = threading.Lock()

    def page(self, path: str) -> bytes | None:
        with self.lock:
            self.seen.setdefault(path, time.monotonic())
        return PAGE if path in ("/first", "/second") else None


def _wait(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.slow
def test_an_idle_worker_takes_a_queued_request_within_the_poll_interval(
    redis_server: str, tmp_path: Path
) -> None:
    url = redis_server.rsplit("/", 1)[0] + f"/{DB}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    _Recorder.seen = {}
    crawler = get_crawler(NewsSpider, distributed_settings(url))
    peer = SharedQueueScheduler.from_crawler(crawler)  # another worker's scheduler, queueing
    spider = NewsSpider.from_crawler(crawler)
    peer.open(spider)

    def queue(path: str) -> None:
        # a seed (the SSRF rule lets a seed's own loopback origin through) at depth 1 = DEPTH_LIMIT:
        # the page's links are not followed, only what is queued here is fetched
        request = spider.seed_request(base + path)
        request.meta["depth"] = 1
        assert peer.enqueue_request(request)

    def workers() -> int:
        return sum(1 for c in client.client_list() if c.get("name") == CLIENT_NAME)

    ours = workers()  # the peer's connections
    with serve(_Recorder) as base, open(tmp_path / "worker.log", "wb") as log:
        worker = start_newscrawl(
            "worker", "--redis", url, "--out", str(tmp_path / "out"), "--idle-timeout", "3",
            "--no-autothrottle", "--progress-interval", "0", "--depth", "1",
            "-s", "ROBOTSTXT_OBEY=False", log=log,
        )  # fmt: skip
        try:
            assert _wait(lambda: workers() > ours, 60), "the worker never connected"
            time.sleep(1.0)  # its engine is open and has found the queue empty
            queue("/first")
            assert _wait(lambda: "/first" in _Recorder.seen, 15)
            time.sleep(1.5)  # the first page done: the worker is idle again
            queued = time.monotonic()
            queue("/second")
            assert _wait(lambda: "/second" in _Recorder.seen, 15)
            waited = _Recorder.seen["/second"] - queued
            assert waited < MAX_WAIT_S, f"an idle worker took {waited:.2f} s to take a request"
            assert worker.wait(60) == 0  # and it still closes on its idle timeout
        finally:
            peer.close("test")
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert set(_Recorder.seen) == {"/first", "/second"}
    assert client.zcard("newscrawl:news:requests") == 0
    assert client.zcard("newscrawl:news:requests:leases") == 0
