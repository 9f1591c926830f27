"""``newscrawl consume``: read the item stream through a consumer group, print items as JSON lines.

The reference consumer of the stream the crawl writes (:mod:`pipelines.sinks.redis_stream`): what a
news-clustering system does in its own code, as a command. Each entry's ``item`` (the item's JSON)
is printed as one line on stdout and then acknowledged (``XACK``): delivery is at least once, so a
consumer killed between the two prints the entry again after its restart. At start it first
re-reads its own pending entries (a restart under the same ``--consumer`` name), then, every
``--claim-interval`` seconds, claims entries that another consumer of the group read and left
unacknowledged for ``--claim-idle`` seconds (``XAUTOCLAIM``: that consumer died), then reads new
entries (``XREADGROUP ... >``). An entry that is not an item (no ``item`` field, not JSON, too
large or too deep) is skipped with a line on stderr and acknowledged, so it cannot block the group.

Why by hand: redis-py has the commands but no consumer loop; the loop is short and its rules (own
pending first, claim the dead's, ack after output) are the point of the command.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
import time
from typing import Any

from crawler.commands import add_redis_password_option, connect_redis
from pipelines.sinks.redis_stream import DEFAULT_GROUP, DEFAULT_KEY
from pipelines.sinks.stream_groups import create_group
from pipelines.untrusted import UntrustedData, load_json

__all__ = ["Consumer", "add_parser", "run"]

#: Largest item JSON printed (a list page with 5 000 records is about 1 MB).
MAX_ITEM_BYTES = 16_000_000

DESCRIPTION = """\
Reads the item stream a crawl writes through a Redis consumer group and prints each item's JSON as
one line on stdout, then acknowledges it (at least once: a consumer killed between the two prints
the entry again after its restart). It first re-reads its own pending entries (a restart under the
same --consumer name), claims entries another consumer of the group read and left unacknowledged
for --claim-idle seconds (that consumer died), then reads new entries. An entry that is not an item
is skipped with a line on stderr and acknowledged. The crawl never trims entries a group has not
acknowledged. Stop it with Ctrl-C or SIGTERM (it finishes the entry in hand), or with --max-items /
--idle-exit."""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "consume", help="read the item stream through a consumer group (JSON lines on stdout)",
        description=DESCRIPTION,
    )  # fmt: skip
    parser.add_argument("--redis", required=True, metavar="URL", help="redis://HOST:PORT/DB")
    parser.add_argument("--group", default=DEFAULT_GROUP,
                        help="consumer group, created when missing (default: %(default)s)")
    parser.add_argument("--consumer", help="this consumer's name (default: HOSTNAME-PID); reuse "
                        "it after a restart to get back its own pending entries")
    parser.add_argument("--key", default=DEFAULT_KEY, help="stream key (default: %(default)s)")
    parser.add_argument("--count", type=int, default=100, help="entries per read (default: 100)")
    parser.add_argument("--claim-idle", type=float, default=60.0, metavar="S",
                        help="claim entries another consumer left unacknowledged this long "
                        "(default: %(default)s)")
    parser.add_argument("--claim-interval", type=float, default=10.0, metavar="S",
                        help="look for such entries every S seconds (default: %(default)s)")
    parser.add_argument("--max-items", type=int, default=0, metavar="N",
                        help="stop after the read in which the Nth item came (default: 0, no "
                        "limit)")
    parser.add_argument("--idle-exit", type=float, default=0.0, metavar="S",
                        help="stop when no entry came for S seconds (default: 0, wait forever)")
    add_redis_password_option(parser)
    parser.set_defaults(run=run)


class Consumer:
    """The loop of the module docstring; ``emit(line)`` gets each item's JSON."""

    def __init__(self, client: Any, key: str, group: str, name: str, count: int = 100) -> None:
        self.client, self.key, self.group, self.name, self.count = client, key, group, name, count
        self.stats = {"items": 0, "claimed": 0, "skipped": 0}
        self.stopping = False

    def handle(self, entries: list, emit: Any) -> int:
        """Print and acknowledge ``entries`` ([(id, fields)]); how many there were."""
        ids = []
        for entry_id, fields in entries:
            ids.append(entry_id)
            if fields is None:  # claimed but already deleted
                continue
            raw = fields.get(b"item")
            try:
                if raw is None:
                    raise UntrustedData("no item field")
                load_json(raw, max_bytes=MAX_ITEM_BYTES)
            except UntrustedData as error:
                self.stats["skipped"] += 1
                print(f"newscrawl consume: skipped entry {entry_id.decode()}: {error}",
                      file=sys.stderr)
                continue
            emit(raw.decode("utf-8"))
            self.stats["items"] += 1
        if ids:
            self.client.xack(self.key, self.group, *ids)
        return len(ids)

    def own_pending(self, emit: Any) -> None:
        """Entries this consumer name read before and never acknowledged (a restart)."""
        cursor = "0"
        while not self.stopping:
            found = self.client.xreadgroup(self.group, self.name, {self.key: cursor},
                                           count=self.count)  # fmt: skip
            entries = found[0][1] if found else []
            if not entries:
                return
            self.handle(entries, emit)
            cursor = entries[-1][0]

    def claim(self, idle_s: float, emit: Any) -> None:
        """Entries other consumers left unacknowledged for ``idle_s``: theirs are now ours."""
        cursor = "0-0"
        while not self.stopping:
            reply = self.client.xautoclaim(self.key, self.group, self.name,
                                           int(idle_s * 1000), start_id=cursor, count=self.count)
            cursor, entries = reply[0], reply[1]
            self.stats["claimed"] += self.handle(entries, emit)
            if cursor in (b"0-0", "0-0"):
                return

    def read_new(self, block_ms: int, emit: Any) -> int:
        found = self.client.xreadgroup(self.group, self.name, {self.key: ">"},
                                       count=self.count, block=block_ms)  # fmt: skip
        return self.handle(found[0][1], emit) if found else 0


def run(args: argparse.Namespace) -> int:
    client = connect_redis(args.redis, args.redis_password_file)
    name = args.consumer or f"{socket.gethostname()}-{os.getpid()}"
    if create_group(client, args.key, args.group):
        print(f"newscrawl consume: created group {args.group!r} of {args.key!r}", file=sys.stderr)
    consumer = Consumer(client, args.key, args.group, name, args.count)

    def stop(*_: Any) -> None:
        consumer.stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    def emit(line: str) -> None:
        print(line, flush=True)

    def enough() -> bool:
        return consumer.stopping or bool(args.max_items and consumer.stats["items"] >= args.max_items)

    consumer.own_pending(emit)
    last_entry = last_claim = time.monotonic()
    last_claim -= args.claim_interval  # claim at once
    block_ms = 1000 if args.idle_exit else 5000
    while not enough():
        if time.monotonic() - last_claim >= args.claim_interval:
            consumer.claim(args.claim_idle, emit)
            last_claim = time.monotonic()
            if enough():
                break
        if consumer.read_new(block_ms, emit):
            last_entry = time.monotonic()
        elif args.idle_exit and time.monotonic() - last_entry >= args.idle_exit:
            break
    stats = consumer.stats
    print(f"newscrawl consume: {stats['items']} items, {stats['claimed']} claimed from other "
          f"consumers, {stats['skipped']} skipped", file=sys.stderr)
    return 0
