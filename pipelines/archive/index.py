"""CDXJ index of a WARC file: one sorted line per response record, beside the file.

``<name>.warc.gz`` gets ``<name>.cdxj`` when it is closed: ``<SURT key> <14-digit timestamp>
{"url", "mime", "status", "digest", "length", "offset", "filename"}``, sorted so a reader can bisect
it, the format of webrecorder's ``cdxj-indexer`` (which pywb reads). The writer makes each line as
it writes the record (:func:`cdxj_line`, a few hundred bytes kept in memory per record until the
file closes) instead of reading the finished file again: indexing a closed file with cdxj-indexer
runs at about 15 MB/s here (a 1 GiB file: over a minute of CPU on the crawl's process). The lines
are those cdxj-indexer writes for the same records (its key and timestamp functions; the tests
compare both on real crawls). A file recovered after a crash, or one holding a request other than
GET (cdxj-indexer keys those by method and body), is indexed by cdxj-indexer itself
(:func:`write_cdxj`). The index is written to a temporary name and renamed, so a ``.cdxj`` file is
always whole.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterable
from pathlib import Path

import surt
from cdxj_indexer import CDXJIndexer
from warcio.timeutils import iso_date_to_timestamp

__all__ = [
    "CDXJ_SUFFIX",
    "WARC_SUFFIX",
    "cdxj_line",
    "cdxj_path",
    "index_unindexed",
    "write_cdxj",
    "write_lines",
]

logger = logging.getLogger(__name__)

WARC_SUFFIX = ".warc.gz"
CDXJ_SUFFIX = ".cdxj"
#: Where the media type of a Content-Type ends (cdxj-indexer's rule).
_MIME_END = re.compile(r"[;\s]")


def cdxj_path(warc: Path) -> Path:
    """The index of a WARC file.

    >>> cdxj_path(Path("out/newscrawl-20240512103000-7-00000.warc.gz")).name
    'newscrawl-20240512103000-7-00000.cdxj'
    """
    return warc.with_name(warc.name.removesuffix(WARC_SUFFIX) + CDXJ_SUFFIX)


def cdxj_line(
    url: str,
    warc_date: str,
    fields: dict[str, str | None],
    pointer: dict[str, int | str],
) -> str:
    """The index line of a response record: ``fields`` are its ``mime`` (the Content-Type),
    ``status`` and ``digest`` (WARC-Payload-Digest); None values are left out.

    >>> cdxj_line("http://Example.org/a?b=1", "2024-05-12T10:30:05.250000Z",
    ...           {"mime": "text/html; charset=utf-8", "status": "200", "digest": None},
    ...           {"file": "x.warc.gz", "offset": 310, "length": 4200})
    'org,example)/a?b=1 20240512103005 {"url": "http://Example.org/a?b=1", "mime": "text/html", \
"status": "200", "length": "4200", "offset": "310", "filename": "x.warc.gz"}'
    """
    entry: dict[str, str] = {"url": url}
    mime = fields.get("mime")
    if mime:
        entry["mime"] = _MIME_END.split(mime, 1)[0].strip()
    for name in ("status", "digest"):
        if fields.get(name) is not None:
            entry[name] = str(fields[name])
    entry.update(
        length=str(pointer["length"]), offset=str(pointer["offset"]), filename=str(pointer["file"])
    )
    return f"{surt.surt(url)} {iso_date_to_timestamp(warc_date)} {json.dumps(entry)}"


def write_lines(warc: Path, lines: Iterable[str]) -> Path:
    """Write the index of ``warc`` from its lines (sorted here); returns the index's path."""
    final = cdxj_path(warc)
    partial = final.with_name(f"{final.name}.{os.getpid()}.partial")
    try:
        partial.write_text("".join(f"{line}\n" for line in sorted(lines)), encoding="utf-8")
        os.replace(partial, final)
    finally:
        partial.unlink(missing_ok=True)
    return final


def write_cdxj(warc: Path) -> Path:
    """Index the closed WARC file ``warc`` by reading it (cdxj-indexer); returns the index path."""
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
