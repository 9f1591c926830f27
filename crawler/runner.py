"""Run one NewsSpider crawl in this process: project settings + overrides → Scrapy → summary dict."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from scrapy.crawler import CrawlerProcess
from scrapy.settings import Settings

from crawler.extensions.summary import SUMMARY_FILE, build_summary
from crawler.spiders.news import NewsSpider

logger = logging.getLogger(__name__)

__all__ = ["output_settings", "project_settings", "run_crawl"]


def output_settings(out: Path) -> dict[str, str]:
    """JSONL items in ``out``, WARC files in ``out/warc``."""
    return {"NEWSCRAWL_JSONL_DIR": str(out), "NEWSCRAWL_WARC_DIR": str(out / "warc")}


def project_settings(overrides: dict[str, Any], log_level: str = "WARNING") -> Settings:
    """``crawler.settings`` with ``overrides`` on top (command-line priority)."""
    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    settings.set("LOG_LEVEL", log_level, priority="cmdline")
    settings.update(overrides, priority="cmdline")
    if "DOWNLOAD_MAXSIZE" not in overrides:  # one size cap: the page limit is also the download cap
        settings.set(
            "DOWNLOAD_MAXSIZE", settings.getint("NEWSCRAWL_MAX_PAGE_BYTES"), priority="cmdline"
        )
    return settings


def run_crawl(settings: Settings, **spider_kwargs: Any) -> dict:
    """Crawl with NewsSpider until it closes; return the summary (also in ``summary.json``)."""
    process = CrawlerProcess(settings)
    crawler = process.create_crawler(NewsSpider)
    process.crawl(crawler, **spider_kwargs)
    process.start()
    path = Path(settings.get("NEWSCRAWL_JSONL_DIR")) / SUMMARY_FILE
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    logger.warning("no %s written; summary from the crawler's stats", path)
    return build_summary(crawler.stats.get_stats() if crawler.stats else {}, 0.0, "unknown")
