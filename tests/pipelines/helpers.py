"""Helpers for the pipeline tests: real fixture pages as page items, a real crawler, a runner."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

PAGES = Path(__file__).parents[1] / "fixtures" / "pages"

#: Fixture pages used here (sources in tests/fixtures/SOURCES.md), with a URL and Content-Type.
FIXTURE_PAGES = {
    "cx_bbc-00000.html": ("https://www.bbc.com/news/business-27107354", "text/html; charset=utf-8"),
    "cx_163-00002.html": ("https://money.163.com/15/0723/07/fixture-00002.html", "text/html"),
    "gerapy_listdetail-00059.html": ("https://36kr.com/information/web_news/", "text/html"),
}


def page_item(
    name: str = "cx_bbc-00000.html",
    *,
    body: bytes | None = None,
    url: str | None = None,
    n: int = 0,
) -> dict[str, Any]:
    """A page item of the contract holding fixture page ``name`` (or ``body``)."""
    default_url, content_type = FIXTURE_PAGES.get(name, ("https://example.org/x", "text/html"))
    return {
        "kind": "page",
        "url": url or default_url,
        "status": 200,
        "request_headers": {"User-Agent": "newscrawl-tests", "Accept": "text/html"},
        "response_headers": {"Content-Type": [content_type], "Server": ["fixture"]},
        "body": (PAGES / name).read_bytes() if body is None else body,
        "fetched_at": f"2024-05-12T10:{n // 60 % 60:02d}:{n % 60:02d}+00:00",
        "template_key": "bbc.com/news/<slug>",
        "route": "article",
        "referer": "https://www.bbc.com/news",
        "depth": 1,
    }


def all_page_items() -> list[dict[str, Any]]:
    return [page_item(name, n=i) for i, name in enumerate(FIXTURE_PAGES)]


def make_crawler(settings: dict[str, Any] | None = None) -> Crawler:
    return get_crawler(settings_dict=settings or {})


def build(pipeline_cls: type, crawler: Crawler) -> Any:
    """The pipeline built the way Scrapy builds it (``from_crawler``)."""
    return build_from_crawler(pipeline_cls, crawler)


async def _call_if_defined(pipeline: Any, method: str) -> None:
    if hasattr(pipeline, method):
        result = getattr(pipeline, method)()
        if inspect.isawaitable(result):
            await result


def run(coro: Any) -> Any:
    """Run one coroutine in a private asyncio loop (Scrapy's reactorless asyncio mode).

    Unlike ``asyncio.run`` this leaves the thread's current event loop alone, so an asyncio
    reactor that other tests installed keeps its loop.
    """
    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(coro)
    finally:
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()


async def drive(pipeline: Any, items: Iterable[Any], *, close: bool = True) -> list[Any]:
    """open_spider, process_item for each item (a DropItem becomes the result), close_spider."""
    await _call_if_defined(pipeline, "open_spider")
    results = []
    for item in items:
        try:
            results.append(await pipeline.process_item(item))
        except DropItem as exc:
            results.append(exc)
    if close:
        await _call_if_defined(pipeline, "close_spider")
    return results


def run_pipeline(pipeline: Any, items: Iterable[Any], *, close: bool = True) -> list[Any]:
    return run(drive(pipeline, items, close=close))
