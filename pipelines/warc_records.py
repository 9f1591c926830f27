"""WARC records for one fetched page: an HTTP ``response`` record and its ``request`` record.

Built with warcio from the page item of the contract (``url``, ``status``, ``request_headers``,
``response_headers``, ``body``, ``fetched_at``). The body is the one Scrapy handed over: already
de-chunked and decompressed, so the headers that described the wire form (``Transfer-Encoding``,
``Content-Encoding``, ``Content-Length``) are kept as ``X-Archive-Orig-*`` and ``Content-Length``
is set to the stored body's length, as Heritrix and pywb do, so that replay tools read it right.
"""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus
from io import BytesIO
from typing import Any
from urllib.parse import urlsplit

from warcio.recordbuilder import RecordBuilder
from warcio.statusandheaders import StatusAndHeaders
from warcio.timeutils import datetime_to_iso_date

__all__ = ["WARC_VERSION", "page_records", "warc_date"]

WARC_VERSION = "WARC/1.1"
#: Headers describing the wire form of a body that Scrapy has since decoded.
_WIRE_HEADERS = frozenset({"transfer-encoding", "content-encoding", "content-length"})


def warc_date(fetched_at: str | None) -> str:
    """The WARC-Date (UTC, with microseconds if any) of an ISO-8601 ``fetched_at``; now if absent.

    >>> warc_date("2024-05-12T12:30:00+02:00")
    '2024-05-12T10:30:00Z'
    >>> warc_date("2024-05-12T10:30:00.250000Z")
    '2024-05-12T10:30:00.250000Z'
    """
    when = datetime.now(UTC)
    if fetched_at:
        when = datetime.fromisoformat(fetched_at.replace("Z", "+00:00"))
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
    return datetime_to_iso_date(when.astimezone(UTC).replace(tzinfo=None), use_micros=True)


def page_records(builder: RecordBuilder, item: dict[str, Any], warcinfo_id: str | None = None):
    """``(response_record, request_record)`` for a page item; the request is concurrent to it."""
    url = item["url"]
    common = {"WARC-Date": warc_date(item.get("fetched_at"))}
    if warcinfo_id:
        common["WARC-Warcinfo-ID"] = warcinfo_id
    body = item["body"]
    response = builder.create_warc_record(
        url,
        "response",
        payload=BytesIO(body),
        length=len(body),
        http_headers=_response_head(item["status"], item.get("response_headers") or {}, len(body)),
        warc_headers_dict=dict(common),
    )
    request_head = _request_head(url, item.get("request_headers") or {}, item.get("method", "GET"))
    request = builder.create_warc_record(
        url,
        "request",
        payload=BytesIO(),
        length=0,
        http_headers=request_head,
        warc_headers_dict={**common, "WARC-Concurrent-To": response.rec_headers["WARC-Record-ID"]},
    )
    return response, request


def _response_head(status: int, headers: dict[str, Any], body_len: int) -> StatusAndHeaders:
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    pairs: list[tuple[str, str]] = []
    for name, values in headers.items():
        stored = f"X-Archive-Orig-{name}" if name.lower() in _WIRE_HEADERS else name
        for value in [values] if isinstance(values, str) else values:
            pairs.append((stored, value))
    pairs.append(("Content-Length", str(body_len)))
    return StatusAndHeaders(f"{status} {reason}".strip(), pairs, protocol="HTTP/1.1")


def _request_head(url: str, headers: dict[str, Any], method: str) -> StatusAndHeaders:
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    pairs = [
        (name, value if isinstance(value, str) else ", ".join(value))
        for name, value in headers.items()
    ]
    if not any(name.lower() == "host" for name, _ in pairs):
        pairs.insert(0, ("Host", parts.netloc))
    return StatusAndHeaders(f"{method} {target} HTTP/1.1", pairs, is_http_request=True)
