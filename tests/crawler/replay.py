"""A replay of a crawl's WARC files through their CDXJ indexes, as a wayback machine does it.

A URL is looked up by its SURT key (the key ``cdxj-indexer`` writes, ``surt.surt``) by bisection
in each file's sorted index; the latest capture's line gives the WARC file, offset and length,
and warcio reads the record from exactly those bytes. pywb itself is not used: it pins
``redis==2.10.6``, which cannot live beside this project's ``redis>=5``.
"""

from __future__ import annotations

import bisect
import io
import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin

import surt
from warcio.archiveiterator import ArchiveIterator


@dataclass(frozen=True)
class Replayed:
    """One archived reply: status, headers, payload as stored (not content-decoded)."""

    url: str
    status: int
    headers: dict[str, str]
    payload: bytes
    index_entry: dict

    @property
    def location(self) -> str | None:
        target = self.headers.get("location")
        return urljoin(self.url, target) if target else None


class Replay:
    """Replays the captures of the WARC files in ``warc_dir`` from their ``.cdxj`` indexes."""

    def __init__(self, warc_dir: Path) -> None:
        self.warc_dir = warc_dir
        self.indexes = []
        for path in sorted(warc_dir.glob("*.cdxj")):
            lines = path.read_text(encoding="utf-8").splitlines()
            keys = [line.split(" ", 1)[0] for line in lines]
            assert keys == sorted(keys), f"{path} is not sorted"
            self.indexes.append((keys, lines))

    def entries(self) -> list[dict]:
        """Every index entry of every file."""
        return [json.loads(line.split(" ", 2)[2]) for _, lines in self.indexes for line in lines]

    def lookup(self, url: str) -> dict | None:
        """The index entry of the latest capture of ``url``, or None."""
        key = surt.surt(url)
        found = []
        for keys, lines in self.indexes:
            at = bisect.bisect_left(keys, key)
            while at < len(keys) and keys[at] == key:
                _, timestamp, entry = lines[at].split(" ", 2)
                found.append((timestamp, json.loads(entry)))
                at += 1
        return max(found, key=lambda pair: pair[0])[1] if found else None

    def replay(self, url: str) -> Replayed | None:
        """The archived reply of ``url`` read at the index's offset and length, or None."""
        entry = self.lookup(url)
        if entry is None:
            return None
        with open(self.warc_dir / entry["filename"], "rb") as fh:
            fh.seek(int(entry["offset"]))
            data = fh.read(int(entry["length"]))
        record = next(iter(ArchiveIterator(io.BytesIO(data))))
        assert record.rec_type == "response"
        assert record.rec_headers["WARC-Target-URI"] == entry["url"]
        headers = {name.lower(): value for name, value in record.http_headers.headers}
        status = int(record.http_headers.get_statuscode())
        return Replayed(entry["url"], status, headers, record.raw_stream.read(), entry)

    def follow(self, url: str, limit: int = 10) -> list[Replayed]:
        """Replay ``url`` and the redirects from it, until a non-redirect, a missing capture, a
        loop or ``limit`` hops."""
        chain: list[Replayed] = []
        seen = set()
        while url and url not in seen and len(chain) < limit:
            seen.add(url)
            replayed = self.replay(url)
            if replayed is None:
                break
            chain.append(replayed)
            url = replayed.location if 300 <= replayed.status < 400 else None
        return chain
