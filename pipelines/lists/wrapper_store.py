"""WrapperStore: the PSNT wrappers of a crawl, one per list-page template key (paper 004).

A wrapper (``extractors.psnt.Wrapper``) extracts the records of every list page of one template. The
store keeps, per template key (the page item's ``template_key``: site + URL shape), a
:class:`StoredWrapper`: the wrapper's JSON (``Wrapper.to_json()``), its notation, the two pages it was
induced from and when, how often it has matched since, and the record counts of its last
``HISTORY_LEN`` matches (for drift detection, see :func:`drift_reason`).

- :class:`FileWrapperStore` (embedded mode): one JSON file per template key in a folder (by default
  ``<output folder>/wrappers/``), written atomically (a temporary file, fsync, ``os.replace``), read
  back on the next run, so a second crawl of a site applies the wrappers of the first.
- :class:`RedisWrapperStore` (distributed mode, ``NEWSCRAWL_REDIS_URL`` set): one Redis hash
  (``newscrawl:wrappers``), field = template key, value = the same JSON (never pickle), shared by
  every worker. Match counts are read-modify-write per list page: two workers matching the same
  template at the same instant may lose one count (the counts are for drift detection and the
  summary, not billing).

Stored JSON is untrusted (another process, or anyone with access to Redis or the folder, can write
it): :func:`read_stored` parses it within limits and :meth:`StoredWrapper.from_json` checks every
field's type and range, so a bad entry (``"matched": 1e999``, JSON nested 100 000 deep, a wrong
type) is skipped, logged and counted (``newscrawl/rejected/wrapper_entry``): its template simply
induces a new wrapper, as if none was stored.

Both are thread-safe enough to be called from worker threads; the Redis one propagates
``redis.RedisError`` (the caller counts it and goes on without the wrapper).

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> store = FileWrapperStore(folder)
>>> stored = StoredWrapper("a.org/news/", {"version": 1}, "html.body.ul(1)(li.a)[li]",
...                        ["https://a.org/news/", "https://a.org/news/?page=2"], "2024-05-12T10:00:00Z")
>>> store.put(stored)
>>> FileWrapperStore(folder).get("a.org/news/").notation   # a new store (next run) reads the file
'html.body.ul(1)(li.a)[li]'
>>> store.matched("a.org/news/", 12).history
[12]
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import statistics
import tempfile
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from extractors.psnt import MIN_LINK_GROUP
from pipelines.redis_conn.clients import crawler_redis
from pipelines.untrusted import load_json

if TYPE_CHECKING:
    import redis

    from extractors.wrapper import Wrapper

__all__ = [
    "DRIFT_RATIO",
    "HISTORY_LEN",
    "MIN_RECORDS",
    "FileWrapperStore",
    "MemoryWrapperStore",
    "RedisWrapperStore",
    "StoredWrapper",
    "WrapperStore",
    "drift_reason",
    "read_stored",
    "wrapper_store_from_crawler",
]

logger = logging.getLogger(__name__)

#: Version of the stored JSON (not of the wrapper inside it, which carries its own).
STORE_VERSION = 1
REDIS_KEY = "newscrawl:wrappers"
#: Record counts kept per wrapper for drift detection.
HISTORY_LEN = 10
#: A page with fewer records than this does not match: paper 004 drops link groups of fewer than 4
#: links (``extractors.psnt.MIN_LINK_GROUP``, the paper's value), so a wrapper's standard link group
#: never holds fewer; fewer means the structure changed.
MIN_RECORDS = MIN_LINK_GROUP
#: A sharp drop: fewer records than this share of the median of the wrapper's recent matches.
#: Not calibrated on data (no dataset has a template's list pages over time); chosen so that a
#: section page with half its usual records (a short last page) still matches while a page where
#: the wrapper finds only a stray block (typically < 1/4 of the usual records) is re-induced.
DRIFT_RATIO = 0.5
#: A stored wrapper's JSON larger than this is refused: the wrappers of the demo and of the 84
#: annotated list pages are 1-3 KB (rpaths and two source URLs); 1 MB is far above any real one.
MAX_STORED_BYTES = 1_000_000
#: Largest match count accepted from the store (a count read back, not a limit on crawling).
MAX_COUNT = 10**12


@dataclass(slots=True)
class StoredWrapper:
    """A wrapper as stored: its JSON, where and when it was induced, and how it has matched."""

    key: str
    wrapper: dict[str, Any]
    notation: str
    induced_from: list[str]
    induced_at: str
    matched: int = 0
    history: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, key: str, wrapper: Wrapper, sources: list[str | None] = ()) -> StoredWrapper:
        """A new, never matched entry for ``wrapper`` under ``key``; ``sources`` are the pages it
        was induced from when the wrapper itself does not name them."""
        return cls(key=key, wrapper=wrapper.to_json(), notation=wrapper.notation(),
                   induced_from=[u for u in wrapper.sources if u] or [u for u in sources if u],
                   induced_at=wrapper.induced_at)

    def to_json(self) -> dict[str, Any]:
        return {"store_version": STORE_VERSION, **asdict(self)}

    @classmethod
    def from_json(cls, data: Any) -> StoredWrapper:
        """Read :meth:`to_json`'s dict; ValueError for anything this store did not write."""
        if not isinstance(data, dict) or data.get("store_version") != STORE_VERSION:
            raise ValueError("not a stored wrapper of version %d" % STORE_VERSION)
        try:
            texts = [data[name] for name in ("key", "notation", "induced_at")]
            sources, wrapper = data["induced_from"], data["wrapper"]
        except KeyError as exc:
            raise ValueError(f"stored wrapper misses the field {exc}") from exc
        history = data.get("history", [])
        if not all(isinstance(t, str) for t in texts) or not isinstance(wrapper, dict) \
                or not isinstance(sources, list) or not all(isinstance(u, str) for u in sources):
            raise ValueError("stored wrapper mistypes a field (key, notation, induced_at, "
                             "induced_from, wrapper)")
        if not isinstance(history, list) or len(history) > HISTORY_LEN:
            raise ValueError(f"history must be a list of at most {HISTORY_LEN} counts")
        return cls(key=texts[0], wrapper=wrapper, notation=texts[1], induced_from=sources,
                   induced_at=texts[2], matched=_count(data.get("matched", 0), "matched"),
                   history=[_count(n, "history") for n in history])

    def note_match(self, records: int) -> None:
        self.matched += 1
        self.history = (self.history + [records])[-HISTORY_LEN:]


def _count(value: Any, name: str) -> int:
    """A stored count: an int from 0 to ``MAX_COUNT``, else ValueError naming the field."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_COUNT:
        raise ValueError(f"{name} must be a count from 0 to {MAX_COUNT}, got {value!r:.40}")
    return value


def read_stored(raw: bytes | str) -> StoredWrapper:
    """A stored wrapper from its JSON (a file or a Redis value), parsed within limits;
    ValueError (:class:`pipelines.untrusted.UntrustedData` for the JSON itself) otherwise.

    >>> read_stored('{"store_version": 1, "matched": 1e999}')
    Traceback (most recent call last):
    ...
    pipelines.untrusted.UntrustedData: not finite: 1e999
    """
    return StoredWrapper.from_json(load_json(raw, max_bytes=MAX_STORED_BYTES))


def drift_reason(records: int, history: list[int]) -> str | None:
    """Why ``records`` records from a known wrapper mean it no longer matches, or None.

    >>> drift_reason(20, [21, 19, 20]) is None, drift_reason(3, [])
    (True, 'fewer than 4 records')
    >>> drift_reason(6, [20, 22, 19, 21])
    'records dropped from a median of 20.5 to 6'
    """
    if records < MIN_RECORDS:
        return f"fewer than {MIN_RECORDS} records"
    if history:
        median = statistics.median(history)
        if records < DRIFT_RATIO * median:
            return f"records dropped from a median of {median:g} to {records}"
    return None


class WrapperStore(Protocol):
    """Where wrappers are kept (see the module docstring)."""

    def get(self, key: str) -> StoredWrapper | None:
        """The wrapper of template ``key``, or None."""
        ...

    def put(self, stored: StoredWrapper) -> None:
        """Store (or replace) the wrapper of ``stored.key``."""
        ...

    def matched(self, key: str, records: int) -> StoredWrapper | None:
        """Count one match of ``key``'s wrapper with ``records`` records; the updated wrapper."""
        ...


class MemoryWrapperStore:
    """In-process store (tests, and crawls without an output folder)."""

    def __init__(self, on_reject: Callable[[str], None] | None = None) -> None:
        self._wrappers: dict[str, StoredWrapper] = {}
        self._lock = threading.Lock()
        self.on_reject = on_reject  # called with the key of a stored entry that was unreadable

    def __len__(self) -> int:
        return len(self._wrappers)

    def get(self, key: str) -> StoredWrapper | None:
        with self._lock:
            return self._wrappers.get(key)

    def put(self, stored: StoredWrapper) -> None:
        with self._lock:
            self._wrappers[stored.key] = stored

    def matched(self, key: str, records: int) -> StoredWrapper | None:
        with self._lock:
            stored = self._wrappers.get(key)
            if stored is not None:
                stored.note_match(records)
            return stored


class FileWrapperStore(MemoryWrapperStore):
    """One JSON file per template key in ``folder``, written atomically, read back on demand."""

    def __init__(
        self, folder: str | os.PathLike[str], on_reject: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(on_reject)
        self.folder = Path(folder)

    def path(self, key: str) -> Path:
        """The file of template ``key`` (a hash: template keys hold ``/``, ``?`` and ``<``)."""
        return self.folder / (hashlib.sha1(key.encode("utf-8")).hexdigest()[:20] + ".json")

    def get(self, key: str) -> StoredWrapper | None:
        stored = super().get(key)
        if stored is None:
            stored = self._read(key)
            if stored is not None:
                super().put(stored)
        return stored

    def put(self, stored: StoredWrapper) -> None:
        super().put(stored)
        self._write(stored)

    def matched(self, key: str, records: int) -> StoredWrapper | None:
        self.get(key)  # load it from its file if this run has not yet
        stored = super().matched(key, records)
        if stored is not None:
            self._write(stored)
        return stored

    def _read(self, key: str) -> StoredWrapper | None:
        path = self.path(key)
        try:
            with open(path, "rb") as stored_file:
                raw = stored_file.read(MAX_STORED_BYTES + 1)
            stored = read_stored(raw)
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            logger.warning("ignored the unreadable wrapper file %s: %s", path, exc)
            if self.on_reject is not None:
                self.on_reject(key)
            return None
        return stored if stored.key == key else None  # a hash collision: not ours

    def _write(self, stored: StoredWrapper) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(stored.to_json(), ensure_ascii=False, indent=1, sort_keys=True)
        fd, tmp = tempfile.mkstemp(prefix=".wrapper-", suffix=".tmp", dir=self.folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path(stored.key))
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


class RedisWrapperStore:
    """Shared store: the hash ``newscrawl:wrappers``, template key → stored wrapper JSON.

    Calls block on the network (run them off the reactor thread); Redis errors propagate.
    """

    def __init__(
        self,
        client: redis.Redis,
        key: str = REDIS_KEY,
        on_reject: Callable[[str], None] | None = None,
    ) -> None:
        self.client = client
        self.key = key
        self.on_reject = on_reject

    def get(self, key: str) -> StoredWrapper | None:
        raw = self.client.hget(self.key, key)
        if raw is None:
            return None
        try:
            return read_stored(raw)
        except ValueError as exc:  # UntrustedData, UnicodeDecodeError are ValueErrors
            logger.warning("ignored an unreadable stored wrapper of %s: %s", key, exc)
            if self.on_reject is not None:
                self.on_reject(key)
            return None

    def put(self, stored: StoredWrapper) -> None:
        self.client.hset(self.key, stored.key, json.dumps(stored.to_json(), ensure_ascii=False))

    def matched(self, key: str, records: int) -> StoredWrapper | None:
        stored = self.get(key)
        if stored is not None:
            stored.note_match(records)
            self.put(stored)
        return stored


#: The store's folder inside the output folder (embedded mode).
WRAPPER_FOLDER = "wrappers"


def wrapper_store_from_crawler(crawler: Any) -> WrapperStore:
    """The wrapper store of a crawl from its settings; no network here (Redis connects on use).

    ``NEWSCRAWL_REDIS_URL`` set: :class:`RedisWrapperStore` on the hash ``NEWSCRAWL_WRAPPER_KEY``.
    Else :class:`FileWrapperStore` in ``NEWSCRAWL_WRAPPER_DIR``, by default
    ``<NEWSCRAWL_JSONL_DIR>/wrappers``; in memory only when neither folder is set.
    """
    s = crawler.settings

    def on_reject(key: str) -> None:  # an unreadable stored wrapper: the template re-induces
        crawler.stats.inc_value("newscrawl/rejected/wrapper_entry")

    url = s.get("NEWSCRAWL_REDIS_URL")
    if url:
        # the crawl's one client fails fast: an outage means "no wrapper" for a page, never a
        # stalled crawl
        key = s.get("NEWSCRAWL_WRAPPER_KEY") or REDIS_KEY
        return RedisWrapperStore(crawler_redis(crawler), key, on_reject)
    folder = s.get("NEWSCRAWL_WRAPPER_DIR")
    if not folder and s.get("NEWSCRAWL_JSONL_DIR"):
        folder = os.path.join(str(s.get("NEWSCRAWL_JSONL_DIR")), WRAPPER_FOLDER)
    return FileWrapperStore(folder, on_reject) if folder else MemoryWrapperStore(on_reject)
