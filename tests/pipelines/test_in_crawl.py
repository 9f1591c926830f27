"""The pipelines inside a real Scrapy crawl (its engine and reactor), in a subprocess per reactor.

Each crawl ends at the engine's first idle check, about 5 s after the items went through.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]

CRAWL = """
import json, sys, warnings
import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.exceptions import ScrapyDeprecationWarning
from pipelines import DEFAULT_PIPELINES
from tests.pipelines.helpers import all_page_items, page_item

warnings.simplefilter("error", ScrapyDeprecationWarning)

class FixtureSpider(scrapy.Spider):
    name = "fixture"

    async def start(self):
        for item in [*all_page_items(), page_item(body=b"")]:
            yield item


out, reactor = sys.argv[1], sys.argv[2]
process = CrawlerProcess({
    "TWISTED_REACTOR": reactor,
    "ITEM_PIPELINES": DEFAULT_PIPELINES,
    "LOG_LEVEL": "WARNING",
    "TELNETCONSOLE_ENABLED": False,
    "REMOTE_CONTROL_ENABLED": False,
    "NEWSCRAWL_JSONL_DIR": out,
    "NEWSCRAWL_WARC_DIR": out + "/warc",
})
crawler = process.create_crawler(FixtureSpider)
process.crawl(crawler)
process.start()
stats = crawler.stats.get_stats()
print(json.dumps({k: v for k, v in stats.items() if k.startswith("newscrawl/")}))
"""

REACTORS = {
    "asyncio": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",  # asyncio.to_thread
    "select": "twisted.internet.selectreactor.SelectReactor",  # deferToThread
}


@pytest.fixture(scope="module")
def crawls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """Both crawls started at once (each mostly waits), as ``{name: (Popen, output folder)}``."""
    started = {}
    for name, reactor in REACTORS.items():
        out = tmp_path_factory.mktemp(f"crawl-{name}")
        proc = subprocess.Popen(
            [sys.executable, "-c", CRAWL, str(out), reactor],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        started[name] = (proc, out)
    yield started
    for proc, _ in started.values():
        proc.kill()
        proc.communicate()


@pytest.mark.parametrize("name", REACTORS)
def test_crawl_writes_news_items(crawls: dict, name: str) -> None:
    proc, out = crawls[name]
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr[-3000:]
    assert "Traceback" not in stderr, stderr[-3000:]
    stats = json.loads(stdout.splitlines()[-1])
    # the items were not downloaded: no WARC record (the capture is at the downloader)
    assert stats["newscrawl/warc_missing"] == 4
    assert stats["newscrawl/skipped/empty"] == 1
    assert stats["newscrawl/items_written"] == 3
    (jsonl,) = out.glob("items-*.jsonl")
    news = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert sorted(item["site"] for item in news) == ["36kr.com", "bbc.com", "money.163.com"]
    assert all(item["warc"] is None for item in news)
