"""CrawlSummary: the end-of-crawl summary, written as ``summary.json`` in the output folder.

The summary counts pages fetched, items written, items per page type, pages skipped by reason, the
sibling pairing of extracted pages (``newscrawl/siblings/*``), the PSNT wrappers of list pages
(``newscrawl/wrappers/*``), the errors logged and the time taken; :func:`summary_text` renders it
for the CLI. Hostile input has its own counts, shown when not empty: requests refused by the SSRF
rule (``newscrawl/refused/<reason>``), caps applied (``newscrawl/capped/<what>``: links per page,
records per list page) and entries read from Redis or files and rejected
(``newscrawl/rejected/<source>``: queue entries, sibling store values, stored wrappers).
"""

from __future__ import annotations

import json
import logging
import os
import time
from datetime import UTC, datetime
from pathlib import Path

from scrapy import Spider, signals
from scrapy.crawler import Crawler

logger = logging.getLogger(__name__)

__all__ = ["SUMMARY_FILE", "CrawlSummary", "build_summary", "summary_text", "wrappers_text"]

SUMMARY_FILE = "summary.json"


def _prefixed(stats: dict, prefix: str) -> dict[str, int]:
    return {k[len(prefix) :]: v for k, v in sorted(stats.items()) if k.startswith(prefix)}


def build_summary(stats: dict, elapsed_s: float, finish_reason: str) -> dict:
    """The summary of a crawl from its Scrapy stats."""
    return {
        "pages_fetched": stats.get("newscrawl/pages_fetched", 0),
        "items_written": stats.get("newscrawl/items_written", 0),
        "page_types": _prefixed(stats, "newscrawl/page_type/"),
        "skipped": _prefixed(stats, "newscrawl/skipped/"),
        "siblings": _prefixed(stats, "newscrawl/siblings/"),
        "parse": _prefixed(stats, "newscrawl/parse/"),
        "wrappers": _prefixed(stats, "newscrawl/wrappers/"),
        "leases": _prefixed(stats, "newscrawl/leases/"),
        "redis": _prefixed(stats, "newscrawl/redis/"),
        "resume": _prefixed(stats, "newscrawl/resume/"),
        "sources": _prefixed(stats, "newscrawl/sources/"),
        "politeness": _prefixed(stats, "newscrawl/politeness/"),
        "stream": {
            k: stats[f"newscrawl/{k}"]
            for k in ("items_streamed", "stream_duplicates")
            if f"newscrawl/{k}" in stats
        },
        "refused": _prefixed(stats, "newscrawl/refused/"),
        "capped": _prefixed(stats, "newscrawl/capped/"),
        "rejected": _prefixed(stats, "newscrawl/rejected/"),
        "reactor": _prefixed(stats, "newscrawl/reactor/"),
        "requests": stats.get("downloader/request_count", 0),
        "download_errors": _prefixed(stats, "downloader/exception_type_count/"),
        "errors_logged": stats.get("log_count/ERROR", 0),
        "elapsed_seconds": round(elapsed_s, 3),
        "finish_reason": finish_reason,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "pid": os.getpid(),
    }


def siblings_text(siblings: dict[str, int]) -> str:
    """The sibling-pairing line: pages extracted with a sibling, without one (why), and the rest.

    >>> siblings_text({"used": 29, "none/not_article": 3, "none/no_same_template_link": 1,
    ...                "requested": 2, "held": 1, "held_paired": 1})
    'used 29, none 4 (not_article 3, no_same_template_link 1), requested 2, held 1, held_paired 1'
    """
    none = {k.removeprefix("none/"): v for k, v in siblings.items() if k.startswith("none/")}
    parts = [f"used {siblings.get('used', 0)}", f"none {sum(none.values())}"]
    if none:
        parts[-1] += " (" + ", ".join(f"{k} {v}" for k, v in none.items()) + ")"
    others = (
        "requested",
        "request_duplicate",
        "held",
        "held_paired",
        "held_timeout",
        "held_evicted",
        "held_closed",
        "store_errors",
    )
    parts += [f"{k} {siblings[k]}" for k in others if siblings.get(k)]
    return ", ".join(parts)


def wrappers_text(wrappers: dict[str, int]) -> str:
    """The wrappers line: list pages by what their wrapper did, records found and requested.

    >>> wrappers_text({"induced": 2, "applied": 5, "records": 160, "records_requested": 150,
    ...                "none/no_sibling_list_page_to_induce_a_wrapper_from": 1, "drifted": 1,
    ...                "reinduced": 1})
    'induced 2, reinduced 1, applied 5, none 1 (no_sibling_list_page_to_induce_a_wrapper_from 1), \
records 160, records_requested 150, drifted 1'
    >>> wrappers_text({"induced": 1, "applied": 1, "single_page": 1, "records": 38})
    'induced 1, reinduced 0, applied 1, single_page 1, none 0, records 38'
    >>> wrappers_text({"confirmed": 2, "single_page": 1, "records": 70})
    'induced 0, reinduced 0, applied 0, confirmed 2, single_page 1, none 0, records 70'
    >>> wrappers_text({})
    'induced 0, reinduced 0, applied 0, none 0, records 0'
    """
    none = {k.removeprefix("none/"): v for k, v in wrappers.items() if k.startswith("none/")}
    parts = [f"{k} {wrappers.get(k, 0)}" for k in ("induced", "reinduced", "applied")]
    # pages with no wrapper holding: DWSIE's list nodes (opt-in), the records DWSIE and a wrapper
    # of the page alone agree on, that wrapper alone (neither kept)
    for event in ("dwsie", "confirmed", "single_page"):
        if wrappers.get(event):
            parts.append(f"{event} {wrappers[event]}")
    parts.append(f"none {sum(none.values())}")
    if none:
        parts[-1] += " (" + ", ".join(f"{k} {v}" for k, v in none.items()) + ")"
    parts.append(f"records {wrappers.get('records', 0)}")
    others = (
        "records_requested",
        "record_duplicate",
        "records_wait_timeout",
        "drifted",
        "store_errors",
    )
    parts += [f"{k} {wrappers[k]}" for k in others if wrappers.get(k)]
    return ", ".join(parts)


def reliability_lines(summary: dict) -> list[str]:
    """The ``sources:`` (sitemaps and feeds read), ``leases:``, ``redis:``, ``resumed:`` and
    ``stream:`` lines, for the sections present.

    >>> reliability_lines({"leases": {"taken": 9, "acked": 8, "reaped": 2},
    ...                    "redis": {"outages": 1, "outage_seconds": 5.2, "held/push": 4}})
    ... # doctest: +NORMALIZE_WHITESPACE
    ['leases:          taken 9, acked 8, reaped 2',
     'redis:           outages 1, outage_seconds 5.2, held/push 4']
    """
    lines = []
    for name, label in (("sources", "sources"), ("politeness", "politeness"), ("leases", "leases"),
                        ("redis", "redis"), ("resume", "resumed"), ("stream", "stream")):  # fmt: skip
        section = summary.get(name) or {}
        if section:
            text = ", ".join(f"{k} {v}" for k, v in section.items())
            lines.append(f"{label + ':':<17}{text}")
    return lines


def summary_text(summary: dict) -> str:
    """Human-readable lines for a summary dict."""

    def counts(d: dict[str, int]) -> str:
        return ", ".join(f"{k} {v}" for k, v in d.items()) or "none"

    hostile = [
        f"{name + ':':<17}{counts(summary[name])}"
        for name in ("refused", "capped", "rejected")
        if summary.get(name)
    ]
    return "\n".join(
        [
            f"pages fetched:   {summary['pages_fetched']}",
            f"items written:   {summary['items_written']}",
            f"page types:      {counts(summary['page_types'])}",
            f"skipped/errors:  {counts(summary['skipped'])}",
            *hostile,
            f"siblings:        {siblings_text(summary.get('siblings', {}))}",
            f"wrappers:        {wrappers_text(summary.get('wrappers', {}))}",
            *reliability_lines(summary),
            f"errors logged:   {summary['errors_logged']}",
            f"time taken:      {summary['elapsed_seconds']:.1f} s ({summary['finish_reason']})",
        ]
    )


class CrawlSummary:
    """Scrapy extension: on close, write the crawl summary to ``<NEWSCRAWL_JSONL_DIR>/summary.json``
    (logged only when ``NEWSCRAWL_JSONL_DIR`` is unset: Scrapy's feed exports replaced the output
    folder, see :class:`crawler.addons.FeedOutput`)."""

    def __init__(self, crawler: Crawler, out_dir: Path | None) -> None:
        self.crawler = crawler
        self.out_dir = out_dir
        self.started = time.monotonic()
        self.summary: dict | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlSummary:
        out = crawler.settings.get("NEWSCRAWL_JSONL_DIR")
        ext = cls(crawler, Path(out) if out else None)
        crawler.signals.connect(ext.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        return ext

    def spider_opened(self) -> None:
        self.started = time.monotonic()

    def spider_closed(self, spider: Spider, reason: str) -> None:
        stats = self.crawler.stats.get_stats()
        self.summary = build_summary(stats, time.monotonic() - self.started, reason)
        if self.out_dir is None:
            logger.info("crawl summary: %s", json.dumps(self.summary, sort_keys=True))
            return
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / SUMMARY_FILE
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.summary, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(path)
        logger.info("crawl summary written to %s", path)
