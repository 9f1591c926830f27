"""WarcArchivePipeline: every fetched page goes into a gzipped WARC file first.

Files are ``<prefix>-<UTC stamp>-<pid>-<serial>.warc.gz.open`` while written and renamed to
``.warc.gz`` when closed or rotated (by size). Each page item gets
``item["warc"] = {"file": <final basename>, "offset": <offset of its response record>}``.
Writing is synchronous on the reactor thread: two small gzip members and a flush per page.
"""

from __future__ import annotations

import logging
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy.exceptions import NotConfigured
from warcio.warcwriter import WARCWriter

from pipelines.rolling import lock_or_none, rolling_name
from pipelines.warc_records import WARC_VERSION, page_records
from pipelines.warc_recovery import OPEN_SUFFIX, recover_open_warcs

if TYPE_CHECKING:
    from typing import Self

    from scrapy.crawler import Crawler

__all__ = ["WarcArchivePipeline", "WarcFile"]

logger = logging.getLogger(__name__)

DEFAULT_DIR = "output/warc"
DEFAULT_PREFIX = "newscrawl"
DEFAULT_MAX_BYTES = 1 << 30  # 1 GiB, the usual WARC file size


class WarcFile:
    """One WARC file being written: ``path`` ends in ``.open`` until :meth:`close` renames it."""

    def __init__(self, path: Path, is_part_of: str = DEFAULT_PREFIX) -> None:
        self.path = path
        self.final_name = path.name.removesuffix(OPEN_SUFFIX)
        self._fh = open(path, "xb")  # noqa: SIM115 - lives until close()
        try:
            self._warcinfo_id = self._start(is_part_of)
        except BaseException:
            self._fh.close()
            path.unlink()
            raise

    def _start(self, is_part_of: str) -> str:
        """Lock the new file and write its warcinfo record; return that record's id."""
        if lock_or_none(self._fh.fileno()) is None:  # pragma: no cover - a fresh file
            raise RuntimeError(f"cannot lock new WARC file {self.path}")
        self._writer = WARCWriter(self._fh, gzip=True, warc_version=WARC_VERSION)
        info = {
            "software": "newscrawl",
            "format": "WARC File Format 1.1",
            "hostname": socket.gethostname(),
            "isPartOf": is_part_of,
        }
        warcinfo = self._writer.create_warcinfo_record(self.final_name, info)
        self._writer.write_record(warcinfo)
        self._fh.flush()
        return warcinfo.rec_headers["WARC-Record-ID"]

    @property
    def size(self) -> int:
        return self._fh.tell()

    def write_page(self, item: dict[str, Any]) -> int:
        """Append the page's response and request records; return the response record's offset."""
        response, request = page_records(self._writer, item, self._warcinfo_id)
        offset = self._fh.tell()
        try:
            self._writer.write_record(response)
            self._writer.write_record(request)
            self._fh.flush()
        except BaseException:
            self._fh.truncate(offset)  # leave no partial record behind
            self._fh.seek(offset)
            raise
        return offset

    def close(self) -> Path:
        """Flush, fsync, and rename to the final ``.warc.gz`` name; returns the final path."""
        self._fh.flush()
        os.fsync(self._fh.fileno())
        final = self.path.with_name(self.final_name)
        os.rename(self.path, final)
        self._fh.close()
        return final


class WarcArchivePipeline:
    """Archive every page item (``kind == "page"``) as WARC request + response records."""

    def __init__(self, crawler: Crawler, directory: Path, prefix: str, max_bytes: int) -> None:
        self.crawler = crawler
        self.directory = directory
        self.prefix = prefix
        self.max_bytes = max_bytes
        self._file: WarcFile | None = None
        self._serial = 0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_WARC_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_WARC_ENABLED is off")
        max_bytes = settings.getint("NEWSCRAWL_WARC_MAX_BYTES", DEFAULT_MAX_BYTES)
        if max_bytes <= 0:
            raise ValueError(f"NEWSCRAWL_WARC_MAX_BYTES must be positive, got {max_bytes}")
        directory = Path(settings.get("NEWSCRAWL_WARC_DIR") or DEFAULT_DIR)
        prefix = settings.get("NEWSCRAWL_WARC_PREFIX") or DEFAULT_PREFIX
        return cls(crawler, directory, prefix, max_bytes)

    def open_spider(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        for _path, _cut in recover_open_warcs(self.directory):
            self.crawler.stats.inc_value("newscrawl/warc_files_recovered")

    async def process_item(self, item: Any) -> Any:
        if not (isinstance(item, dict) and item.get("kind") == "page"):
            return item
        if not isinstance(item.get("body"), bytes):
            raise TypeError(
                f"page item body must be bytes, got {type(item.get('body')).__name__}"
                f" (url={item.get('url')!r})"
            )
        try:
            warc_file = self._current_file()
            offset = warc_file.write_page(item)
        except OSError:
            logger.exception("Cannot archive %s in %s", item.get("url"), self.directory)
            self.crawler.stats.inc_value("newscrawl/errors/warc_write")
            item["warc"] = None
            return item
        item["warc"] = {"file": warc_file.final_name, "offset": offset}
        self.crawler.stats.inc_value("newscrawl/pages_archived")
        if warc_file.size >= self.max_bytes:
            self._close_file()
        return item

    def close_spider(self) -> None:
        self._close_file()

    def _current_file(self) -> WarcFile:
        while self._file is None:
            name = rolling_name(self.prefix, self._serial, f".warc.gz{OPEN_SUFFIX}")
            self._serial += 1
            try:
                self._file = WarcFile(self.directory / name, self.prefix)
            except FileExistsError:  # same stamp, pid and serial as a previous process
                continue
        return self._file

    def _close_file(self) -> None:
        if self._file is None:
            return
        final = self._file.close()
        self._file = None
        self.crawler.stats.inc_value("newscrawl/warc_files")
        logger.info("Closed WARC file %s", final)
