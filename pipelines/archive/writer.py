"""The crawl's WARC files: gzipped, rolled by size, crash-safe, each with a CDXJ index.

Files are ``<prefix>-<UTC stamp>-<pid>-<serial>.warc.gz.open`` while written and renamed to
``.warc.gz`` when closed or rotated (by size); then ``<name>.cdxj`` is written beside them from
the index lines made as the records were written (:mod:`pipelines.archive.index`). Each record is
its own gzip member, written whole, so a crash leaves at most a partial last member, which
:mod:`pipelines.archive.recovery` cuts at the next start. Writing runs in the capture
middleware's one writer thread (:mod:`pipelines.archive.capture`), never on the reactor: two gzip
members and one ``os.write`` per exchange.
"""

from __future__ import annotations

import logging
import os
import socket
import zlib
from datetime import datetime
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING

from warcio.warcwriter import WARCWriter

from pipelines.archive.index import cdxj_line, index_unindexed, write_cdxj, write_lines
from pipelines.archive.records import WARC_VERSION, exchange_records
from pipelines.archive.recovery import OPEN_SUFFIX, recover_open_warcs
from pipelines.rolling import lock_or_none, rolling_name

if TYPE_CHECKING:
    from scrapy.http import Request, Response
    from scrapy.statscollectors import StatsCollector

__all__ = ["DEFAULT_MAX_BYTES", "DEFAULT_PREFIX", "WarcFile", "WarcWriter"]

logger = logging.getLogger(__name__)

DEFAULT_PREFIX = "newscrawl"
DEFAULT_MAX_BYTES = 1 << 30  # 1 GiB, the usual WARC file size
#: Default zlib level of each record's gzip member (``NEWSCRAWL_WARC_GZIP_LEVEL``). warcio's own
#: gzip writer is fixed at 9, which took twice the CPU of 6 for 0.4 % smaller members on the crawl
#: bench's pages (1.37 s against 0.67 s for 37 MB of HTML); the format is the same (one gzip member
#: per record) at any level. The gzip was the largest single cost of the crawl around the
#: extraction. Measured 2026-11-28 (one thread's CPU, best of three, 240 pages each), ms a page and
#: members as a share of the HTML: the crawl bench's cx_bbc + cx_163 pages, level 1 1.11 ms 28.0 %,
#: 2 1.19 ms 27.2 %, **3 1.34 ms 26.7 %**, 4 1.67 ms 25.0 %, 6 2.83 ms 24.1 %; aeb + big9 +
#: wcxb_dev, level 1 1.34 ms 20.6 %, 2 1.42 ms 19.8 %, **3 1.64 ms 19.3 %**, 6 3.68 ms 17.1 %.
#: Level 3 keeps 88-91 % of level 1's CPU saving over 6 (1.5-2.0 ms a page) for archives 11-13 %
#: larger than at 6 (level 1: 16-21 %).
GZIP_LEVEL = 3


class WarcFile:
    """One WARC file being written: ``path`` ends in ``.open`` until :meth:`close` renames it.

    Records are written into memory by warcio, gzipped here and written with :func:`os.write` in a loop, not
    through warcio's file writes: those ignore short writes and, through a buffered file, leave
    a failed write's bytes in the buffer for the next flush. So a write that fails (a full disk)
    is cut off the file at once and the file stays a sequence of whole records.
    """

    def __init__(self, path: Path, is_part_of: str = DEFAULT_PREFIX,
                 gzip_level: int = GZIP_LEVEL) -> None:  # fmt: skip
        self.path = path
        self.gzip_level = gzip_level
        self.final_name = path.name.removesuffix(OPEN_SUFFIX)
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        self._size = 0
        #: The index lines of the records written, and whether the file needs cdxj-indexer.
        self.index_lines: list[str] = []
        self.needs_reindex = False
        self._buffer = BytesIO()
        self._writer = WARCWriter(self._buffer, gzip=False, warc_version=WARC_VERSION)
        try:
            self._warcinfo_id = self._start(is_part_of)
        except BaseException:
            os.close(self._fd)
            path.unlink()
            raise

    def _start(self, is_part_of: str) -> str:
        """Lock the new file and write its warcinfo record; return that record's id."""
        if lock_or_none(self._fd) is None:  # pragma: no cover - a fresh file
            raise RuntimeError(f"cannot lock new WARC file {self.path}")
        info = {
            "software": "newscrawl",
            "format": "WARC File Format 1.1",
            "hostname": socket.gethostname(),
            "isPartOf": is_part_of,
        }
        warcinfo = self._writer.create_warcinfo_record(self.final_name, info)
        self._append(self._gzipped(warcinfo))
        return warcinfo.rec_headers["WARC-Record-ID"]

    @property
    def size(self) -> int:
        return self._size

    def write_exchange(
        self, request: Request, response: Response, sent_at: datetime
    ) -> tuple[int, int]:
        """Append the exchange's response and request records; return the response record's
        ``(offset, length)`` in the file (its gzip member)."""
        response_record, request_record = exchange_records(
            self._writer, request, response, sent_at, self._warcinfo_id
        )
        member = self._gzipped(response_record)
        offset = self._size
        self._append(member + self._gzipped(request_record))
        fields = {
            "mime": response_record.http_headers.get_header("Content-Type"),
            "status": str(response.status),
            "digest": response_record.rec_headers.get_header("WARC-Payload-Digest"),
        }
        pointer = {"file": self.final_name, "offset": offset, "length": len(member)}
        date = response_record.rec_headers["WARC-Date"]
        self.index_lines.append(cdxj_line(response.url, date, fields, pointer))
        self.needs_reindex |= request.method != "GET"  # cdxj-indexer keys these by method, body
        return offset, len(member)

    def _gzipped(self, record) -> bytes:
        """The record as one gzip member (written by warcio, gzipped at ``gzip_level``)."""
        self._buffer.seek(0)
        self._buffer.truncate()
        self._writer.write_record(record)
        gzip = zlib.compressobj(self.gzip_level, zlib.DEFLATED, zlib.MAX_WBITS | 16)
        with self._buffer.getbuffer() as raw:  # released before the next truncate
            return gzip.compress(raw) + gzip.flush()

    def _append(self, data: bytes) -> None:
        """Write all of ``data`` at the end, or nothing: a failed write is cut off the file."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._fd, view) :]
        except BaseException:
            os.ftruncate(self._fd, self._size)
            os.lseek(self._fd, self._size, os.SEEK_SET)
            raise
        self._size += len(data)

    def close(self) -> Path:
        """Fsync, and rename to the final ``.warc.gz`` name; returns the final path."""
        os.fsync(self._fd)
        final = self.path.with_name(self.final_name)
        os.rename(self.path, final)
        os.close(self._fd)
        return final


class WarcWriter:
    """The rolling WARC files of one crawl process in ``directory``."""

    def __init__(
        self, directory: Path, prefix: str, max_bytes: int, stats: StatsCollector,
        gzip_level: int = GZIP_LEVEL,
    ) -> None:  # fmt: skip
        if max_bytes <= 0:
            raise ValueError(f"NEWSCRAWL_WARC_MAX_BYTES must be positive, got {max_bytes}")
        if not 0 <= gzip_level <= 9:
            raise ValueError(f"NEWSCRAWL_WARC_GZIP_LEVEL must be 0 to 9, got {gzip_level}")
        self.gzip_level = gzip_level
        self.directory = directory
        self.prefix = prefix
        self.max_bytes = max_bytes
        self.stats = stats
        self._file: WarcFile | None = None
        self._serial = 0

    def open(self) -> None:
        """Create the folder; repair and index what a crashed process left in it."""
        self.directory.mkdir(parents=True, exist_ok=True)
        for _path, _cut in recover_open_warcs(self.directory):
            self.stats.inc_value("newscrawl/warc_files_recovered")
        index_unindexed(self.directory)

    def write_exchange(
        self, request: Request, response: Response, sent_at: datetime
    ) -> dict[str, int | str]:
        """Archive one exchange; returns the pointer ``{"file", "offset", "length"}`` of its
        response record. Raises ``OSError`` if the file cannot be written."""
        warc_file = self._current_file()
        offset, length = warc_file.write_exchange(request, response, sent_at)
        self.stats.inc_value("newscrawl/warc_records")
        if warc_file.size >= self.max_bytes:
            self._close_file()
        return {"file": warc_file.final_name, "offset": offset, "length": length}

    def close(self) -> None:
        """Close the current file and index it."""
        self._close_file()

    def _current_file(self) -> WarcFile:
        while self._file is None:
            name = rolling_name(self.prefix, self._serial, f".warc.gz{OPEN_SUFFIX}")
            self._serial += 1
            try:
                self._file = WarcFile(self.directory / name, self.prefix, self.gzip_level)
            except FileExistsError:  # same stamp, pid and serial as a previous process
                continue
        return self._file

    def _close_file(self) -> None:
        if self._file is None:
            return
        warc_file, self._file = self._file, None
        final = warc_file.close()
        self.stats.inc_value("newscrawl/warc_files")
        if warc_file.needs_reindex:
            write_cdxj(final)
        else:
            write_lines(final, warc_file.index_lines)
        logger.info("Closed WARC file %s", final)
