"""A real crawl of a local server whose replies exercise the archive: redirect, gzip body, chunked
body, non-ASCII header, 5xx (retried), 404, robots.txt, non-HTML. Every exchange must be in the
WARC as the server sent it, with its index line, and each item must point at its record. Last, a
real fault: the demo crawl with a file size limit that the WARC file reaches (a full disk)."""

from __future__ import annotations

import gzip
import io
import json
import resource
import signal
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from cdxj_indexer import CDXJIndexer
from warcio.archiveiterator import ArchiveIterator

from pipelines.archive.index import cdxj_path
from tests.crawler.demo_helpers import jsonl_items, newscrawl, path_of
from tests.crawler.http_helpers import serve


@dataclass(frozen=True)
class Served:
    status: int
    headers: tuple[tuple[str, bytes], ...]
    body: bytes
    chunks: int = 0  # > 0: sent with Transfer-Encoding: chunked, in this many chunks


def html(title: str, links: tuple[str, ...] = ()) -> bytes:
    anchors = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    text = " ".join(["A paragraph of the page called", title, "with enough words."] * 20)
    return (
        f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{title}</title></head>"
        f"<body><h1>{title}</h1><p>{text}</p><ul>{anchors}</ul></body></html>"
    ).encode()


HTML = ("Content-Type", b"text/html; charset=utf-8")
GZIPPED_PAGE = gzip.compress(html("Gzipped page"), mtime=0)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
REPLIES = {
    "/": Served(200, (HTML,), html("Home", ("/moved", "/chunked", "/accents", "/broken",
                                            "/logo", "/gone"))),
    "/moved": Served(301, (("Location", b"/gzipped"),), b""),
    "/gzipped": Served(200, (HTML, ("Content-Encoding", b"gzip")), GZIPPED_PAGE),
    "/chunked": Served(200, (HTML,), html("Chunked page"), chunks=3),
    "/accents": Served(200, (HTML, ("X-Title", "Café crème".encode())), html("Accents")),
    "/broken": Served(500, (("Content-Type", b"text/plain"),), b"server error\n"),
    "/logo": Served(200, (("Content-Type", b"image/png"),), PNG),
}
NOT_FOUND = Served(404, (("Content-Type", b"text/plain"),), b"not found\n")
#: Every exchange the crawl makes: robots.txt (a 404: all allowed) and /broken twice (a retry).
EXCHANGES = Counter(
    {**{(path, reply.status): 1 for path, reply in REPLIES.items()},
     ("/robots.txt", 404): 1, ("/gone", 404): 1, ("/broken", 500): 2}
)


class ArchiveSiteHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        reply = REPLIES.get(urlsplit(self.path).path, NOT_FOUND)
        self.send_response(reply.status)
        for name, value in reply.headers:
            self.send_header(name, value.decode("latin-1"))  # the bytes go out as they are
        if reply.chunks:
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            size = -(-len(reply.body) // reply.chunks)
            for start in range(0, len(reply.body), size):
                chunk = reply.body[start : start + size]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
            return
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        self.wfile.write(reply.body)

    def log_message(self, *args: object) -> None:
        pass


@dataclass
class Crawled:
    out: Path
    started: datetime
    ended: datetime


@pytest.fixture(scope="module")
def crawled(tmp_path_factory: pytest.TempPathFactory) -> Crawled:
    out = tmp_path_factory.mktemp("capture") / "output"
    with serve(ArchiveSiteHandler) as base:
        started = datetime.now(UTC)
        result = newscrawl(
            "crawl", f"{base}/", "--out", str(out), "--no-autothrottle",
            "--progress-interval", "0", "-s", "RETRY_TIMES=1",
        )
        ended = datetime.now(UTC)
    assert result.returncode == 0, result.stdout + result.stderr
    return Crawled(out, started, ended)


def responses(out: Path) -> list[dict]:
    """Every response record of the crawl's WARC files: headers, raw payload, position."""
    found = []
    for path in sorted((out / "warc").glob("*.warc.gz")):
        with open(path, "rb") as stream:
            records = ArchiveIterator(stream)
            for record in records:
                if record.rec_type != "response":
                    continue
                payload = record.raw_stream.read()
                records.read_to_end(record)
                found.append({
                    "path": path_of(record.rec_headers["WARC-Target-URI"]),
                    "status": int(record.http_headers.get_statuscode()),
                    "warc": record.rec_headers,
                    "http": record.http_headers,
                    "payload": payload,
                    "pointer": {"file": path.name, "offset": records.get_record_offset(),
                                "length": records.get_record_length()},
                })
    return found


def test_every_exchange_is_archived_once(crawled: Crawled) -> None:
    found = Counter((r["path"], r["status"]) for r in responses(crawled.out))
    assert found == EXCHANGES


def test_payloads_are_as_the_server_sent_them(crawled: Crawled) -> None:
    for record in responses(crawled.out):
        served = REPLIES.get(record["path"], NOT_FOUND)
        assert record["payload"] == served.body, record["path"]
        for name, value in served.headers:
            assert record["http"][name] == value.decode("utf-8"), (record["path"], name)


def test_gzip_stays_encoded_and_chunking_is_undone(crawled: Crawled) -> None:
    by_path = {r["path"]: r for r in responses(crawled.out)}
    gzipped, chunked = by_path["/gzipped"], by_path["/chunked"]
    assert gzipped["http"]["Content-Encoding"] == "gzip"
    assert gzip.decompress(gzipped["payload"]) == html("Gzipped page")
    assert chunked["http"]["Transfer-Encoding"] is None  # the payload is no longer chunked
    assert chunked["payload"] == html("Chunked page")


def test_non_ascii_header_is_stored_as_its_bytes(crawled: Crawled) -> None:
    (warc,) = (crawled.out / "warc").glob("*.warc.gz")
    record = next(r for r in responses(crawled.out) if r["path"] == "/accents")
    with open(warc, "rb") as fh:
        fh.seek(record["pointer"]["offset"])
        raw = gzip.GzipFile(fileobj=io.BytesIO(fh.read(record["pointer"]["length"]))).read()
    assert b"\r\nX-Title: Caf\xc3\xa9 cr\xc3\xa8me\r\n" in raw
    assert record["http"]["X-Title"] == "Café crème"


def test_records_carry_fetch_time_and_server_address(crawled: Crawled) -> None:
    for record in responses(crawled.out):
        when = datetime.fromisoformat(record["warc"]["WARC-Date"].replace("Z", "+00:00"))
        assert crawled.started - timedelta(seconds=1) <= when <= crawled.ended, record["path"]
        assert record["warc"]["WARC-IP-Address"] == "127.0.0.1"


def test_items_point_at_the_record_of_their_last_hop(crawled: Crawled) -> None:
    records = {json.dumps(r["pointer"], sort_keys=True): r for r in responses(crawled.out)}
    items = jsonl_items(crawled.out)
    assert sorted(path_of(i["url"]) for i in items) == ["/", "/accents", "/chunked", "/gzipped"]
    for item in items:
        record = records[json.dumps(item["warc"], sort_keys=True)]
        assert record["path"] == path_of(item["url"]) and record["status"] == 200
    gzipped = next(i for i in items if path_of(i["url"]) == "/gzipped")  # reached via /moved
    assert gzipped["title"] == "Gzipped page"


def test_each_file_has_an_index_line_per_response(crawled: Crawled) -> None:
    records = responses(crawled.out)
    lines = []
    for index in (crawled.out / "warc").glob("*.cdxj"):
        lines += [json.loads(line.split(" ", 2)[2]) for line in index.read_text().splitlines()]
    indexed = sorted((path_of(e["url"]), int(e["status"]), int(e["offset"]), int(e["length"]))
                     for e in lines)
    assert indexed == sorted(
        (r["path"], r["status"], r["pointer"]["offset"], r["pointer"]["length"]) for r in records
    )
    for warc in (crawled.out / "warc").glob("*.warc.gz"):  # the lines cdxj-indexer would write
        reference = crawled.out.parent / f"{warc.name}.reference.cdxj"
        CDXJIndexer(output=str(reference), inputs=[str(warc)], sort=True).process_all()
        assert cdxj_path(warc).read_text() == reference.read_text()



def _limit_file_size() -> None:
    """In the crawl's process: files may not grow past ``FILE_LIMIT`` (a full disk, for the WARC);
    a write past it fails with EFBIG instead of killing the process."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))


#: Over the demo crawl's JSONL file (~190 KB), under its WARC file (~1.2 MB).
FILE_LIMIT = 400_000


def test_a_failing_warc_write_loses_the_record_not_the_crawl(tmp_path: Path) -> None:
    out = tmp_path / "output"
    result = newscrawl("demo", "--out", str(out), "--progress-interval", "0",
                       preexec_fn=_limit_file_size)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads((out / "summary.json").read_text())
    items = jsonl_items(out)
    assert summary["items_written"] == len(items) == 33  # every item, archived or not
    lost = [item for item in items if item["warc"] is None]
    assert lost and summary["errors_logged"] >= len(lost)
    (warc,) = (out / "warc").glob("*.warc.gz")
    assert warc.stat().st_size <= FILE_LIMIT
    kept = {json.dumps(r["pointer"], sort_keys=True) for r in responses(out)}  # whole records
    for item in items:
        if item["warc"] is not None:
            assert json.dumps(item["warc"], sort_keys=True) in kept, item["url"]
