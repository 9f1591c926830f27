"""JsonlSinkPipeline: items appended as JSON lines to size-rotated files, crash-safe.

Each item is serialised whole first, then written with one ``os.write`` on an ``O_APPEND``
descriptor, so a crash can leave at most one partial last line; at start-up such a line is
cut off (files another live process holds locked are left alone). ``fsync`` on close.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured

from pipelines.rolling import lock_or_none, rolling_name
from pipelines.sinks.serialize import item_to_json

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["JsonlSinkPipeline", "repair_jsonl"]

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 256 << 20  # 256 MiB
FILE_PREFIX = "items"
_TAIL_CHUNK = 1 << 16


def repair_jsonl(fd: int) -> int:
    """Cut the file open on ``fd`` back to its last newline; return the number of bytes cut."""
    size = os.fstat(fd).st_size
    end = size
    while end > 0:
        start = max(0, end - _TAIL_CHUNK)
        chunk = os.pread(fd, end - start, start)
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            keep = start + newline + 1
            break
        end = start
    else:
        keep = 0
    if keep < size:
        os.ftruncate(fd, keep)
    return size - keep


class JsonlSinkPipeline:
    """Write every item to ``NEWSCRAWL_JSONL_DIR/items-<UTC stamp>-<pid>-<serial>.jsonl``."""

    def __init__(self, crawler: Crawler, directory: Path, max_bytes: int) -> None:
        self.crawler = crawler
        self.directory = directory
        self.max_bytes = max_bytes
        self._fd: int | None = None
        self._path: Path | None = None
        self._size = 0
        self._serial = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        directory = crawler.settings.get("NEWSCRAWL_JSONL_DIR")
        if not directory:
            raise NotConfigured("NEWSCRAWL_JSONL_DIR is not set")
        max_bytes = crawler.settings.getint("NEWSCRAWL_JSONL_MAX_BYTES", DEFAULT_MAX_BYTES)
        if max_bytes <= 0:
            raise ValueError(f"NEWSCRAWL_JSONL_MAX_BYTES must be positive, got {max_bytes}")
        return cls(crawler, Path(directory), max_bytes)

    def open_spider(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self._repair_existing()
        self._open_next()

    async def process_item(self, item: Any) -> Any:
        data = (item_to_json(item) + "\n").encode("utf-8")
        if self._size and self._size + len(data) > self.max_bytes:
            self._close()
            self._open_next()
        self._write(data)
        self.crawler.stats.inc_value("newscrawl/items_written")
        return item

    def close_spider(self) -> None:
        self._close()

    def _write(self, data: bytes) -> None:
        assert self._fd is not None, "JsonlSinkPipeline used before open_spider()"
        try:
            written = os.write(self._fd, data)
            while written < len(data):  # only on a short write (disk full...): finish or raise
                written += os.write(self._fd, data[written:])
        except OSError:
            os.ftruncate(self._fd, self._size)  # no partial line stays behind
            raise
        self._size += len(data)

    def _repair_existing(self) -> None:
        for path in sorted(self.directory.glob(f"{FILE_PREFIX}-*.jsonl")):
            fd = os.open(path, os.O_RDWR)
            try:
                if lock_or_none(fd) is None:
                    continue  # a live process is appending to it
                cut = repair_jsonl(fd)
            finally:
                os.close(fd)
            if cut:
                logger.warning("Repaired %s: dropped %d bytes of a partial last line", path, cut)
                self.crawler.stats.inc_value("newscrawl/jsonl_repaired_bytes", cut)

    def _open_next(self) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC
        while True:
            path = self.directory / rolling_name(FILE_PREFIX, self._serial, ".jsonl")
            self._serial += 1
            fd = os.open(path, flags, 0o644)
            if lock_or_none(fd) is not None:
                break
            os.close(fd)  # pragma: no cover - a live process owns that name
        self._fd, self._path, self._size = fd, path, os.fstat(fd).st_size
        logger.info("Writing items to %s", path)

    def _close(self) -> None:
        if self._fd is None:
            return
        os.fsync(self._fd)
        os.close(self._fd)
        logger.info("Closed %s (%d bytes)", self._path, self._size)
        self._fd = None
