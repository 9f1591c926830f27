"""Recovery of WARC files a crashed process left open (``*.warc.gz.open``).

Every record is one gzip member, written and flushed whole, so a crash can only leave a
partial *last* member. Recovery cuts the file back to the end of its last complete member
(zlib checks each member's CRC and length) and gives it its final ``.warc.gz`` name, which
is the name the items already point at. Files locked by a live writer are left alone.
"""

from __future__ import annotations

import logging
import os
import zlib
from pathlib import Path

from pipelines.rolling import lock_or_none

__all__ = ["OPEN_SUFFIX", "complete_gzip_length", "recover_open_warcs"]

logger = logging.getLogger(__name__)

OPEN_SUFFIX = ".open"
_CHUNK = 1 << 20


def complete_gzip_length(fh) -> int:
    """Bytes from the start of ``fh`` up to the end of its last complete gzip member."""
    good = offset = 0
    fh.seek(0)
    inflater = zlib.decompressobj(wbits=31)
    pending = b""
    while True:
        data = pending or fh.read(_CHUNK)
        pending = b""
        if not data:
            return good
        try:
            inflater.decompress(data)
        except zlib.error:
            return good
        if inflater.eof:
            unused = inflater.unused_data
            offset += len(data) - len(unused)
            good = offset
            inflater = zlib.decompressobj(wbits=31)
            pending = unused
        else:
            offset += len(data)


def recover_open_warcs(directory: Path) -> list[tuple[Path, int]]:
    """Repair and rename every unlocked ``*.warc.gz.open`` in ``directory``.

    Returns ``(final path, bytes cut)`` for each file recovered.
    """
    recovered = []
    for path in sorted(directory.glob(f"*.warc.gz{OPEN_SUFFIX}")):
        with open(path, "r+b") as fh:
            if lock_or_none(fh.fileno()) is None:
                continue  # another live process is writing it
            size = os.fstat(fh.fileno()).st_size
            keep = complete_gzip_length(fh)
            fh.truncate(keep)
            final = path.with_name(path.name.removesuffix(OPEN_SUFFIX))
            if keep:
                os.rename(path, final)
            else:
                path.unlink()
        logger.warning(
            "Recovered WARC %s left open by a crash (cut %d incomplete bytes)", final, size - keep
        )
        recovered.append((final, size - keep))
    return recovered
