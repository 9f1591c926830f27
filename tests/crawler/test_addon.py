"""The Distributed add-on: ``scrapy crawl news -s NEWSCRAWL_REDIS_URL=...`` is a worker of a shared
crawl, as ``newscrawl worker --redis`` is (real Redis, the demo site, a real ``scrapy crawl``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from scrapy.settings import Settings

from crawler.addons import Distributed
from crawler.demo.server import DemoServer, load_site
from crawler.scheduling import DUPEFILTER_KEY
from tests.crawler.demo_helpers import Expected, newscrawl, path_of, seen_counts

ROOT = Path(__file__).parents[2]
STREAM_KEY = "newscrawl:items"
DB = 8  # this test's own database on the shared test server; flushed first


def test_the_url_turns_the_project_scheduler_into_the_shared_one():
    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    settings.set("NEWSCRAWL_REDIS_URL", "redis://127.0.0.1:1/0", priority="cmdline")
    Distributed().update_settings(settings)
    assert settings["SCHEDULER"] == "crawler.scheduling.scheduler.SharedQueueScheduler"
    assert settings["DUPEFILTER_CLASS"] == "scrapy_redis.dupefilter.RFPDupeFilter"
    assert settings["REDIS_URL"] == "redis://127.0.0.1:1/0"  # scrapy-redis's, from the one setting


def test_without_the_url_the_crawl_stays_embedded_and_explicit_settings_win():
    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    Distributed().update_settings(settings)
    assert settings["SCHEDULER"] == "crawler.scheduling.resume.ResumableScheduler"
    assert not settings.get("REDIS_URL")
    settings.set("NEWSCRAWL_REDIS_URL", "redis://127.0.0.1:1/0", priority="cmdline")
    settings.set("SCHEDULER", "my.Scheduler", priority="cmdline")
    Distributed().update_settings(settings)
    assert settings["SCHEDULER"] == "my.Scheduler"


@pytest.fixture
def redis_url(redis_server: str) -> str:
    url = redis_server.rsplit("/", 1)[0] + f"/{DB}"
    redis.Redis.from_url(url).flushdb()
    return url


def test_scrapy_crawl_with_the_redis_setting_runs_distributed(redis_url: str, tmp_path: Path):
    server = DemoServer(load_site()).start()
    try:
        expected = Expected(server.site)
        seeded = newscrawl("seed", "--redis", redis_url, *server.seed_urls())
        assert seeded.returncode == 0, seeded.stderr
        out = tmp_path / "out"
        settings = {
            "NEWSCRAWL_REDIS_URL": redis_url, "NEWSCRAWL_IDLE_TIMEOUT": "3",
            "DEPTH_LIMIT": str(load_site().manifest["depth_limit"]),
            "AUTOTHROTTLE_ENABLED": "False", "NEWSCRAWL_JSONL_DIR": str(out),
            "NEWSCRAWL_WARC_DIR": str(out / "warc"), "LOG_LEVEL": "INFO",
        }
        run = subprocess.run(
            [sys.executable, "-m", "scrapy", "crawl", "news",
             *[a for k, v in settings.items() for a in ("-s", f"{k}={v}")]],
            cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
    finally:
        server.stop()
    assert run.returncode == 0, run.stderr[-3000:]
    assert "crawler.addons.Distributed" in run.stderr  # Scrapy lists the enabled add-ons
    client = redis.Redis.from_url(redis_url)
    assert sum(seen_counts(client, DUPEFILTER_KEY % {"spider": "news"}))  # the shared seen sets
    stream = [json.loads(fields[b"item"])["url"] for _, fields in client.xrange(STREAM_KEY)]
    assert sorted(path_of(u) for u in stream) == sorted(expected.item_paths)
