"""All four pipelines in Scrapy's ItemPipelineManager, as a crawl runs them (DEFAULT_PIPELINES)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
import redis
from scrapy.exceptions import DropItem
from scrapy.pipelines import ItemPipelineManager

from pipelines import DEFAULT_PIPELINES
from tests.pipelines.helpers import all_page_items, make_crawler, page_item, run

pytestmark = pytest.mark.filterwarnings("error::scrapy.exceptions.ScrapyDeprecationWarning")


def crawl(settings: dict, items: list[dict]) -> tuple[object, list]:
    crawler = make_crawler({"ITEM_PIPELINES": DEFAULT_PIPELINES, **settings})
    manager = ItemPipelineManager.from_crawler(crawler)

    async def run_items() -> list:
        await manager.open_spider_async()
        results = []
        for item in items:
            try:
                results.append(await manager.process_item_async(item))
            except DropItem as exc:
                results.append(exc)
        await manager.close_spider_async()
        return results

    return crawler, run(run_items())


def test_pages_flow_to_jsonl_and_stream_with_their_warc_pointer(
    redis_server: str, tmp_path: Path
) -> None:
    key = f"test:chain:{uuid.uuid4().hex}"
    pages = [*all_page_items(), page_item(body=b"")]
    # The capture middleware archived each exchange at the downloader; pages carry the pointer.
    pointers = [{"file": "x.warc.gz", "offset": 310 + 5000 * n, "length": 4990} for n in range(4)]
    for page, pointer in zip(pages, pointers, strict=True):
        page["warc"] = dict(pointer)
    crawler, results = crawl(
        {
            "NEWSCRAWL_JSONL_DIR": str(tmp_path / "jsonl"),
            "NEWSCRAWL_REDIS_URL": redis_server,
            "NEWSCRAWL_STREAM_KEY": key,
        },
        pages,
    )

    news, dropped = results[:-1], results[-1]
    assert isinstance(dropped, DropItem)
    assert crawler.stats.get_value("newscrawl/skipped/empty") == 1
    assert crawler.stats.get_value("newscrawl/pages_archived") == 4
    assert [item["warc"] for item in news] == pointers[:-1]
    (jsonl,) = (tmp_path / "jsonl").iterdir()
    assert [json.loads(line) for line in jsonl.read_text().splitlines()] == news
    client = redis.Redis.from_url(redis_server)
    try:
        assert [json.loads(f[b"item"]) for _, f in client.xrange(key)] == news
    finally:
        client.close()


def test_embedded_mode_needs_no_redis(tmp_path: Path) -> None:
    crawler, results = crawl(
        {
            "NEWSCRAWL_WARC_DIR": str(tmp_path / "warc"),
            "NEWSCRAWL_JSONL_DIR": str(tmp_path / "jsonl"),
        },
        [page_item()],
    )
    assert results[0]["site"] == "bbc.com"
    assert crawler.stats.get_value("newscrawl/items_written") == 1
