"""``newscrawl serve-bench``: throughput and latency of the JSON-RPC service against in-process extraction."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve-bench", help="requests/s and p50/p99 latency of `newscrawl serve` (extract_pageinfo)",
        description="Reads the pages of a dataset folder, times extract_pageinfo in this process "
        "(one page after another), then starts `newscrawl serve` on a free loopback port and sends "
        "the same pages with 1, 8 and 50 concurrent HTTP clients (each holding one keep-alive "
        "connection); prints requests per second, "
        "p50 and p99 latency, and the service's rate as a share of the in-process rate; then, with "
        "one client, each page extracted in-process and sent to the service in turn, a share "
        "that the machine's load swings weigh on alike.")
    parser.add_argument("data", metavar="DIR", help="dataset folder (gold.jsonl + pages/), e.g. aeb")
    parser.add_argument("--limit", type=int, default=60, metavar="N", help="pages (default 60)")
    parser.add_argument("--clients", default="1,8,50", help="concurrency levels (default 1,8,50)")
    parser.add_argument("--workers", type=int, default=2, help="the server's --workers (default 2)")
    parser.set_defaults(run=run)


def _pages(folder: Path, limit: int) -> list[str]:
    from evaluation.datasets import load_dataset

    dataset = load_dataset(folder, limit)
    return [p.read_bytes().decode("utf-8", "replace") for p in dataset.evaluated()]


def _extract_all(pages: list[str]) -> list[float]:
    """Seconds of in-process ``extract_pageinfo`` per page (one page after another)."""
    from extractors.dwsie import default_node_model
    from extractors.errors import BadInput
    from extractors.pageinfo import page_info

    model = default_node_model()
    seconds = []
    for html in pages:
        t = time.perf_counter()
        try:
            page_info(html, model)
        except BadInput:
            pass
        seconds.append(time.perf_counter() - t)
    return seconds


def _in_process(pages: list[str]) -> float:
    return len(pages) / sum(_extract_all(pages))


def _caller(url: str):
    """A function sending one page as ``extract_pageinfo`` and returning its seconds; one
    keep-alive session per client thread, as a client of a service holds one."""
    import requests

    local = threading.local()

    def one(call: dict) -> float:
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        t = time.perf_counter()
        reply = session.post(url, data=json.dumps(call), timeout=120,
                             headers={"Content-Type": "application/json"})
        reply.raise_for_status()
        return time.perf_counter() - t

    return one


def _calls(pages: list[str]) -> list[dict]:
    return [{"jsonrpc": "2.0", "id": k, "method": "extract_pageinfo", "params": {"html": html}}
            for k, html in enumerate(pages)]


def _interleaved(url: str, pages: list[str]) -> tuple[float, float]:
    """One client, each page extracted in this process and then sent to the service, so that the
    load of a shared machine, which swings the rates by a third between runs, weighs on both
    alike: (in-process pages/s, service requests/s)."""
    one = _caller(url)
    local = service = 0.0
    for html, call in zip(pages, _calls(pages)):
        local += _extract_all([html])[0]
        service += one(call)
    return len(pages) / local, len(pages) / service


def _level(url: str, pages: list[str], clients: int) -> dict:
    one = _caller(url)
    session_calls = _calls(pages)
    t0 = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        latencies = sorted(pool.map(one, session_calls))
    wall = time.perf_counter() - t0
    return {"clients": clients, "rps": len(pages) / wall,
            "p50_ms": statistics.median(latencies) * 1e3,
            "p99_ms": latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1e3}


def run(args: argparse.Namespace) -> int:
    import socket

    import requests

    from evaluation.cli import resolve_dataset_dir

    folder = resolve_dataset_dir(args.data)
    if not (folder / "gold.jsonl").is_file():
        print(f"newscrawl serve-bench: not a dataset folder: {folder}", file=sys.stderr)
        return 2
    pages = _pages(folder, args.limit)
    levels = [int(c) for c in args.clients.split(",") if c.strip()]
    _in_process(pages[:5])  # warm up: model load, imports
    local = _in_process(pages)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "crawler.cli", "serve", "--port", str(port),
                               "--workers", str(args.workers)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                requests.get(url + "/health", timeout=1)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        _level(url, pages[:4], 2)  # warm up the pool's processes
        rows = [_level(url, pages, c) for c in levels]
        paired = _interleaved(url, pages)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{len(pages)} pages of {folder.name}; in-process extract_pageinfo: {local:.1f} pages/s "
          f"(one process)")
    print("| clients | requests/s | p50 ms | p99 ms | share of in-process rate |\n|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['clients']} | {row['rps']:.1f} | {row['p50_ms']:.0f} | {row['p99_ms']:.0f} | "
              f"{row['rps'] / local:.2f} |")
    print(f"one client, interleaved page by page with in-process extraction: {paired[1]:.1f} "
          f"requests/s against {paired[0]:.1f} pages/s, share {paired[1] / paired[0]:.2f}")
    return 0
