"""The WARC archive's writer, index and pointer pipeline, on Scrapy responses of fixture pages.

The exchanges here are real Scrapy ``Request``/``Response`` objects holding real fixture pages, as
the download handler hands them to the capture middleware; tests/crawler/test_warc_capture.py
and the demo crawl check the same files written by real crawls.
"""

from __future__ import annotations

import gzip
import io
import ipaddress
import json
import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from cdxj_indexer import CDXJIndexer
from scrapy.http import Request, Response
from scrapy.settings import Settings
from warcio.archiveiterator import ArchiveIterator

from pipelines import CAPTURE_MIDDLEWARES
from pipelines.archive.capture import CAPTURE_ORDER, WarcCaptureMiddleware
from pipelines.archive.index import cdxj_path
from pipelines.archive.pipeline import WarcArchivePipeline
from pipelines.archive.writer import GZIP_LEVEL, WarcWriter
from tests.pipelines.helpers import FIXTURE_PAGES, PAGES, make_crawler, page_item, run_pipeline

SENT_AT = datetime(2024, 5, 12, 10, 30, 5, 250000, tzinfo=UTC)


def exchange(name: str, status: int = 200, **headers: str) -> tuple[Request, Response]:
    """A fixture page's exchange as the download handler returns it."""
    url, content_type = FIXTURE_PAGES[name]
    request = Request(url, headers={"User-Agent": "newscrawl-tests"})
    response = Response(
        url,
        status=status,
        headers={"Content-Type": content_type, **headers},
        body=(PAGES / name).read_bytes(),
        request=request,
        ip_address=ipaddress.ip_address("192.0.2.7"),
        protocol="HTTP/1.1",
    )
    return request, response


def exchanges() -> list[tuple[Request, Response]]:
    return [exchange(name) for name in FIXTURE_PAGES]


def writer(tmp_path: Path, max_bytes: int = 1 << 30) -> tuple[WarcWriter, object]:
    crawler = make_crawler()
    warc = WarcWriter(tmp_path, "newscrawl", max_bytes, crawler.stats)
    warc.open()
    return warc, crawler


def write_all(warc: WarcWriter, pairs, *, close: bool = True) -> list[dict]:
    pointers = [warc.write_exchange(req, resp, SENT_AT) for req, resp in pairs]
    if close:
        warc.close()
    return pointers


def member(tmp_path: Path, pointer: dict):
    """The one record held by bytes [offset, offset + length) of the pointed file."""
    with open(tmp_path / pointer["file"], "rb") as fh:
        fh.seek(pointer["offset"])
        data = fh.read(pointer["length"])
    records = ArchiveIterator(io.BytesIO(data))
    record = next(iter(records))
    payload = record.raw_stream.read()
    assert next(iter(records), None) is None  # exactly one record in the span
    return record, payload


def test_pointer_spans_exactly_each_response_record(tmp_path: Path) -> None:
    warc, _ = writer(tmp_path)
    pairs = exchanges()
    for pointer, (_, response) in zip(write_all(warc, pairs), pairs, strict=True):
        record, payload = member(tmp_path, pointer)
        assert record.rec_type == "response"
        assert record.rec_headers["WARC-Target-URI"] == response.url
        assert payload == response.body


def test_record_has_fetch_date_ip_and_headers_as_received(tmp_path: Path) -> None:
    warc, _ = writer(tmp_path)
    request, response = exchange("cx_bbc-00000.html", Server="fixture")
    (pointer,) = write_all(warc, [(request, response)])
    record, _ = member(tmp_path, pointer)
    assert record.rec_headers["WARC-Date"] == "2024-05-12T10:30:05.250000Z"
    assert record.rec_headers["WARC-IP-Address"] == "192.0.2.7"
    assert record.http_headers.statusline == "200 OK"
    assert record.http_headers.protocol == "HTTP/1.1"
    assert record.http_headers["Server"] == "fixture"


def test_encoded_payload_is_kept_with_its_content_encoding(tmp_path: Path) -> None:
    warc, _ = writer(tmp_path)
    request, response = exchange("cx_bbc-00000.html")
    encoded = gzip.compress(response.body)
    response = response.replace(body=encoded, headers={**response.headers.to_unicode_dict(),
                                                       "Content-Encoding": "gzip"})
    (pointer,) = write_all(warc, [(request, response)])
    record, payload = member(tmp_path, pointer)
    assert payload == encoded
    assert record.http_headers["Content-Encoding"] == "gzip"


def test_non_ascii_header_bytes_are_stored_as_received(tmp_path: Path) -> None:
    warc, _ = writer(tmp_path)
    request, response = exchange("cx_bbc-00000.html")
    response.headers[b"X-Title"] = "Café".encode()
    response.headers[b"X-Latin"] = "Café".encode("latin-1")
    (pointer,) = write_all(warc, [(request, response)])
    with open(tmp_path / pointer["file"], "rb") as fh:
        fh.seek(pointer["offset"])
        raw = gzip.decompress(fh.read(pointer["length"]))
    assert b"\r\nX-Title: Caf\xc3\xa9\r\n" in raw  # not %-encoded, not encoded twice
    assert b"\r\nX-Latin: Caf\xe9\r\n" in raw
    record, _ = member(tmp_path, pointer)
    assert record.http_headers["X-Title"] == "Café"


def test_request_record_follows_its_response(tmp_path: Path) -> None:
    warc, _ = writer(tmp_path)
    write_all(warc, exchanges())
    (path,) = tmp_path.glob("*.warc.gz")
    with open(path, "rb") as fh:
        records = [(r.rec_type, r.rec_headers, r.http_headers) for r in ArchiveIterator(fh)]
    assert [t for t, _, _ in records] == ["warcinfo"] + ["response", "request"] * 3
    for (_, response, _), (_, request, head) in zip(records[1::2], records[2::2], strict=True):
        assert request["WARC-Concurrent-To"] == response["WARC-Record-ID"]
        assert head.protocol == "GET" and head["User-Agent"] == "newscrawl-tests"
        assert head["Host"] == response["WARC-Target-URI"].split("/")[2]


def test_index_lists_every_response_with_its_status_and_pointer(tmp_path: Path) -> None:
    warc, _ = writer(tmp_path)
    pairs = [*exchanges(), exchange("cx_bbc-00000.html", status=404)]
    pairs[-1][1]._set_url("https://www.bbc.com/missing")
    pointers = write_all(warc, pairs)
    (index,) = tmp_path.glob("*.cdxj")
    assert index == cdxj_path(tmp_path / pointers[0]["file"])
    lines = [json.loads(line.split(" ", 2)[2]) for line in index.read_text().splitlines()]
    found = {(e["url"], e["status"], int(e["offset"]), int(e["length"])) for e in lines}
    wanted = {(r.url, str(r.status), p["offset"], p["length"]) for (_, r), p in
              zip(pairs, pointers, strict=True)}
    assert found == wanted
    keys = [line.split(" ", 1)[0] for line in index.read_text().splitlines()]
    assert keys == sorted(keys)


def cdxj_indexer_output(warc: Path, tmp_path: Path) -> str:
    """What cdxj-indexer writes for ``warc`` (read from the file, as pywb's tooling does)."""
    out = tmp_path / "reference.cdxj"
    CDXJIndexer(output=str(out), inputs=[str(warc)], sort=True, post_append=True).process_all()
    return out.read_text()


def test_index_written_with_the_records_is_the_one_cdxj_indexer_reads(tmp_path: Path) -> None:
    folder = tmp_path / "warc"
    folder.mkdir()
    warc, _ = writer(folder)
    redirect = exchange("cx_bbc-00000.html", status=301, Location="/news/")
    redirect[1].headers.pop(b"Content-Type")  # no mime: cdxj-indexer leaves the field out
    pointers = write_all(warc, [*exchanges(), redirect, exchange("cx_163-00002.html", status=404)])
    warc_path = folder / pointers[0]["file"]
    assert cdxj_path(warc_path).read_text() == cdxj_indexer_output(warc_path, tmp_path)


def test_a_non_get_request_gets_its_index_from_cdxj_indexer(tmp_path: Path) -> None:
    folder = tmp_path / "warc"
    folder.mkdir()
    warc, _ = writer(folder)
    request, response = exchange("cx_bbc-00000.html")
    post = request.replace(method="POST", body=b"q=news")
    pointers = write_all(warc, [(post, response.replace(request=post))])
    warc_path = folder / pointers[0]["file"]
    index = cdxj_path(warc_path).read_text()
    assert index == cdxj_indexer_output(warc_path, tmp_path)
    assert "__wb_method=post" in index


def test_file_is_open_while_written_and_renamed_and_indexed_on_close(tmp_path: Path) -> None:
    warc, _ = writer(tmp_path)
    (pointer,) = write_all(warc, exchanges()[:1], close=False)
    assert [p.name for p in tmp_path.iterdir()] == [pointer["file"] + ".open"]
    warc.close()
    index = cdxj_path(tmp_path / pointer["file"]).name
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([pointer["file"], index])


def test_rotation_by_size_closes_and_indexes_every_full_file(tmp_path: Path) -> None:
    warc, crawler = writer(tmp_path, max_bytes=1)
    pointers = write_all(warc, exchanges(), close=False)
    warc.close()
    names = {p["file"] for p in pointers}
    assert len(names) == 3
    assert sorted(p.name for p in tmp_path.glob("*.warc.gz")) == sorted(names)  # no .open left
    assert all(cdxj_path(tmp_path / name).stat().st_size > 0 for name in names)
    assert crawler.stats.get_value("newscrawl/warc_files") == 3


def test_name_has_prefix_stamp_pid_and_serial(tmp_path: Path) -> None:
    crawler = make_crawler()
    warc = WarcWriter(tmp_path, "crawl7", 1 << 30, crawler.stats)
    warc.open()
    (pointer,) = write_all(warc, exchanges()[:1])
    assert re.fullmatch(rf"crawl7-\d{{14}}-{os.getpid()}-00000\.warc\.gz", pointer["file"])


def test_crashed_open_file_is_cut_to_its_last_whole_record_renamed_and_indexed(
    tmp_path: Path,
) -> None:
    warc, _ = writer(tmp_path)
    pointers = write_all(warc, exchanges())
    path = tmp_path / pointers[0]["file"]
    whole = path.read_bytes()
    index = cdxj_path(path).read_text()
    # A crash while writing a record: the file ends with part of the next gzip member.
    last = pointers[-1]["offset"]
    path.with_name(path.name + ".open").write_bytes(whole + whole[last : last + 500])
    path.unlink()
    cdxj_path(path).unlink()
    warc, crawler = writer(tmp_path)
    warc.close()
    assert path.read_bytes() == whole
    assert cdxj_path(path).read_text() == index
    assert crawler.stats.get_value("newscrawl/warc_files_recovered") == 1


def test_open_file_of_a_live_writer_is_left_alone(tmp_path: Path) -> None:
    live, _ = writer(tmp_path)
    (pointer,) = write_all(live, exchanges()[:1], close=False)
    other, _ = writer(tmp_path)
    other.close()
    assert (tmp_path / (pointer["file"] + ".open")).exists()
    live.close()


def test_max_bytes_must_be_positive(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="NEWSCRAWL_WARC_MAX_BYTES"):
        WarcWriter(tmp_path, "newscrawl", 0, make_crawler().stats)


def test_pipeline_counts_the_pointer_and_clears_a_missing_one() -> None:
    crawler = make_crawler()
    pipeline = WarcArchivePipeline.from_crawler(crawler)
    with_pointer = page_item()
    with_pointer["warc"] = {"file": "a.warc.gz", "offset": 310, "length": 4200}
    without = page_item()
    other = {"kind": "list", "url": "https://example.org/"}
    results = run_pipeline(pipeline, [with_pointer, without, other])
    assert results[0]["warc"] == {"file": "a.warc.gz", "offset": 310, "length": 4200}
    assert results[1]["warc"] is None
    assert results[2] == {"kind": "list", "url": "https://example.org/"}
    assert crawler.stats.get_value("newscrawl/pages_archived") == 1
    assert crawler.stats.get_value("newscrawl/warc_missing") == 1


@pytest.mark.parametrize("component", [WarcArchivePipeline, WarcCaptureMiddleware])
def test_disabled_by_setting(component: type) -> None:
    crawler = make_crawler({"NEWSCRAWL_WARC_ENABLED": False})
    with pytest.raises(NotConfigured):
        component.from_crawler(crawler)


def test_capture_sits_above_every_built_in_downloader_middleware() -> None:
    path = f"{WarcCaptureMiddleware.__module__}.{WarcCaptureMiddleware.__name__}"
    assert CAPTURE_MIDDLEWARES == {path: CAPTURE_ORDER}
    assert CAPTURE_ORDER > max(Settings().getdict("DOWNLOADER_MIDDLEWARES_BASE").values())


def test_gzip_level_changes_the_members_not_the_records(tmp_path: Path) -> None:
    levels = (1, GZIP_LEVEL, 6)
    pointers, sizes = {}, {}
    for level in levels:
        folder = tmp_path / f"level{level}"
        warc = WarcWriter(folder, "newscrawl", 1 << 30, make_crawler().stats, gzip_level=level)
        warc.open()
        pointers[level] = write_all(warc, exchanges())
        sizes[level] = sum(p["length"] for p in pointers[level])
    for level in levels[1:]:
        for fast, other in zip(pointers[1], pointers[level], strict=True):
            record_1, payload_1 = member(tmp_path / "level1", fast)
            record_n, payload_n = member(tmp_path / f"level{level}", other)
            assert payload_1 == payload_n and len(payload_1) > 1000
            assert record_1.http_headers.headers == record_n.http_headers.headers
            for name in ("WARC-Target-URI", "WARC-Date", "WARC-Payload-Digest",
                         "WARC-Block-Digest"):  # fmt: skip
                header = record_1.rec_headers.get_header(name)
                assert header == record_n.rec_headers.get_header(name)
    # level 1 compresses least and fastest, 6 most and slowest; the default sits between, its
    # members at most 15 % larger than level 6's (measured 11-13 %, archive.writer.GZIP_LEVEL)
    assert sizes[1] > sizes[GZIP_LEVEL] > sizes[6]
    assert sizes[GZIP_LEVEL] <= 1.15 * sizes[6]


def test_gzip_level_setting_reaches_the_writer_and_is_checked(tmp_path: Path) -> None:
    crawler = make_crawler({"NEWSCRAWL_WARC_DIR": str(tmp_path), "NEWSCRAWL_WARC_GZIP_LEVEL": 1})
    assert WarcCaptureMiddleware.from_crawler(crawler).writer.gzip_level == 1
    default = make_crawler({"NEWSCRAWL_WARC_DIR": str(tmp_path)})
    assert WarcCaptureMiddleware.from_crawler(default).writer.gzip_level == GZIP_LEVEL == 3
    with pytest.raises(ValueError, match="NEWSCRAWL_WARC_GZIP_LEVEL"):
        WarcWriter(tmp_path, "newscrawl", 1 << 30, make_crawler().stats, gzip_level=10)
