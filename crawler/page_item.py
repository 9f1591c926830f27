"""The page item: what the spider hands to the pipelines for every fetched HTML page.

Shape (see docs/CONTRACT.md): ``{"kind": "page", "url", "status", "request_headers": {str: str},
"response_headers": {str: [str]}, "body": bytes, "fetched_at", "template_key", "route", "referer",
"depth", "sibling_link", "sibling_for", "warc"}``; ``warc`` is the pointer of the response's WARC
record, set by :class:`pipelines.archive.capture.WarcCaptureMiddleware` (``None`` without it).
Header bytes are decoded as latin-1, so they round-trip exactly. The spider adds ``parsed`` (key
:data:`PARSED`): the page as :func:`extractors.parse_page` parsed it for the link scan, an object
in memory only, which the extract pipeline takes out before anything could serialise the item.
"""

from __future__ import annotations

from datetime import UTC, datetime

from scrapy.http import Response, TextResponse

from crawler.scheduling.tracker import REDELIVERED_META
from crawler.sources import HINT_META
from crawler.templates import template_key
from pipelines.archive.capture import WARC_META
from pipelines.siblings.parsed_pages import PARSED

__all__ = ["HTML_TYPES", "PARSED", "page_item", "skip_reason"]

HTML_TYPES = ("text/html", "application/xhtml+xml")


def _text(value: bytes) -> str:
    return value.decode("latin-1")


def skip_reason(response: Response, max_bytes: int) -> str | None:
    """Why a fetched response is not a page to extract (``not_html``, ``empty``, ``too_large``), or None.

    A response whose Content-Type names HTML is passed on even when its body is not HTML: the
    extractor's own checks then count it (``not_html`` from the binary sniff, ``undecodable``...).
    """
    content_type = _text(response.headers.get(b"Content-Type") or b"").split(";")[0].strip().lower()
    if content_type and content_type not in HTML_TYPES:
        return "not_html"
    if not content_type and not isinstance(response, TextResponse):
        return "not_html"
    if not response.body:
        return "empty"
    if max_bytes and len(response.body) > max_bytes:
        return "too_large"
    return None


def page_item(
    response: Response,
    route: str,
    sibling_link: str | None = None,
    sibling_for: str | None = None,
    sibling_skip: str | None = None,
) -> dict:
    """The page item of one fetched HTML response.

    ``sibling_link``: the page's own link of the same template (articles, see
    :mod:`crawler.sibling_links`); ``sibling_for``: the article this page was requested as a
    sibling for; ``sibling_skip``: why the page is not paired with a sibling at all (an article
    whose text is not CJK: ``"not_cjk"``, see :mod:`pipelines.siblings.pairing`), else None.
    """
    request = response.request
    referer = request.headers.get(b"Referer") if request is not None else None
    request_headers = (
        {}
        if request is None
        else {
            _text(name): ", ".join(_text(v) for v in values)
            for name, values in request.headers.items()
        }
    )
    return {
        "kind": "page",
        "url": response.url,
        "status": response.status,
        "request_headers": request_headers,
        "response_headers": {
            _text(name): [_text(v) for v in values] for name, values in response.headers.items()
        },
        "body": response.body,
        "fetched_at": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        "template_key": template_key(response.url),
        "route": route,
        "referer": _text(referer) if referer else None,
        "depth": int(response.meta.get("depth", 0)),
        "sibling_link": sibling_link,
        "sibling_for": sibling_for,
        "sibling_skip": sibling_skip,
        "warc": response.meta.get(WARC_META),
        "redelivered": bool(response.meta.get(REDELIVERED_META)),
        "hint": response.meta.get(HINT_META),
    }
