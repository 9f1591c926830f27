"""Consumer groups of the item stream: creating one, and how far the stream may be trimmed.

The items stream (:mod:`pipelines.sinks.redis_stream`) is read by news-clustering systems through
Redis consumer groups (``XREADGROUP`` + ``XACK``; ``newscrawl consume`` is one such reader). The
trimming policy: **no entry a registered group has not acknowledged is ever deleted**. For each
group the safe point is its oldest pending entry (delivered, not yet acknowledged) or, when nothing
is pending, the last entry it was given (everything before it is acknowledged); the stream is
trimmed (``XTRIM MINID ~``) to the slowest group's safe point, so entries no group has read yet, and
entries read but not acknowledged, stay. With no group registered, the stream is capped by length
(``XTRIM MAXLEN ~ cap``), as a plain capped log. A stream whose groups lag past the cap grows: the
producer warns and slows down (backpressure,
:class:`pipelines.sinks.redis_stream.RedisStreamPipeline`), it never deletes unread entries to stay
under the cap.

Needs Redis ≥ 6.2 (``XTRIM MINID``, ``XAUTOCLAIM``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import redis

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["create_group", "safe_trim_id", "trim"]


def create_group(client: redis.Redis, key: str, group: str) -> bool:
    """Create consumer group ``group`` of stream ``key`` (and the stream) reading from its first
    entry; False when the group existed already."""
    try:
        client.xgroup_create(key, group, id="0", mkstream=True)
    except redis.ResponseError as error:
        if "BUSYGROUP" in str(error):
            return False
        raise
    return True


def _text(value: Any) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _parse_id(entry_id: str) -> tuple[int, int]:
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq or 0)


def safe_trim_id(groups: Iterable[dict[str, Any]], oldest_pending: dict[str, str | None]) -> str:
    """The smallest entry id some group still needs: its oldest pending entry, else the last entry
    delivered to it (``0-0`` for a group that has read nothing: nothing may go).

    >>> groups = [{"name": "a", "pending": 0, "last-delivered-id": "17-0"},
    ...           {"name": "b", "pending": 2, "last-delivered-id": "30-1"}]
    >>> safe_trim_id(groups, {"b": "12-4"})
    '12-4'
    >>> safe_trim_id(groups[:1], {})
    '17-0'
    >>> safe_trim_id([{"name": "new", "pending": 0, "last-delivered-id": "0-0"}], {})
    '0-0'
    """
    points = []
    for group in groups:
        name = _text(group["name"])
        pending = oldest_pending.get(name) if int(group.get("pending") or 0) else None
        points.append(pending or _text(group["last-delivered-id"]))
    return min(points, key=_parse_id)


def trim(client: redis.Redis, key: str, cap: int) -> tuple[int, int]:
    """Trim stream ``key`` by the module's policy; (entries removed, groups registered)."""
    groups = client.xinfo_groups(key)
    if not groups:
        return int(client.xtrim(key, maxlen=cap, approximate=True)), 0
    oldest = {}
    for group in groups:
        if int(group.get("pending") or 0):
            summary = client.xpending(key, group["name"])
            oldest[_text(group["name"])] = _text(summary["min"]) if summary.get("min") else None
    point = safe_trim_id(groups, oldest)
    if point == "0-0":
        return 0, len(groups)
    return int(client.xtrim(key, minid=point, approximate=True)), len(groups)
