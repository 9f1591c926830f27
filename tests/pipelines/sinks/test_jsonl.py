"""JsonlSinkPipeline: whole lines only, repair of a crash-truncated file, rotation, no bytes."""

from __future__ import annotations

import fcntl
import json
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured

from pipelines.extract import ExtractPipeline
from pipelines.sinks.jsonl import JsonlSinkPipeline
from tests.pipelines.helpers import (
    all_page_items,
    build,
    drive,
    make_crawler,
    page_item,
    run,
    run_pipeline,
)

ROOT = Path(__file__).parents[3]


def sink(tmp_path: Path, **settings):
    crawler = make_crawler({"NEWSCRAWL_JSONL_DIR": str(tmp_path), **settings})
    return crawler, build(JsonlSinkPipeline, crawler)


def news_items() -> list[dict]:
    return run_pipeline(build(ExtractPipeline, make_crawler()), all_page_items())


def read_lines(directory: Path) -> list[dict]:
    return [
        json.loads(line)
        for path in sorted(directory.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]


def test_every_item_is_one_json_line(tmp_path: Path) -> None:
    items = news_items()
    crawler, pipeline = sink(tmp_path)
    assert run_pipeline(pipeline, items) == items
    assert read_lines(tmp_path) == items
    assert crawler.stats.get_value("newscrawl/items_written") == len(items)


def test_non_ascii_text_is_written_as_is(tmp_path: Path) -> None:
    _, pipeline = sink(tmp_path)
    run_pipeline(pipeline, [{"title": "Uber刷单"}])
    (path,) = tmp_path.glob("*.jsonl")
    assert path.read_bytes() == '{"title":"Uber刷单"}\n'.encode()


def test_file_only_ever_holds_whole_lines(tmp_path: Path) -> None:
    items = news_items() * 3
    _, pipeline = sink(tmp_path)

    async def write_and_check() -> None:
        await drive(pipeline, [], close=False)
        (path,) = tmp_path.glob("*.jsonl")
        for n, item in enumerate(items, start=1):
            await pipeline.process_item(item)
            data = path.read_bytes()
            assert data.endswith(b"\n") and data.count(b"\n") == n
        pipeline.close_spider()

    run(write_and_check())


def test_lines_are_appended_through_an_o_append_descriptor(tmp_path: Path) -> None:
    _, pipeline = sink(tmp_path)
    run_pipeline(pipeline, [], close=False)
    try:
        assert fcntl.fcntl(pipeline._fd, fcntl.F_GETFL) & os.O_APPEND
    finally:
        pipeline.close_spider()


def test_bytes_in_an_item_raise_a_clear_type_error_and_write_nothing(tmp_path: Path) -> None:
    crawler, pipeline = sink(tmp_path)

    async def write_page_item() -> None:
        await drive(pipeline, [], close=False)
        try:
            await pipeline.process_item(page_item())
        finally:
            pipeline.close_spider()

    with pytest.raises(TypeError, match=r"item field 'body' holds bytes.*ExtractPipeline"):
        run(write_page_item())
    (path,) = tmp_path.glob("*.jsonl")
    assert path.stat().st_size == 0
    assert crawler.stats.get_value("newscrawl/items_written") is None


def test_truncated_last_line_is_repaired_on_open(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    whole = b'{"id":"1","title":"one"}\n{"id":"2","title":"\xe4\xba\x8c"}\n'
    partial = b'{"id":"3","title":"thr'
    crashed = tmp_path / "items-20240512100000-4242-00000.jsonl"
    crashed.write_bytes(whole + partial)
    crawler, pipeline = sink(tmp_path)
    with caplog.at_level(logging.WARNING, logger="pipelines.sinks.jsonl"):
        run_pipeline(pipeline, [{"id": "4"}])
    assert crashed.read_bytes() == whole
    assert crawler.stats.get_value("newscrawl/jsonl_repaired_bytes") == len(partial)
    assert f"dropped {len(partial)} bytes" in caplog.text
    assert [item["id"] for item in read_lines(tmp_path)] == ["1", "2", "4"]


def test_file_without_any_newline_is_emptied(tmp_path: Path) -> None:
    crashed = tmp_path / "items-20240512100000-4242-00000.jsonl"
    crashed.write_bytes(b'{"id":"1","ti' * 10_000)  # longer than one read-back chunk
    crawler, pipeline = sink(tmp_path)
    run_pipeline(pipeline, [])
    assert crashed.read_bytes() == b""
    assert crawler.stats.get_value("newscrawl/jsonl_repaired_bytes") == 130_000


def test_other_jsonl_files_in_the_folder_are_not_touched(tmp_path: Path) -> None:
    other = tmp_path / "gold.jsonl"
    other.write_bytes(b'{"id":"1"}\n{"id":"2"')
    run_pipeline(sink(tmp_path)[1], [])
    assert other.read_bytes() == b'{"id":"1"}\n{"id":"2"'


def test_file_of_a_live_writer_is_not_repaired(tmp_path: Path) -> None:
    _, writer = sink(tmp_path)
    run_pipeline(writer, [], close=False)
    (live,) = tmp_path.glob("*.jsonl")
    with open(live, "ab") as fh:  # what another process sees mid-write
        fh.write(b'{"id":"in flight')
    crawler, other = sink(tmp_path)
    run_pipeline(other, [])
    assert live.read_bytes() == b'{"id":"in flight'
    assert crawler.stats.get_value("newscrawl/jsonl_repaired_bytes") is None
    writer.close_spider()


def test_rotation_by_size(tmp_path: Path) -> None:
    items = [{"id": str(n), "text": "x" * 100} for n in range(10)]
    line_len = len(json.dumps(items[0], separators=(",", ":"))) + 1
    _, pipeline = sink(tmp_path, NEWSCRAWL_JSONL_MAX_BYTES=3 * line_len)
    run_pipeline(pipeline, items)
    files = sorted(tmp_path.glob("*.jsonl"))
    assert [p.stat().st_size // line_len for p in files] == [3, 3, 3, 1]
    assert [item["id"] for item in read_lines(tmp_path)] == [str(n) for n in range(10)]


def test_not_configured_without_a_folder() -> None:
    with pytest.raises(NotConfigured):
        build(JsonlSinkPipeline, make_crawler({"NEWSCRAWL_JSONL_DIR": ""}))


WRITER = """
import asyncio, sys
from pipelines.sinks.jsonl import JsonlSinkPipeline
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

async def main():
    crawler = get_crawler(settings_dict={"NEWSCRAWL_JSONL_DIR": sys.argv[1]})
    pipeline = build_from_crawler(JsonlSinkPipeline, crawler)
    pipeline.open_spider()
    body = "Text of an article. " * 20_000
    n = 0
    while True:
        await pipeline.process_item({"id": n, "body": body})
        n += 1
        print(n, flush=True)

asyncio.run(main())
"""


def test_killed_writer_leaves_only_whole_lines_after_repair(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        for line in proc.stdout:
            if int(line) >= 20:
                break
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
    run_pipeline(sink(tmp_path)[1], [])
    ids = [item["id"] for item in read_lines(tmp_path)]
    assert len(ids) >= 20
    assert ids == list(range(len(ids)))
