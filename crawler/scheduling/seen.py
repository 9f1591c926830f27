"""The memory of seen URLs: 64-bit fingerprints, 8 bytes each, embedded and in Redis.

A request's fingerprint is the first 8 bytes of its SHA-1 fingerprint (Scrapy's, salted with the
round for fronts, :mod:`crawler.rounds`, in the embedded crawl; scrapy-redis's in distributed mode),
read as an unsigned 64-bit integer. Two different URLs share one with probability 2^-64; among n URLs some pair does
with probability about n²/2^65: 2.7e-4 at 100 M URLs, 2.7e-8 at 1 M. Such a collision makes the
crawl take a new article for one already seen (it is not fetched); no other error is possible (the
structures below are exact, not probabilistic filters).

Embedded (:class:`SeenSet`): a sorted numpy ``uint64`` array plus a Python ``set`` of the recent
ones, merged into the array when it holds more than 1/64 of the array (at least 65,536):
8 bytes per URL in the array, and the recent set's ~70 bytes per member over at most 1/64 of them,
so about 9 bytes per URL; a merge needs a second array for a moment (peak about 17 bytes per URL).
Measured (``newscrawl seen-bench``, 1 M URLs, Python 3.11): 9.0 bytes per URL (a recent member
costs ~67 bytes), projected to 100 M URLs 9.04 (0.90 GB; 1.70 GB at the peak of a merge), against
245 before (two Python sets of 40-character hex strings: the resume journal's and Scrapy's
dupefilter's; 24.5 GB at 100 M URLs). Adding one: ~5 µs.

Redis (:func:`seen_bucket`): the article fingerprints of one generation (see below) are spread
over :data:`SEEN_BUCKETS` sets ``<dupefilter>:g<generation>:<bucket>`` whose members are the
fingerprints as signed 64-bit integers, which Redis keeps as an *intset* (8 bytes per member,
binary search) while a set holds at most ``set-max-intset-entries`` (512 by default) members. With
2^18 buckets that is 134 M URLs in one generation at 512 per bucket on average (100 M URLs: 381
per bucket, the fullest about 480); past that a full bucket turns into a hash table (~60 bytes per
member), so a larger crawl raises ``set-max-intset-entries`` (e.g. 1024, as
``deploy/compose.yaml`` does; an insert then moves up to 8 KB). Measured on Redis 6.2
(``newscrawl seen-bench``, buckets with an expiry): 8.45 bytes per URL at 381 per bucket (100 M
URLs: 0.84 GB), against 88 before (one set of 40-character hex strings: 8.8 GB); a small crawl
pays the buckets' own cost (1 M URLs over every bucket: 48 bytes per URL; ~160 bytes a bucket,
~40 MB for a generation's 2^18, at most 5 generations live: ~200 MB).
The old set (``<dupefilter>`` itself, 40-character hex members) is still consulted,
never written: a crawl that started before this format goes on without fetching anything again.

Refetch after age (``NEWSCRAWL_REFETCH_AFTER_DAYS``, ``--refetch-after DAYS``, default
:data:`REFETCH_AFTER_DAYS`; 0: never): an article fetched more than that long ago may be fetched
(and written) again, to catch updates. The seen set is kept in *generations* of 1/:data:`GENERATIONS`
of the age, by the time a fingerprint was added (Redis's clock in distributed mode); a request is
seen when its fingerprint is in the current generation or one of the :data:`GENERATIONS` before, and
older generations are dropped whole. So an article is fetched again at the earliest ``age`` and at
the latest ``age × (1 + 1/GENERATIONS)`` after it was fetched, the next time a front links to it,
and the seen memory holds the articles of that window only. Embedded: a :class:`SeenSet` per
generation (:class:`AgedSeenSet`); Redis: ``<dupefilter>:g<generation>:<bucket>``, which expires
when its generation leaves the window (``<dupefilter>:<bucket>``, with no age, never expires and is
read in either case). Every worker of a distributed crawl must be given the same age.

Fronts (requests carrying a round) are not kept with the articles: embedded, the fronts of the
current and the previous round only; in Redis, a set per round, ``<dupefilter>:fronts:<round>``,
which expires :data:`FRONTS_TTL_S` after its last front was queued. Fronts fetched every round do
not make the memory grow round after round.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

__all__ = [
    "FRONTS_TTL_S",
    "GENERATIONS",
    "REFETCH_AFTER_DAYS",
    "AgedSeenSet",
    "generation",
    "generation_seconds",
    "SEEN_BUCKETS",
    "SeenSet",
    "fingerprint64",
    "from_hex",
    "seen_bucket",
    "signed64",
]

#: Redis buckets of the article fingerprints (fixed: every worker must use the same number).
SEEN_BUCKETS = 1 << 18
#: A round's set of front fingerprints in Redis expires this long after its last front was queued.
FRONTS_TTL_S = 24 * 3600
#: An article fetched more than this many days ago may be fetched again (0: never).
REFETCH_AFTER_DAYS = 30.0
#: Generations per refetch age (see the module docstring).
GENERATIONS = 4
#: The recent set is merged into the sorted array past max(MIN_RECENT, len(array) // RECENT_SHARE).
MIN_RECENT = 1 << 16
RECENT_SHARE = 64


def fingerprint64(fingerprint: bytes) -> int:
    """The 64-bit fingerprint of a SHA-1 request fingerprint (its first 8 bytes, big-endian).

    >>> fingerprint64(bytes.fromhex("0123456789abcdef" + "00" * 12)) == 0x0123456789ABCDEF
    True
    """
    return int.from_bytes(fingerprint[:8], "big")


def from_hex(text: str) -> int:
    """The 64-bit fingerprint of a hex fingerprint: a 40-character one of an older journal, or a
    16-character one.

    >>> from_hex("0123456789abcdef" + "0" * 24) == from_hex("0123456789abcdef") == 0x0123456789ABCDEF
    True
    """
    return int(text[:16], 16)


def signed64(fp: int) -> int:
    """``fp`` as a signed 64-bit integer, the form Redis keeps in an intset.

    >>> signed64(2**64 - 1), signed64(5)
    (-1, 5)
    """
    return fp - (1 << 64) if fp >= 1 << 63 else fp


def seen_bucket(fp: int) -> int:
    """The Redis bucket of a 64-bit fingerprint (its low bits; the intset keeps all 64).

    >>> seen_bucket(SEEN_BUCKETS + 7)
    7
    """
    return fp & (SEEN_BUCKETS - 1)


class SeenSet:
    """An exact set of 64-bit fingerprints in ~9 bytes each; see the module docstring.

    >>> seen = SeenSet([3, 1])
    >>> seen.add(2), seen.add(3), 2 in seen, 4 in seen, len(seen), seen.sorted().tolist()
    (True, False, True, False, 3, [1, 2, 3])
    """

    def __init__(self, fingerprints: Iterable[int] = ()) -> None:
        self._sorted = np.empty(0, dtype=np.uint64)
        self._recent: set[int] = set()
        self.update(fingerprints)

    def __contains__(self, fp: int) -> bool:
        if fp in self._recent:
            return True
        array = self._sorted
        i = int(array.searchsorted(np.uint64(fp)))
        return i < len(array) and int(array[i]) == fp

    def add(self, fp: int) -> bool:
        """Add ``fp``; whether it was new."""
        if fp in self:
            return False
        self._recent.add(fp)
        if len(self._recent) > max(MIN_RECENT, len(self._sorted) // RECENT_SHARE):
            self._merge()
        return True

    def update(self, fingerprints: Iterable[int] | np.ndarray) -> None:
        """Add many at once (a journal's): sorted into the array in one go."""
        if isinstance(fingerprints, np.ndarray):
            more = fingerprints.astype(np.uint64, copy=False)
        else:
            more = np.fromiter(fingerprints, dtype=np.uint64)
        if len(more):
            self._merge(more)

    def _merge(self, more: np.ndarray | None = None) -> None:
        recent = np.sort(np.fromiter(self._recent, dtype=np.uint64, count=len(self._recent)))
        if more is None:  # disjoint from the array (add() looked first): one O(n) copy
            self._sorted = np.insert(self._sorted, self._sorted.searchsorted(recent), recent)
        else:
            self._sorted = np.unique(np.concatenate([self._sorted, recent, more]))
        self._recent = set()

    def __len__(self) -> int:
        return len(self._sorted) + len(self._recent)

    def __iter__(self) -> Iterator[int]:
        return iter(self.sorted().tolist())

    def sorted(self) -> np.ndarray:
        """Every fingerprint, as a sorted ``uint64`` array."""
        if self._recent:
            self._merge()
        return self._sorted

    @property
    def nbytes(self) -> int:
        """Bytes held: the array's, and about 70 per recent fingerprint (a set slot and an int)."""
        return int(self._sorted.nbytes) + 70 * len(self._recent)


def generation_seconds(age_days: float) -> float:
    """The length of a generation for a refetch age (0: one generation, forever).

    >>> generation_seconds(30) / 86400, generation_seconds(0)
    (7.5, 0.0)
    """
    return max(0.0, age_days) * 86400 / GENERATIONS


def generation(now: float, age_days: float) -> int:
    """The generation ``now`` (Unix seconds) falls in (always 0 with no refetch age)."""
    length = generation_seconds(age_days)
    return int(now // length) if length else 0


class AgedSeenSet:
    """The embedded seen set with a refetch age: a :class:`SeenSet` per live generation.

    >>> seen = AgedSeenSet(age_days=4 / 86400)  # generations of 1 s
    >>> seen.add(7, now=100.0), seen.add(7, now=104.5), seen.add(7, now=105.0), len(seen)
    (True, False, True, 1)
    """

    def __init__(self, age_days: float = REFETCH_AFTER_DAYS) -> None:
        self.age_days = age_days
        self.generations: dict[int, SeenSet] = {}

    def current(self, now: float) -> int:
        """The generation ``now`` falls in."""
        return generation(now, self.age_days)

    def _live(self, now: float) -> int:
        """The current generation; drops the ones that left the window."""
        current = generation(now, self.age_days)
        for old in [g for g in self.generations if g < current - GENERATIONS]:
            del self.generations[old]
        return current

    def seen(self, fp: int, now: float) -> bool:
        self._live(now)
        return any(fp in gen for gen in self.generations.values())

    def add(self, fp: int, now: float) -> bool:
        """Add ``fp`` to the current generation unless a live one has it; whether it was new."""
        current = self._live(now)
        if any(fp in gen for gen in self.generations.values()):
            return False
        self.generations.setdefault(current, SeenSet()).add(fp)
        return True

    def update(self, fingerprints: Iterable[int] | np.ndarray, started: float, now: float) -> None:
        """Add a journal's fingerprints of the generation that began at ``started`` (Unix
        seconds; 0: unknown, taken as now), unless that generation has left the window."""
        current = self._live(now)
        gen = generation(started, self.age_days) if started else current
        if gen < current - GENERATIONS:
            return
        self.generations.setdefault(min(gen, current), SeenSet()).update(fingerprints)

    def started(self, gen: int) -> float:
        """When a generation began, in Unix seconds (0 with no refetch age)."""
        return gen * generation_seconds(self.age_days)

    def __contains__(self, fp: int) -> bool:
        return any(fp in gen for gen in self.generations.values())

    def __len__(self) -> int:
        return sum(len(gen) for gen in self.generations.values())

    @property
    def nbytes(self) -> int:
        return sum(gen.nbytes for gen in self.generations.values())
