"""newscrawl's Scrapy item pipelines: archive (WARC), extract, sinks (JSONL, Redis Stream).

The WARC archive is written by a downloader middleware (the archive room, ``archive/``: its
``capture``, ``writer``, ``records``, ``index``, ``recovery``): enable it with
``DOWNLOADER_MIDDLEWARES = CAPTURE_MIDDLEWARES``.

The extract pipeline's helpers live beside it: sibling pairing (``pairing``, ``siblings``,
``sibling_hold``), list pages and their PSNT wrappers (``lists``, ``wrappers``, ``record_board``).

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
