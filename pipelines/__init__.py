"""newscrawl's Scrapy item pipelines, one room per feature around the hall (``extract``).

- ``extract``: ``ExtractPipeline``, the hall: a page item in, a news item out, routed to the
  article or the list room;
- ``archive/``: the WARC archive, written by a downloader middleware (``archive.capture``, with
  ``writer``, ``records``, ``index``, ``recovery``, ``reader``; enable it with
  ``DOWNLOADER_MIDDLEWARES = CAPTURE_MIDDLEWARES``) and checked by ``archive.pipeline``;
- ``siblings/``: the same-template sibling of a page (``pairing``, ``store``, ``hold``,
  ``parsed_pages``);
- ``lists/``: list pages and their PSNT wrappers (``stage``, ``wrapper_store``, ``record_board``);
- ``sinks/``: where items go (``jsonl``, ``redis_stream`` with ``stream_groups``, ``serialize``);
- ``redis_conn/``: the worker's one Redis client (``clients``) and its ``link``;
- the floor, used by the rooms and using none: ``items`` (the typed items), ``reasons`` (why a page
  has no sibling), ``untrusted`` (bounded reads of stored data), ``throttled_log``, ``rolling``
  (rolling file names and locks of the WARC and JSONL files).

Enable them all with ``ITEM_PIPELINES = DEFAULT_PIPELINES``; each one switches itself off
(``NotConfigured``) when its settings say so: ``NEWSCRAWL_WARC_ENABLED = False``, no
``NEWSCRAWL_JSONL_DIR``, no ``NEWSCRAWL_REDIS_URL``. No work happens at import.
"""

from __future__ import annotations

from importlib import import_module

__all__ = [
    "CAPTURE_MIDDLEWARES",
    "DEFAULT_PIPELINES",
    "ExtractPipeline",
    "JsonlSinkPipeline",
    "RedisStreamPipeline",
    "WarcArchivePipeline",
]

#: ``ITEM_PIPELINES`` value: archive first, then extract, then the sinks.
DEFAULT_PIPELINES: dict[str, int] = {
    "pipelines.archive.pipeline.WarcArchivePipeline": 100,
    "pipelines.extract.ExtractPipeline": 200,
    "pipelines.sinks.jsonl.JsonlSinkPipeline": 300,
    "pipelines.sinks.redis_stream.RedisStreamPipeline": 400,
}

#: ``DOWNLOADER_MIDDLEWARES`` value: the WARC capture, after all of Scrapy's own (see
#: ``pipelines.archive.capture.CAPTURE_ORDER``).
CAPTURE_MIDDLEWARES: dict[str, int] = {"pipelines.archive.capture.WarcCaptureMiddleware": 950}


def __getattr__(name: str):
    """Import a pipeline class on first use, so ``import pipelines`` stays light."""
    modules = {
        "WarcArchivePipeline": "archive.pipeline",
        "ExtractPipeline": "extract",
        "JsonlSinkPipeline": "sinks.jsonl",
        "RedisStreamPipeline": "sinks.redis_stream",
    }
    if name not in modules:
        raise AttributeError(f"module 'pipelines' has no attribute {name!r}")
    return getattr(import_module(f"pipelines.{modules[name]}"), name)
