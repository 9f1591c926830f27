"""The Distributed add-on: ``scrapy crawl news -s NEWSCRAWL_REDIS_URL=...`` is a worker of a shared
crawl, as ``newscrawl worker --redis`` is (real Redis, the demo site, a real ``scrapy crawl``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import redis
from scrapy.settings import Settings

from crawler.addons import Distributed, FeedOutput
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
    # one setting: scrapy-redis's REDIS_URL is neither derived nor read (its queue and dupefilter
    # run on the crawl's one client, see test_redis_connections.py)
    assert not settings.get("REDIS_URL")


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


def _project_settings(**cmdline: str) -> Settings:
    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    for name, value in cmdline.items():
        settings.set(name, value, priority="cmdline")
    return settings


def test_feed_exports_switch_off_only_the_output_folders_left_at_their_default():
    settings = _project_settings(FEEDS={"items.jsonl": {"format": "jsonlines"}},
                                 NEWSCRAWL_WARC_DIR="/data/warc")  # fmt: skip
    FeedOutput().update_settings(settings)
    assert settings.get("NEWSCRAWL_JSONL_DIR") is None  # the default ./output: off
    assert settings.get("NEWSCRAWL_WARC_DIR") == "/data/warc"  # given: kept, archive on
    assert settings.getbool("NEWSCRAWL_WARC_ENABLED", True)

    settings = _project_settings(FEEDS={"items.jsonl": {"format": "jsonlines"}})
    FeedOutput().update_settings(settings)
    assert settings.get("NEWSCRAWL_WARC_DIR") is None
    assert not settings.getbool("NEWSCRAWL_WARC_ENABLED", True)

    settings = _project_settings()  # no feed: the default folders stay
    FeedOutput().update_settings(settings)
    assert settings.get("NEWSCRAWL_JSONL_DIR") == "output"
    assert settings.get("NEWSCRAWL_WARC_DIR") == "output/warc"


def test_scrapy_crawl_with_a_feed_writes_it_and_no_output_folder(tmp_path: Path):
    """``scrapy crawl news -O items.jsonl`` from a folder of its own: the feed has the items, and
    the project's default ``./output`` (JSONL sink, WARC, summary) is not created."""
    server = DemoServer(load_site()).start()
    try:
        env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawler.settings",
               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        run = subprocess.run(
            [sys.executable, "-m", "scrapy", "crawl", "news", "-O", "items.jsonl",
             "-a", f"start_urls={server.seed_urls()[0]}", "-s", "DEPTH_LIMIT=1",
             "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "LOG_LEVEL=INFO"],
            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
    finally:
        server.stop()
    assert run.returncode == 0, run.stderr[-3000:]
    assert not (tmp_path / "output").exists()
    items = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert len(items) > 1 and all(item.get("url") for item in items)
    assert "crawler.addons.FeedOutput" in run.stderr  # Scrapy lists the enabled add-ons
    assert sorted(p.name for p in tmp_path.iterdir()) == ["items.jsonl"]
