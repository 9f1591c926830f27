"""Log lines for scraped and dropped items that name the page, not the whole item.

Scrapy's default formatter prints the item itself; ours carry the raw page body (hundreds of KB) until
the extract pipeline replaces them, so a dropped empty or binary page would flood the log.
"""

from __future__ import annotations

from typing import Any

from scrapy import logformatter


def _describe(item: Any) -> str:
    if isinstance(item, dict):
        return f"{item.get('kind', 'item')} {item.get('url', '?')}"
    return type(item).__name__


class NewsLogFormatter(logformatter.LogFormatter):
    """``LOG_FORMATTER`` for newscrawl: items shown as ``<kind> <url>``."""

    def dropped(self, item, exception, response, spider):
        result = super().dropped(item, exception, response, spider)
        result["msg"] = "Dropped %(item)s: %(exception)s"
        result["args"] = {"item": _describe(item), "exception": exception}
        return result

    def scraped(self, item, response, spider):
        result = super().scraped(item, response, spider)
        result["msg"] = "Scraped %(item)s"
        result["args"] = {"item": _describe(item)}
        return result
