"""Reading pages back from a WARC file: the HTML responses, decoded, each with its pointer.

Used by ``newscrawl extract --warc`` to re-extract items without the network. warcio's
``content_stream`` undoes what the record keeps of the wire form (chunking, ``Content-Encoding``),
so the body handed on is the one the spider saw.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator
from warcio.recordloader import ArchiveLoadFailed

__all__ = ["HTML_TYPES", "ArchivedPage", "archived_pages"]

#: Media types of the responses taken as pages (those the spider extracts).
HTML_TYPES = ("text/html", "application/xhtml+xml")


@dataclass(frozen=True)
class ArchivedPage:
    """One 2xx HTML response record: its URL, Content-Type, decoded body and pointer, or
    ``error`` (why the body could not be decoded) with an empty body."""

    url: str
    content_type: str | None
    body: bytes
    pointer: dict[str, int | str]
    error: str | None = None


def _is_page(record) -> bool:
    if record.rec_type != "response" or record.http_headers is None:
        return False
    if not record.http_headers.get_statuscode().startswith("2"):
        return False
    content_type = record.http_headers.get_header("Content-Type")
    media = (content_type or "").split(";")[0].strip().lower()
    return not media or media in HTML_TYPES


def archived_pages(path: Path) -> Iterator[ArchivedPage]:
    """Every 2xx HTML (or untyped) response record of the WARC file ``path``, in file order.

    Raises ``OSError`` if the file cannot be read and ``ValueError`` if it is not a WARC file or
    holds a damaged record (after the pages before it).
    """
    with open(path, "rb") as stream:
        records = ArchiveIterator(stream)
        seen = 0  # records read so far
        try:
            for record in records:
                seen += 1
                if not _is_page(record):
                    continue
                url = record.rec_headers.get_header("WARC-Target-URI")
                content_type = record.http_headers.get_header("Content-Type")
                try:
                    body, error = record.content_stream().read(), None
                except (zlib.error, OSError, EOFError) as exc:  # a Content-Encoding gone bad
                    body, error = b"", f"cannot decode the archived body: {exc}"
                records.read_to_end(record)  # offset and length are known at the record's end
                pointer = {
                    "file": path.name,
                    "offset": records.get_record_offset(),
                    "length": records.get_record_length(),
                }
                yield ArchivedPage(url, content_type, body, pointer, error)
        except ArchiveLoadFailed as exc:
            raise ValueError(f"{path}: not a WARC file ({exc})") from exc
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            # warcio on a damaged record: a response without WARC-Target-URI raises
            # AttributeError in its own header reader
            raise ValueError(f"{path}: a damaged record after {seen} records "
                             f"({type(exc).__name__}: {exc})") from exc
