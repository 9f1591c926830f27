"""ResumableScheduler: embedded mode's scheduler, whose frontier survives ``kill -9``.

Scrapy's own scheduler (memory queue, fingerprint dupefilter) plus a journal,
``<out>/frontier.journal``: one line per request queued (``{"q": n, "fp": ..., "r": <request as
JSON>}``, through the shared queue's JSON serializer, never pickle; a front, :mod:`crawler.rounds`,
also says its round, ``"fr": round``) and one per request done
(``{"d": n}``; "done" as :mod:`crawler.scheduling.tracker` decides it: its page archived and its
item written or skipped, or its download failed, or a redirect/retry of it queued). Each line is one
``write`` on an ``O_APPEND`` descriptor, so a killed process leaves at most a partial last line, cut
off on the next start.

A crawl started on an ``--out`` that holds a journal resumes: the requests queued and not done are
queued again, every fingerprint seen stays seen (seeds and links already crawled are dropped as
duplicates), and the journal is rewritten compactly (``{"round": n}``, ``{"s8": base64, "t":
start}`` lines of 64-bit fingerprints, 8 bytes each big-endian, of the seen-set generation that
began at ``start`` (Unix seconds), ``{"fr": round, "f": [hex]}`` lines of the last two
rounds' fronts, then the pending requests). Rounds (:mod:`crawler.rounds`): a journal with requests
still to do is an unfinished crawl, resumed in its own round (its fronts are not fetched again); a
journal with none is a finished one, and the new run is the next round. A request in flight when
the process died is fetched again (at most ``CONCURRENT_REQUESTS`` of them). ``NEWSCRAWL_FRESH``
(``--fresh``) deletes the journal first.

The seen fingerprints are kept in an :class:`~crawler.scheduling.seen.AgedSeenSet` (about 9 bytes
per URL; generations older than the refetch age, ``NEWSCRAWL_REFETCH_AFTER_DAYS``, are dropped, at
the latest when the journal is rewritten; the figures are in :mod:`crawler.scheduling.seen`), the
only dupefilter of the embedded crawl
(Scrapy's, which kept a second set of 40-character strings, is not asked). The fronts of the
current and the previous round are kept apart, in a small set per round, and older rounds' are
dropped. A journal written before this format (``{"s": [40-character hex]}`` lines, ``"fp"`` of
40 characters) is read as well: each fingerprint is cut to its first 64 bits and taken as seen at
the time of reading (the age of a fingerprint is not in the older format), and the next start
rewrites the journal in the new format; its fronts stay among the seen articles (salted with their
round, they are not mistaken for articles: the round being resumed finds its fronts there), one
fingerprint per front per past round, a one-time cost.

Why not Scrapy's ``JOBDIR``: its disk queues pickle requests and write their state only on a clean
shutdown, so after ``kill -9`` the queue is lost; its ``requests.seen`` is written through a buffer.
Stats: ``newscrawl/resume/pending`` (requests queued again), ``newscrawl/resume/seen``.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
from scrapy import Request
from scrapy.core.scheduler import Scheduler
from scrapy.utils.request import request_from_dict

from crawler.rounds import ROUND_META
from crawler.scheduling.seen import REFETCH_AFTER_DAYS, AgedSeenSet, fingerprint64, from_hex
from crawler.scheduling.tracker import LEASE_META, lease_tracker
from crawler.serializers import json_request
from pipelines.sinks.jsonl import repair_jsonl

logger = logging.getLogger(__name__)

__all__ = ["JOURNAL_FILE", "ResumableScheduler", "read_journal"]

JOURNAL_FILE = "frontier.journal"
JOURNAL_META = "newscrawl_journal"
#: Fingerprints per ``{"s8": ...}`` line of a compacted journal (800 KB of them, base64).
SEEN_PER_LINE = 100_000
#: Rounds whose fronts are kept (the current one and the one before).
FRONT_ROUNDS = 2

Fronts = dict[int, set[int]]


def read_journal(
    path: Path, age_days: float = REFETCH_AFTER_DAYS, now: float | None = None
) -> tuple[list[str], AgedSeenSet, Fronts, int | None]:
    """(requests queued and not done, as JSON text, in order; every article fingerprint seen less
    than the refetch age ago, :mod:`crawler.scheduling.seen`; the fingerprints of the fronts of the
    last two rounds, by round; the last round of the crawl that wrote it, its ``round`` line or
    the latest round of its fronts, :mod:`crawler.rounds`). Reads
    the older format too (see the module docstring)."""
    now = time.time() if now is None else now
    queued: dict[int, str] = {}
    done: set[int] = set()
    seen = AgedSeenSet(age_days)
    recent: list[int] = []
    dated: dict[float, list[int]] = {}  # fingerprints of "q" lines by their generation's start
    fronts: Fronts = {}
    crawl_round: int | None = None
    with open(path, "rb") as fh:
        for line in fh:
            try:
                entry = json.loads(line)
            except ValueError:
                continue  # a partial line from a crash (cut off before, but be safe)
            if not isinstance(entry, dict):
                continue
            try:
                if isinstance(entry.get("q"), int) and isinstance(entry.get("r"), str):
                    queued[entry["q"]] = entry["r"]
                    if isinstance(entry.get("fp"), str):
                        if isinstance(entry.get("t"), (int, float)) and "fr" not in entry:
                            dated.setdefault(entry["t"], []).append(from_hex(entry["fp"]))
                        else:
                            _note(from_hex(entry["fp"]), entry.get("fr"), recent, fronts)
                elif isinstance(entry.get("d"), int):
                    done.add(entry["d"])
                elif isinstance(entry.get("s8"), str):
                    started = entry.get("t") if isinstance(entry.get("t"), (int, float)) else 0
                    fps = np.frombuffer(base64.b64decode(entry["s8"]), dtype=">u8")
                    seen.update(fps, started, now)
                elif isinstance(entry.get("f"), list):
                    for fp in entry["f"]:
                        _note(from_hex(fp), entry.get("fr"), recent, fronts)
                elif isinstance(entry.get("s"), list):  # the older format: 40-character hex
                    recent.extend(from_hex(fp) for fp in entry["s"] if isinstance(fp, str))
                elif isinstance(entry.get("round"), int):
                    crawl_round = entry["round"]
            except (ValueError, TypeError):
                continue  # a damaged entry: skipped, like a partial line
    seen.update(recent, 0, now)  # of unknown age: taken as seen now
    for started, fps in dated.items():
        seen.update(fps, started, now)
    if fronts:  # a crawl of several rounds (--rounds) wrote its later rounds' fronts only
        crawl_round = max(fronts) if crawl_round is None else max(crawl_round, max(fronts))
    for old in sorted(fronts)[:-FRONT_ROUNDS]:
        del fronts[old]
    return [queued[n] for n in sorted(queued) if n not in done], seen, fronts, crawl_round


def _note(fp: int, crawl_round: Any, articles: list[int], fronts: Fronts) -> None:
    if isinstance(crawl_round, int):
        fronts.setdefault(crawl_round, set()).add(fp)
    else:
        articles.append(fp)


class ResumableScheduler(Scheduler):
    """Scrapy's scheduler + a kill-safe journal of the frontier; see the module docstring."""

    @classmethod
    def from_crawler(cls, crawler: Any) -> ResumableScheduler:
        scheduler = super().from_crawler(crawler)
        out = crawler.settings.get("NEWSCRAWL_JSONL_DIR")
        scheduler.journal_path = Path(out) / JOURNAL_FILE if out else None
        scheduler.fresh = crawler.settings.getbool("NEWSCRAWL_FRESH")
        scheduler.age_days = crawler.settings.getfloat(
            "NEWSCRAWL_REFETCH_AFTER_DAYS", REFETCH_AFTER_DAYS
        )
        scheduler.tracker = lease_tracker(crawler)
        scheduler.crawler = crawler
        return scheduler

    def open(self, spider: Any) -> Any:
        result = super().open(spider)
        self._fd: int | None = None
        self._next = 1
        self._seen = AgedSeenSet(self.age_days)
        self._fronts: Fronts = {}
        self.tracker.on_done = self._on_done
        if self.journal_path is None:
            return result
        self.journal_path.parent.mkdir(parents=True, exist_ok=True)
        if self.fresh and self.journal_path.exists():
            self.journal_path.unlink()
            logger.info("--fresh: frontier journal %s deleted", self.journal_path)
        pending: list[str] = []
        if self.journal_path.exists():
            pending, self._seen, self._fronts, crawl_round = self._read_existing()
            if pending and crawl_round is not None and hasattr(spider, "round"):
                spider.round = crawl_round  # an unfinished crawl: resume its round, not a new one
            elif crawl_round is not None and getattr(spider, "round", None) is not None:
                # the next round: a round is its start second, and a run starting within the
                # second the last one started must not take its round (its fronts would be seen)
                spider.round = max(spider.round, crawl_round + 1)
        self._rewrite(pending, getattr(spider, "round", None))
        return result

    def _read_existing(self) -> tuple[list[str], AgedSeenSet, Fronts, int | None]:
        fd = os.open(self.journal_path, os.O_RDWR)
        try:
            repair_jsonl(fd)
        finally:
            os.close(fd)
        pending, seen, fronts, crawl_round = read_journal(self.journal_path, self.age_days)
        self.stats.inc_value("newscrawl/resume/pending", len(pending))
        self.stats.inc_value("newscrawl/resume/seen", len(seen))
        logger.warning(
            "resuming the crawl in %s: %d requests still to do, %d seen (--fresh starts over)",
            self.journal_path.parent, len(pending), len(seen),
        )  # fmt: skip
        return pending, seen, fronts, crawl_round

    def _rewrite(self, pending: list[str], crawl_round: int | None = None) -> None:
        """A compact journal: the round, the seen fingerprints, the fronts of the last two rounds,
        then the pending requests (queued again)."""
        tmp = self.journal_path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            if crawl_round is not None:
                fh.write(json.dumps({"round": crawl_round}) + "\n")
            for gen, fingerprints in sorted(self._seen.generations.items()):
                seen = fingerprints.sorted().astype(">u8")
                started = int(self._seen.started(gen))
                for start in range(0, len(seen), SEEN_PER_LINE):
                    chunk = base64.b64encode(seen[start : start + SEEN_PER_LINE].tobytes())
                    fh.write(f'{{"s8": "{chunk.decode("ascii")}", "t": {started}}}\n')
            for front_round, fps in sorted(self._fronts.items()):
                fh.write(json.dumps({"fr": front_round, "f": [f"{fp:016x}" for fp in fps]}) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        tmp.replace(self.journal_path)
        flags = os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC
        self._fd = os.open(self.journal_path, flags)
        for text in pending:
            try:
                request = request_from_dict(json_request.loads(text), spider=self.spider)
            except Exception as error:  # an entry we cannot read: counted, never fatal
                logger.error("dropping an unreadable journal entry: %s", error)
                self.stats.inc_value("newscrawl/resume/bad_entries")
                continue
            self._journal_queued(request, text)
            self._mqpush(request)

    def close(self, reason: str) -> Any:
        result = super().close(reason)
        if getattr(self, "_fd", None) is not None:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None
        return result

    def enqueue_request(self, request: Request) -> bool:
        """Scrapy's ``enqueue_request`` with our seen set as the dupefilter, and the journal."""
        parent = request.meta.pop(LEASE_META, None)
        request.meta.pop(JOURNAL_META, None)
        fingerprint = fingerprint64(self.crawler.request_fingerprinter.fingerprint(request))
        crawl_round = request.meta.get(ROUND_META)
        if not request.dont_filter and not self._admit(fingerprint, crawl_round):
            self.df.log(request, self.spider)
            self.tracker.hand_over(parent)
            return False
        if self._dqpush(request):
            self.stats.inc_value("scheduler/enqueued/disk")
        else:
            self._mqpush(request)
            self.stats.inc_value("scheduler/enqueued/memory")
        self.stats.inc_value("scheduler/enqueued")
        if self._fd is not None:
            request_json = json_request.dumps(json_request.request_dict(request, self.spider))
            text = request_json.decode("utf-8")
            self._journal_queued(request, text, fingerprint, crawl_round)
        self.tracker.hand_over(parent)
        return True

    def _admit(self, fingerprint: int, crawl_round: int | None) -> bool:
        """Whether a request is new (and from now on seen): an article in the seen set, a front in
        its round's set; a front of a new round drops the fronts of the round before last."""
        if crawl_round is None:
            return self._seen.add(fingerprint, time.time())
        fronts = self._fronts.get(crawl_round)
        if fronts is None:
            fronts = self._fronts[crawl_round] = set()
            for old in sorted(self._fronts)[:-FRONT_ROUNDS]:
                del self._fronts[old]
        if fingerprint in fronts or fingerprint in self._seen:  # the latter: an older journal's
            return False
        fronts.add(fingerprint)
        return True

    def next_request(self) -> Request | None:
        request = super().next_request()
        if request is not None and JOURNAL_META in request.meta:
            self.tracker.take(request, request.meta[JOURNAL_META])
        return request

    def _journal_queued(
        self, request: Request, text: str, fingerprint: int | None = None,
        crawl_round: int | None = None,
    ) -> None:  # fmt: skip
        number = self._next
        self._next += 1
        request.meta[JOURNAL_META] = number
        entry: dict[str, Any] = {"q": number, "fp": None, "r": text}
        if fingerprint is not None:
            entry["fp"] = f"{fingerprint:016x}"
            if crawl_round is not None:
                entry["fr"] = crawl_round
            else:  # when the article was seen: the start of its generation
                entry["t"] = int(self._seen.started(self._seen.current(time.time())))
        self._write(json.dumps(entry, ensure_ascii=False) + "\n")

    def _on_done(self, number: int, how: str) -> None:
        self._write(json.dumps({"d": number}) + "\n")

    def _write(self, line: str) -> None:
        if self._fd is None:
            return
        data = line.encode("utf-8")
        written = os.write(self._fd, data)
        while written < len(data):
            written += os.write(self._fd, data[written:])
