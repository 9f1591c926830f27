"""WarcArchivePipeline: pages read back from the WARC files, offsets, rotation, crash recovery."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from warcio.archiveiterator import ArchiveIterator

from pipelines.archive import WarcArchivePipeline
from tests.pipelines.helpers import all_page_items, build, make_crawler, page_item, run_pipeline


def archive(tmp_path: Path, **settings):
    crawler = make_crawler({"NEWSCRAWL_WARC_DIR": str(tmp_path), **settings})
    return crawler, build(WarcArchivePipeline, crawler)


def record_at(path: Path, offset: int):
    """The first record at ``offset`` of ``path``, with its content read."""
    with open(path, "rb") as fh:
        fh.seek(offset)
        record = next(iter(ArchiveIterator(fh)))
        return record, record.content_stream().read()


def test_offset_points_at_each_pages_response_record(tmp_path: Path) -> None:
    items = all_page_items()
    bodies = [item["body"] for item in items]
    _, pipeline = archive(tmp_path)
    results = run_pipeline(pipeline, items)
    for result, body in zip(results, bodies, strict=True):
        record, content = record_at(tmp_path / result["warc"]["file"], result["warc"]["offset"])
        assert record.rec_type == "response"
        assert record.rec_headers["WARC-Target-URI"] == result["url"]
        assert record.http_headers.get_statuscode() == "200"
        assert content == body


def test_file_holds_every_page_as_response_and_request(tmp_path: Path) -> None:
    items = all_page_items()
    _, pipeline = archive(tmp_path)
    run_pipeline(pipeline, items)
    (path,) = tmp_path.glob("*.warc.gz")
    with open(path, "rb") as fh:
        records = [
            (r.rec_type, r.rec_headers.get("WARC-Target-URI"), r.rec_headers)
            for r in ArchiveIterator(fh)
        ]
    assert [t for t, _, _ in records] == ["warcinfo"] + ["response", "request"] * len(items)
    assert [uri for t, uri, _ in records if t == "response"] == [i["url"] for i in items]
    for (_, _, response), (_, _, request) in zip(records[1::2], records[2::2], strict=True):
        assert request["WARC-Concurrent-To"] == response["WARC-Record-ID"]


def test_warc_date_is_fetched_at(tmp_path: Path) -> None:
    item = page_item()
    item["fetched_at"] = "2024-05-12T12:30:05+02:00"
    _, pipeline = archive(tmp_path)
    (result,) = run_pipeline(pipeline, [item])
    record, _ = record_at(tmp_path / result["warc"]["file"], result["warc"]["offset"])
    assert record.rec_headers["WARC-Date"] == "2024-05-12T10:30:05Z"


def test_decoded_body_gets_its_own_content_length(tmp_path: Path) -> None:
    item = page_item()
    item["response_headers"]["Content-Length"] = ["12"]
    item["response_headers"]["Transfer-Encoding"] = ["chunked"]
    _, pipeline = archive(tmp_path)
    (result,) = run_pipeline(pipeline, [item])
    record, content = record_at(tmp_path / result["warc"]["file"], result["warc"]["offset"])
    assert record.http_headers["Content-Length"] == str(len(content))
    assert record.http_headers["X-Archive-Orig-Transfer-Encoding"] == "chunked"
    assert record.http_headers.get("Transfer-Encoding") is None


def test_file_is_open_while_written_and_renamed_on_close(tmp_path: Path) -> None:
    _, pipeline = archive(tmp_path)
    (result,) = run_pipeline(pipeline, [page_item()], close=False)
    assert [p.name for p in tmp_path.iterdir()] == [result["warc"]["file"] + ".open"]
    pipeline.close_spider()
    assert [p.name for p in tmp_path.iterdir()] == [result["warc"]["file"]]


def test_rotation_by_size_renames_every_full_file(tmp_path: Path) -> None:
    crawler, pipeline = archive(tmp_path, NEWSCRAWL_WARC_MAX_BYTES=1)
    items = all_page_items()
    results = run_pipeline(pipeline, items, close=False)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(r["warc"]["file"] for r in results)  # no .open left
    assert len(set(names)) == len(items)
    assert crawler.stats.get_value("newscrawl/warc_files") == len(items)


def test_name_has_prefix_stamp_pid_and_serial(tmp_path: Path) -> None:
    _, pipeline = archive(tmp_path, NEWSCRAWL_WARC_PREFIX="crawl7")
    (result,) = run_pipeline(pipeline, [page_item()])
    assert re.fullmatch(rf"crawl7-\d{{14}}-{os.getpid()}-00000\.warc\.gz", result["warc"]["file"])


def test_other_items_pass_untouched(tmp_path: Path) -> None:
    _, pipeline = archive(tmp_path)
    item = {"kind": "list", "url": "https://example.org/"}
    assert run_pipeline(pipeline, [item]) == [{"kind": "list", "url": "https://example.org/"}]
    assert list(tmp_path.iterdir()) == []


def test_disabled_by_setting() -> None:
    crawler = make_crawler({"NEWSCRAWL_WARC_ENABLED": False})
    with pytest.raises(NotConfigured):
        build(WarcArchivePipeline, crawler)


def test_crashed_open_file_is_cut_to_its_last_whole_record_and_renamed(tmp_path: Path) -> None:
    items = all_page_items()
    _, pipeline = archive(tmp_path)
    results = run_pipeline(pipeline, items)
    path = tmp_path / results[0]["warc"]["file"]
    whole = path.read_bytes()
    # A crash while writing a record: the file ends with part of the next gzip member.
    last = results[-1]["warc"]["offset"]
    path.with_name(path.name + ".open").write_bytes(whole + whole[last : last + 500])
    path.unlink()
    crawler, pipeline = archive(tmp_path)
    run_pipeline(pipeline, [])
    assert path.read_bytes() == whole
    assert crawler.stats.get_value("newscrawl/warc_files_recovered") == 1


def test_open_file_of_a_live_writer_is_left_alone(tmp_path: Path) -> None:
    _, writer = archive(tmp_path)
    (result,) = run_pipeline(writer, [page_item()], close=False)
    _, other = archive(tmp_path)
    run_pipeline(other, [])
    assert (tmp_path / (result["warc"]["file"] + ".open")).exists()
    writer.close_spider()
