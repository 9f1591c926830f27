"""Fault injection: real workers killed, Redis killed and restarted, an embedded crawl killed.

Run with ``pytest -m faults`` (deselected by default; each test takes 1–4 minutes). Each test crawls
the slow site of :mod:`tests.faults.harness` (a few hundred real pages, 350 ms per response) and
counts, from the WARCs, the JSONL files and the stream: pages never fetched, pages fetched twice,
items written twice. Set ``NEWSCRAWL_FAULTS_REPORT=FILE`` to collect each run's figures as JSON
lines.

Targets (issue 10): ``kill -9`` of a worker loses no request and adds no stream entry twice, and
its requests are back in work within 60 s; a 5 s Redis restart (AOF) and a 60 s outage lose no
request and no stream item; an embedded crawl killed and rerun into the same ``--out`` fetches no
page it had finished.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis

from crawler.scheduling import QUEUE_KEY
from tests.faults.harness import (
    AofRedis,
    SlowSite,
    build_site,
    count,
    count_lines,
    jsonl_items,
    read_stream,
    start_cli,
    tail,
    wait_all,
    wait_for,
)

pytestmark = pytest.mark.faults

DELAY_S = 0.35
#: The fault comes once this share of the site's pages is in the stream (or the JSONL files).
FAULT_AT = 0.3
IDLE_TIMEOUT_S = 15
RUN_TIMEOUT_S = 480
LEASES_KEY = QUEUE_KEY % {"spider": "news"} + ":leases"
CRAWL_OPTIONS = ["--depth", "2", "--no-autothrottle", "--progress-interval", "10",
                 "-s", "CONCURRENT_REQUESTS=4"]  # fmt: skip


@pytest.fixture(scope="module")
def site():
    server = SlowSite(build_site(), DELAY_S).start()
    yield server
    server.stop()


def _xlen(client: redis.Redis) -> int:
    try:
        return int(client.xlen("newscrawl:items"))
    except redis.RedisError:
        return 0


class Crawl:
    """Redis with AOF, a seed, worker processes; what a fault needs to act on."""

    def __init__(self, tmp_path: Path, site: SlowSite) -> None:
        (tmp_path / "redis").mkdir()
        self.tmp_path, self.site = tmp_path, site
        self.redis = AofRedis(tmp_path / "redis").start()
        self.client = redis.Redis.from_url(self.redis.url, socket_timeout=5)
        self.procs: list[subprocess.Popen] = []
        self.outs: list[Path] = []
        self.logs: list[Path] = []

    def seed(self) -> None:
        seeded = subprocess.run(
            [sys.executable, "-m", "crawler.cli", "seed", "--redis", self.redis.url,
             self.site.base_url + "/"], capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert seeded.returncode == 0, seeded.stderr

    def start_worker(self, *extra: str, out: Path | None = None) -> None:
        """A worker on a new output folder, or on ``out`` (a restart)."""
        n = len(self.procs)
        log = self.tmp_path / f"worker{n}.log"
        if out is None:
            out = self.tmp_path / f"worker{n}"
            self.outs.append(out)
        args = ["worker", "--redis", self.redis.url, "--out", str(out),
                "--idle-timeout", str(IDLE_TIMEOUT_S), *CRAWL_OPTIONS, *extra]  # fmt: skip
        self.procs.append(start_cli(args, log))
        self.logs.append(log)

    def logs_text(self) -> str:
        return "\n".join(f"--- {log.name}\n{tail(log)}" for log in self.logs)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        self.client.close()
        self.redis.kill()


def _distributed(
    tmp_path: Path,
    site: SlowSite,
    fault: str,
    inject: Callable[[Crawl], float | None],
    *worker_options: str,
) -> Any:
    crawl = Crawl(tmp_path, site)
    started = time.monotonic()
    try:
        crawl.seed()
        crawl.start_worker(*worker_options)
        crawl.start_worker(*worker_options)
        threshold = int(len(site.pages) * FAULT_AT)
        assert wait_for(lambda: _xlen(crawl.client) >= threshold, 300), crawl.logs_text()
        resume_s = inject(crawl)
        codes = wait_all(crawl.procs, RUN_TIMEOUT_S)
        stream = read_stream(crawl.redis.client())
        figures = count(fault, site.pages, crawl.outs, stream)
        figures.resume_s = resume_s
        figures.exit_codes = codes
        figures.log_lines = [count_lines(log) for log in crawl.logs]
        figures.elapsed_s = round(time.monotonic() - started, 1)
        figures.record()
        return figures, crawl
    finally:
        crawl.stop()


def _kill_worker(crawl: Crawl) -> float | None:
    """kill -9 worker 0, start a replacement; seconds until no request leased at the kill is
    still leased (an upper bound on when the dead worker's requests were back in work)."""
    leased = set(crawl.client.zrange(LEASES_KEY, 0, -1))
    crawl.procs[0].send_signal(signal.SIGKILL)
    crawl.procs[0].wait()
    killed = time.monotonic()
    crawl.start_worker()
    if not wait_for(lambda: not leased & set(crawl.client.zrange(LEASES_KEY, 0, -1)), 180, 0.25):
        return None
    return round(time.monotonic() - killed, 1)


def _restart_redis(down_s: float) -> Callable[[Crawl], None]:
    def inject(crawl: Crawl) -> None:
        crawl.redis.kill()
        time.sleep(down_s)
        crawl.redis.start()

    return inject


def _assert_nothing_lost(figures: Any, crawl: Crawl) -> None:
    assert figures.never_fetched == [], crawl.logs_text()
    assert figures.stream_missing == 0, crawl.logs_text()
    assert figures.stream_same_content_twice == 0
    # a redelivered page is the same article even where its second extraction differs
    assert figures.stream_same_id_twice == 0, figures.stream_same_id_differs


def test_kill_9_of_a_worker_loses_nothing(tmp_path: Path, site: SlowSite) -> None:
    figures, crawl = _distributed(tmp_path, site, "kill9_worker", _kill_worker)
    _assert_nothing_lost(figures, crawl)
    assert figures.resume_s is not None and figures.resume_s <= 60
    assert figures.exit_codes[1:] == [0, 0]


def test_redis_restarted_after_5_s_loses_nothing(tmp_path: Path, site: SlowSite) -> None:
    figures, crawl = _distributed(tmp_path, site, "redis_restart_5s", _restart_redis(5))
    _assert_nothing_lost(figures, crawl)
    assert figures.exit_codes == [0, 0]


def test_redis_down_60_s_loses_nothing(tmp_path: Path, site: SlowSite) -> None:
    figures, crawl = _distributed(tmp_path, site, "redis_down_60s", _restart_redis(60))
    _assert_nothing_lost(figures, crawl)
    assert figures.exit_codes == [0, 0]
    assert max(figures.log_lines) < 200  # the outage is logged, not once per retry


#: Redis away longer than this stops the workers in the test below (the default is 300 s).
SHORT_MAX_OUTAGE_S = 20


def _outage_past_the_limit(crawl: Crawl) -> None:
    """Redis away 60 s: the workers stop (exit 3) after SHORT_MAX_OUTAGE_S, saving what they hold;
    Redis comes back, and workers restarted on the same output folders finish the crawl."""
    killed = time.monotonic()
    crawl.redis.kill()
    stopped = wait_all(crawl.procs[:2], 120)
    assert stopped == [3, 3], crawl.logs_text()
    assert all((out / "held-redis.journal").exists() for out in crawl.outs), crawl.logs_text()
    time.sleep(max(0.0, 60 - (time.monotonic() - killed)))
    crawl.redis.start()
    for out in list(crawl.outs):
        crawl.start_worker(out=out)


def test_redis_down_60_s_past_the_max_outage_workers_stop_and_a_restart_finishes(
    tmp_path: Path, site: SlowSite
) -> None:
    figures, crawl = _distributed(
        tmp_path, site, "redis_down_60s_stop_restart", _outage_past_the_limit,
        "-s", f"NEWSCRAWL_REDIS_MAX_OUTAGE={SHORT_MAX_OUTAGE_S}",
    )  # fmt: skip
    _assert_nothing_lost(figures, crawl)
    assert figures.exit_codes == [3, 3, 0, 0]
    assert not any((out / "held-redis.journal").exists() for out in crawl.outs)


def test_embedded_kill_9_and_rerun_resumes(tmp_path: Path, site: SlowSite) -> None:
    out, log = tmp_path / "out", tmp_path / "crawl.log"
    args = ["crawl", site.base_url + "/", "--out", str(out), *CRAWL_OPTIONS]
    started = time.monotonic()
    first = start_cli(args, log)
    try:
        threshold = int(len(site.pages) * FAULT_AT)
        assert wait_for(lambda: len(jsonl_items(out)) >= threshold, 300), tail(log)
        first.send_signal(signal.SIGKILL)
        first.wait()
        rerun = start_cli(args, log)
        codes = wait_all([rerun], RUN_TIMEOUT_S)
    finally:
        for proc in (first,):
            if proc.poll() is None:
                proc.kill()
    figures = count("embedded_kill9_rerun", site.pages, [out], None)
    figures.exit_codes = [-9, *codes]
    figures.elapsed_s = round(time.monotonic() - started, 1)
    figures.record()
    assert codes == [0], tail(log)
    assert figures.never_fetched == [], tail(log)
    # in flight at the kill (at most CONCURRENT_REQUESTS, plus pages held for a sibling) may be
    # fetched again; everything finished before the kill must not be
    assert figures.fetched_twice <= 4 + 8
