"""The demo site: its WARC, its builder and its server."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator

from crawler.demo import build_site
from crawler.demo.server import DemoServer, default_warc_path, load_site
from tests.crawler.demo_helpers import closed_port

DATA = Path(os.environ.get("NEWSCRAWL_DATA", Path.home() / ".cache" / "newsdata"))


def test_warc_is_small_and_every_article_is_sourced() -> None:
    assert default_warc_path().stat().st_size <= 3_000_000
    sources = (default_warc_path().parent / "SOURCES.md").read_text(encoding="utf-8")
    articles = [e for e in load_site().manifest["entries"] if e["kind"] == "article"]
    assert len(articles) == 2 * build_site.PAGES_PER_DATASET
    for entry in articles:
        assert (
            f"| `{entry['path']}` | {entry['source']['dataset']} | {entry['source']['id']} |"
            in sources
        )
        assert entry["source"]["licence"] == "MIT"


def _records(path: Path) -> list[tuple]:
    """Every record's WARC headers, HTTP headers and payload (gzip bytes may differ by zlib build)."""
    with open(path, "rb") as stream:
        return [
            (
                record.rec_headers.headers,
                record.http_headers.headers if record.http_headers else None,
                record.content_stream().read(),
            )
            for record in ArchiveIterator(stream)
        ]


@pytest.mark.skipif(not (DATA / "cx_163").is_dir(), reason=f"datasets not unpacked in {DATA}")
def test_builder_reproduces_the_committed_warc(tmp_path: Path) -> None:
    rebuilt = tmp_path / "site.warc.gz"
    assert build_site.main(["--data", str(DATA), "--out", str(rebuilt)]) == 0
    assert _records(rebuilt) == _records(default_warc_path())
    committed_sources = (default_warc_path().parent / "SOURCES.md").read_text(encoding="utf-8")
    assert (tmp_path / "SOURCES.md").read_text(encoding="utf-8") == committed_sources


def test_server_replays_exact_bytes_and_headers() -> None:
    site = load_site()
    server = DemoServer(site).start()
    try:
        path = "/money/00002.html"
        with urllib.request.urlopen(server.base_url + path) as reply:
            assert reply.read() == site.replies[path].body
            assert reply.headers["Content-Type"] == "text/html; charset=gbk"
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(server.base_url + "/no/such/page")
        assert missing.value.code == 404
    finally:
        server.stop()


def test_serve_only_serves_on_the_given_port() -> None:
    port = closed_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "crawler.cli", "demo", "--serve-only", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/robots.txt", timeout=2
                ) as reply:
                    assert b"Disallow: /private/" in reply.read()
                break
            except urllib.error.URLError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(10)
