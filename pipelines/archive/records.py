"""WARC records of one HTTP exchange: a ``response`` record and its ``request`` record.

Built with warcio from the Scrapy request and response as the downloader handed them over, before
any downloader middleware decoded them (see :mod:`pipelines.archive.capture`). What the record
holds:

- the payload as received: ``Content-Encoding`` (gzip, br...) kept, with its header: the HTTP
  entity-body as the server sent it. The one decoding in it is the transfer coding: WARC asks for
  the message as received, chunk framing included, but Twisted's HTTP client (under Scrapy) has
  removed ``chunked`` and dropped the ``Transfer-Encoding`` header before any Scrapy code sees the
  response, so the record holds the de-chunked entity-body with a head that does not announce
  chunking (consistent for replay tools; the payload digest is over the entity-body, as WARC 1.1
  defines the payload);
- the headers byte for byte: Scrapy keeps header bytes; they are held here as latin-1 text (one
  character per byte) and written back as latin-1, so a UTF-8 header value is stored as its UTF-8
  bytes instead of warcio's default, which %-encodes the text and double-encodes such bytes;
- ``WARC-Date`` = the instant the request was sent, ``WARC-IP-Address`` = the server's address
  where Scrapy knows it (``Response.ip_address``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from http import HTTPStatus
from io import BytesIO
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.timeutils import datetime_to_iso_date

if TYPE_CHECKING:
    from scrapy.http import Request, Response
    from warcio.recordbuilder import ArcWarcRecord, RecordBuilder

__all__ = ["WARC_VERSION", "RawHeaders", "exchange_records", "warc_date"]

WARC_VERSION = "WARC/1.1"


class RawHeaders(StatusAndHeaders):
    """An HTTP head whose text holds the bytes as received, one latin-1 character per byte.

    >>> head = RawHeaders("200 OK", [("X-Title", "Café".encode().decode("latin-1"))], "HTTP/1.1")
    >>> head.compute_headers_buffer()
    >>> head.headers_buff
    b'HTTP/1.1 200 OK\\r\\nX-Title: Caf\\xc3\\xa9\\r\\n\\r\\n'
    """

    def compute_headers_buffer(self, header_filter=None) -> None:
        self.headers_buff = self.to_bytes(header_filter, encoding="latin-1")


def warc_date(when: datetime) -> str:
    """The WARC-Date of an aware datetime: UTC, with microseconds.

    >>> from datetime import timedelta, timezone
    >>> warc_date(datetime(2024, 5, 12, 12, 30, 0, 250000, tzinfo=timezone(timedelta(hours=2))))
    '2024-05-12T10:30:00.250000Z'
    """
    return datetime_to_iso_date(when.astimezone(UTC).replace(tzinfo=None), use_micros=True)


def exchange_records(
    builder: RecordBuilder,
    request: Request,
    response: Response,
    sent_at: datetime,
    warcinfo_id: str | None = None,
) -> tuple[ArcWarcRecord, ArcWarcRecord]:
    """``(response_record, request_record)`` of one exchange; the request is concurrent to it."""
    common = {"WARC-Date": warc_date(sent_at)}
    if warcinfo_id:
        common["WARC-Warcinfo-ID"] = warcinfo_id
    extra = {}
    if response.ip_address is not None:
        extra["WARC-IP-Address"] = str(response.ip_address)
    body = response.body
    record = builder.create_warc_record(
        response.url,
        "response",
        payload=BytesIO(body),
        length=len(body),
        http_headers=_response_head(response),
        warc_headers_dict={**common, **extra},
    )
    request_body = request.body or b""
    request_record = builder.create_warc_record(
        response.url,
        "request",
        payload=BytesIO(request_body),
        length=len(request_body),
        http_headers=_request_head(response.url, request),
        warc_headers_dict={**common, "WARC-Concurrent-To": record.rec_headers["WARC-Record-ID"]},
    )
    return record, request_record


def _latin1(value: bytes | str) -> str:
    return value if isinstance(value, str) else value.decode("latin-1")


def _protocol(response: Response) -> str:
    """``HTTP/1.0`` or ``HTTP/1.1`` as received; HTTP/2 (``h2``) is written as ``HTTP/1.1``, the
    form WARC readers parse (the exchange's content is the same)."""
    protocol = response.protocol or ""
    return protocol if protocol.startswith("HTTP/1.") else "HTTP/1.1"


def _response_head(response: Response) -> RawHeaders:
    try:
        reason = HTTPStatus(response.status).phrase
    except ValueError:
        reason = ""
    pairs = [
        (_latin1(name), _latin1(value))
        for name, values in response.headers.items()
        for value in values
    ]
    return RawHeaders(f"{response.status} {reason}".strip(), pairs, protocol=_protocol(response))


def _request_head(url: str, request: Request) -> RawHeaders:
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    pairs = [
        (_latin1(name), ", ".join(_latin1(v) for v in values))
        for name, values in request.headers.items()
    ]
    if not any(name.lower() == "host" for name, _ in pairs):
        pairs.insert(0, ("Host", parts.netloc))
    return RawHeaders(f"{request.method} {target} HTTP/1.1", pairs, is_http_request=True)
