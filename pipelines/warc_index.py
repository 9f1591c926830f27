"""CDXJ index of a WARC file: one sorted line per response record, beside the file.

``<name>.warc.gz`` gets ``<name>.cdxj`` when it is closed (or recovered after a crash), written by
``cdxj-indexer`` (webrecorder's indexer, the format pywb reads): ``<SURT key> <14-digit timestamp>
{"url", "mime", "status", "digest", "length", "offset", "filename"}``, sorted by key and time so a
reader can bisect it. Indexing reads the closed file again rather than collecting lines as records
are written, because the index must be sorted anyway and a crashed file's lines would have to be
cut back with it: reading the finished file gives one rule for both cases. The index is written to
a temporary name and renamed, so a ``.cdxj`` file is always whole.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from cdxj_indexer import CDXJIndexer

__all__ = ["CDXJ_SUFFIX", "WARC_SUFFIX", "cdxj_path", "index_unindexed", "write_cdxj"]

logger = logging.getLogger(__name__)

WARC_SUFFIX = ".warc.gz"
CDXJ_SUFFIX = ".cdxj"


def cdxj_path(warc: Path) -> Path:
    """The index of a WARC file.

    >>> cdxj_path(Path("out/newscrawl-20240512103000-7-00000.warc.gz")).name
    'newscrawl-20240512103000-7-00000.cdxj'
    """
    return warc.with_name(warc.name.removesuffix(WARC_SUFFIX) + CDXJ_SUFFIX)


def write_cdxj(warc: Path) -> Path:
    """Index the closed WARC file ``warc``; returns the index's path."""
    final = cdxj_path(warc)
    partial = final.with_name(f"{final.name}.{os.getpid()}.partial")
    try:
        indexer = CDXJIndexer(output=str(partial), inputs=[str(warc)], sort=True, post_append=True)
        indexer.process_all()
        os.replace(partial, final)
    finally:
        partial.unlink(missing_ok=True)
    return final


def index_unindexed(directory: Path) -> list[Path]:
    """Index every closed WARC file of ``directory`` that has no index yet (a crash came between
    closing the file and indexing it); returns the indexes written."""
    written = []
    for warc in sorted(directory.glob(f"*{WARC_SUFFIX}")):
        if not cdxj_path(warc).exists():
            written.append(write_cdxj(warc))
            logger.warning("Indexed WARC %s, closed without its index", warc)
    return written
