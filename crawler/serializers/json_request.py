"""JSON serializer for requests in a shared Redis queue (scrapy-redis ``SCHEDULER_SERIALIZER``).

scrapy-redis pickles requests by default, which lets anyone who can write to Redis run code in every
worker; this module is its replacement. ``dumps`` takes the dict of ``Request.to_dict()`` and returns
UTF-8 JSON bytes, ``loads`` turns them back. Values JSON cannot hold are tagged with one-key objects:

- ``bytes`` → ``{"__bytes__": "<base64>"}`` (bodies, header names and values round-trip exactly);
- ``tuple`` → ``{"__tuple__": [...]}``;
- a dict with non-``str`` keys, or with a key that is one of the tags → ``{"__dict__": [[k, v], ...]}``.

Anything else that JSON cannot hold (a datetime in ``meta``, an object) raises ``TypeError`` naming
its type: put only JSON-able values and bytes in the meta of requests meant for a shared queue.

Reading is for untrusted data (anyone who can write to Redis can push a queue entry): ``loads``
parses with :func:`pipelines.untrusted.load_json` (size and depth caps, finite numbers) and accepts
only what ``dumps`` wrote for this project's requests: a plain ``scrapy.Request`` (no ``_class``,
or a ``_class`` naming ``scrapy.Request`` itself, which is then removed so that Scrapy's
``request_from_dict`` never imports a module by name), callbacks from ``ALLOWED_CALLBACKS``, an
``http(s)`` URL and fields of the expected types. Anything else raises :class:`RejectedRequest`
(a ``ValueError``), which the scheduler counts under ``newscrawl/rejected/queue_entry`` and skips.

>>> loads(b'{"url": "http://x/", "_class": "os.system"}')
Traceback (most recent call last):
...
crawler.serializers.json_request.RejectedRequest: request class not allowed: 'os.system'

>>> data = {"url": "http://x/", "body": b"\\x00\\xff", "headers": {b"Accept": [b"*/*"]}, "meta": {"t": (1, 2)}}
>>> loads(dumps(data)) == data
True
>>> dumps({"body": b"ab"})
b'{"body":{"__bytes__":"YWI="}}'
"""

from __future__ import annotations

import base64
import binascii
import inspect
import json
from typing import Any
from weakref import WeakKeyDictionary

from scrapy import Request

from pipelines.untrusted import UntrustedData, load_json

__all__ = ["ALLOWED_CALLBACKS", "MAX_ENTRY_BYTES", "RejectedRequest", "dumps", "loads",
           "request_dict"]

#: The spider methods a queued request may name (``NewsSpider.parse`` and ``NewsSpider.on_error``).
ALLOWED_CALLBACKS = frozenset({"parse", "on_error"})
#: ``_class`` values that mean a plain ``scrapy.Request`` (Scrapy writes none for it; accepted and
#: dropped, never imported).
_PLAIN_REQUEST = frozenset({"scrapy.Request", "scrapy.http.Request", "scrapy.http.request.Request"})
#: A queue entry larger than this is refused: ours are GET requests of a few hundred bytes to a few
#: KB (URL, headers, meta); 1 MB leaves room for long URLs and referers.
MAX_ENTRY_BYTES = 1_000_000
_TYPES: dict[str, tuple[type, ...]] = {
    "url": (str,), "method": (str,), "headers": (dict,), "body": (bytes,), "cookies": (dict, list),
    "meta": (dict,), "encoding": (str,), "priority": (int,), "dont_filter": (bool,),
    "flags": (list,), "cb_kwargs": (dict,), "callback": (str, type(None)),
    "errback": (str, type(None)),
}


class RejectedRequest(ValueError):
    """A queue entry this serializer did not write: refused, never turned into a request."""

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


#: Per spider, the name ``Request.to_dict`` gives each method function used as a callback.
_METHOD_NAMES: WeakKeyDictionary[Any, dict[Any, str]] = WeakKeyDictionary()


def request_dict(request: Request, spider: Any) -> dict:
    """``request.to_dict(spider=spider)``, the same dict, without searching the spider's attributes
    for every request.

    Scrapy names a callback by listing every method of the spider (``inspect.getmembers``) and
    taking the first whose function is the callback's: 0.05 ms a request on ``NewsSpider``, twice
    (callback, errback), on the reactor for every request queued (the frontier journal, the shared
    queue); 0.01 ms this way. The name each function gets is found by the same rule once per
    spider and function, then remembered; the rest of the dict is Scrapy's own ``to_dict`` of the
    request without its callbacks (``Request.replace``). A request of another class, or a callback
    that is no method of the spider, goes through ``to_dict`` itself (and its error).
    """
    if type(request) is not Request:
        return request.to_dict(spider=spider)
    names = {}
    for key in ("callback", "errback"):
        func = getattr(request, key)
        if func is None:
            continue
        name = _method_name(spider, func)
        if name is None:
            return request.to_dict(spider=spider)
        names[key] = name
    data = request.replace(callback=None, errback=None).to_dict()
    data.update(names)
    return data


def _method_name(spider: Any, func: Any) -> str | None:
    """The name ``Request.to_dict`` gives method ``func`` of ``spider`` (the first of the
    spider's methods, by name, whose function it is), or None when it is none of them."""
    function = getattr(func, "__func__", None)
    if spider is None or function is None:
        return None
    try:
        known = _METHOD_NAMES.setdefault(spider, {})
    except TypeError:  # a spider that takes no weak reference: searched every time
        known = {}
    if function not in known:
        for name, method in inspect.getmembers(spider, predicate=inspect.ismethod):
            if method.__func__ is function:
                known[function] = name
                break
        else:
            return None
    return known[function]


def dumps(obj: dict) -> bytes:
    """Request dict → compact UTF-8 JSON bytes."""
    return json.dumps(_encode(obj), ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def loads(data: bytes | str) -> dict:
    """JSON from :func:`dumps` → request dict; :class:`RejectedRequest` for anything else."""
    try:
        request = _decode(load_json(data, max_bytes=MAX_ENTRY_BYTES))
    except UntrustedData as error:
        raise RejectedRequest(f"unreadable queue entry: {error}") from error
    except (binascii.Error, ValueError, TypeError) as error:  # a malformed tag
        raise RejectedRequest(f"malformed queue entry: {error}") from error
    return _validated(request)


def _validated(request: Any) -> dict:
    """``request`` when it is a plain request dict of this project (module docstring)."""
    if not isinstance(request, dict):
        raise RejectedRequest(f"a queue entry is a JSON object, got {type(request).__name__}")
    cls = request.pop("_class", None)
    if cls is not None and cls not in _PLAIN_REQUEST:
        raise RejectedRequest(f"request class not allowed: {str(cls)[:100]!r}")
    for name, value in request.items():
        types = _TYPES.get(name)
        if types is None:
            raise RejectedRequest(f"unexpected field {name[:100]!r}")
        if not isinstance(value, types) or (bool in types) != isinstance(value, bool):
            raise RejectedRequest(f"field {name!r} has type {type(value).__name__}")
    for name in ("callback", "errback"):
        if request.get(name) is not None and request[name] not in ALLOWED_CALLBACKS:
            raise RejectedRequest(f"{name} not allowed: {request[name][:100]!r}")
    url = request.get("url")
    if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
        raise RejectedRequest(f"not an http(s) URL: {str(url)[:100]!r}")
    return request
