"""JSON serializer for requests in a shared Redis queue (scrapy-redis ``SCHEDULER_SERIALIZER``).

scrapy-redis pickles requests by default, which lets anyone who can write to Redis run code in every
worker; this module is its replacement. ``dumps`` takes the dict of ``Request.to_dict()`` and returns
UTF-8 JSON bytes, ``loads`` turns them back. Values JSON cannot hold are tagged with one-key objects:

- ``bytes`` → ``{"__bytes__": "<base64>"}`` (bodies, header names and values round-trip exactly);
- ``tuple`` → ``{"__tuple__": [...]}``;
- a dict with non-``str`` keys, or with a key that is one of the tags → ``{"__dict__": [[k, v], ...]}``.

Anything else that JSON cannot hold (a datetime in ``meta``, an object) raises ``TypeError`` naming
its type: put only JSON-able values and bytes in the meta of requests meant for a shared queue.

>>> data = {"url": "http://x/", "body": b"\\x00\\xff", "headers": {b"Accept": [b"*/*"]}, "meta": {"t": (1, 2)}}
>>> loads(dumps(data)) == data
True
>>> dumps({"body": b"ab"})
b'{"body":{"__bytes__":"YWI="}}'
"""

from __future__ import annotations

import base64
import json
from typing import Any

__all__ = ["dumps", "loads"]

_BYTES, _TUPLE, _DICT = "__bytes__", "__tuple__", "__dict__"
_TAGS = frozenset({_BYTES, _TUPLE, _DICT})


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {_BYTES: base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value) and not _TAGS.intersection(value):
            return {k: _encode(v) for k, v in value.items()}
        return {_DICT: [[_encode(k), _encode(v)] for k, v in value.items()]}
    raise TypeError(
        f"cannot serialize {type(value).__name__} in a request for the shared queue: {value!r:.80}"
    )


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1:
        ((tag, inner),) = value.items()
        if tag == _BYTES:
            return base64.b64decode(inner)
        if tag == _TUPLE:
            return tuple(_decode(v) for v in inner)
        if tag == _DICT:
            return {_decode(k): _decode(v) for k, v in inner}
    return {k: _decode(v) for k, v in value.items()}


def dumps(obj: dict) -> bytes:
    """Request dict → compact UTF-8 JSON bytes."""
    return json.dumps(_encode(obj), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def loads(data: bytes | str) -> dict:
    """JSON from :func:`dumps` → request dict."""
    return _decode(json.loads(data))
