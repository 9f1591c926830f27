"""Untrusted bytes (Redis values, stored files, command-line JSON) read within limits.

Everything the crawl reads back from Redis or from a folder another process can write is parsed
here, so a poisoned value costs a bounded amount of memory and time and ends as one
:class:`UntrustedData` (a ``ValueError`` with a ``reason`` slug for the stats), never as an
``OverflowError``, a ``RecursionError`` or a gigabyte of memory:

- :func:`load_json`: a size cap before parsing, no ``NaN``/``Infinity``/``1e999`` (non-finite
  numbers are refused, not turned into ``inf``), integers of at most ``MAX_INT_DIGITS`` digits, and
  a nesting depth cap checked on the parsed value (the C parser itself stops at Python's recursion limit,
  which is caught);
- :func:`inflate`: zlib with ``max_length``, so a 1 MB bomb stops after ``max_bytes`` + 1 bytes.

Why by hand: the standard library has the pieces (``json`` hooks, ``zlib.decompressobj``) but no
bounded loader, and a schema library would not bound the parse itself.

>>> load_json(b'{"matched": 3, "history": [1, 2]}', max_bytes=100)
{'matched': 3, 'history': [1, 2]}
>>> load_json('{"matched": 1e999}', max_bytes=100)
Traceback (most recent call last):
...
pipelines.untrusted.UntrustedData: not finite: 1e999
>>> load_json("[" * 50 + "]" * 50, max_bytes=1000, max_depth=20)
Traceback (most recent call last):
...
pipelines.untrusted.UntrustedData: nested deeper than 20
>>> import zlib
>>> inflate(zlib.compress(b"a" * 1000), max_bytes=100)
Traceback (most recent call last):
...
pipelines.untrusted.UntrustedData: decompresses to more than 100 bytes
"""

from __future__ import annotations

import json
import math
import zlib
from typing import Any

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "MAX_INT_DIGITS",
    "UntrustedData",
    "inflate",
    "load_json",
]

#: Nesting depth allowed in stored JSON. What we write nests at most 6 deep (a request's headers
#: inside its tagged dict inside meta); 32 leaves room for JSON-able meta values of callers.
DEFAULT_MAX_DEPTH = 32
#: Integers longer than this are refused (counts and priorities fit in 19 digits; Python itself
#: refuses to parse more than 4 300 digits, with a ValueError we would otherwise see as a crash).
MAX_INT_DIGITS = 20


class UntrustedData(ValueError):
    """A value from Redis, a file or an argument that this code did not write or cannot read."""

    def __init__(self, message: str, reason: str = "invalid") -> None:
        super().__init__(message)
        self.reason = reason


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UntrustedData(f"not finite: {text[:40]}", "not_finite")
    return value


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise UntrustedData(f"integer of {len(text)} digits", "too_large")
    return int(text)


def _constant(name: str) -> Any:
    raise UntrustedData(f"not finite: {name}", "not_finite")


def load_json(data: bytes | str, *, max_bytes: int, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """Parse ``data`` as JSON within the limits (module docstring); :class:`UntrustedData` else."""
    if len(data) > max_bytes:
        raise UntrustedData(
            f"{len(data)} bytes of JSON, over the limit of {max_bytes}", "too_large"
        )
    try:
        value = json.loads(
            data, parse_float=_finite, parse_int=_integer, parse_constant=_constant
        )
    except UntrustedData:
        raise
    except RecursionError:  # not chained: the recursion's traceback is ~1 000 frames deep, and
        # formatting it later (a log line, an unhandled Deferred) recursed again in a full test run
        raise UntrustedData(f"nested deeper than {max_depth}", "too_deep") from None
    except (ValueError, TypeError) as error:  # JSONDecodeError, UnicodeDecodeError
        raise UntrustedData(f"not JSON: {error}", "not_json") from error
    _check_depth(value, max_depth)
    return value


def _check_depth(value: Any, max_depth: int) -> None:
    """Raise when ``value`` nests lists/objects deeper than ``max_depth`` (iterative walk)."""
    stack = [(value, 1)]
    while stack:
        current, depth = stack.pop()
        if isinstance(current, dict):
            children = current.values()
        elif isinstance(current, list):
            children = current
        else:
            continue
        if depth > max_depth:
            raise UntrustedData(f"nested deeper than {max_depth}", "too_deep")
        stack.extend((child, depth + 1) for child in children)


def inflate(data: bytes, *, max_bytes: int, wbits: int = zlib.MAX_WBITS) -> bytes:
    """zlib-decompress ``data`` into at most ``max_bytes`` bytes; :class:`UntrustedData` when the
    output would be larger, or the stream is broken or truncated."""
    inflater = zlib.decompressobj(wbits)
    try:
        out = inflater.decompress(data, max_bytes + 1)
    except zlib.error as error:
        raise UntrustedData(f"not zlib data: {error}", "not_zlib") from error
    if len(out) > max_bytes or inflater.unconsumed_tail:
        raise UntrustedData(f"decompresses to more than {max_bytes} bytes", "too_large")
    if not inflater.eof:
        raise UntrustedData("truncated zlib stream", "not_zlib")
    return out
