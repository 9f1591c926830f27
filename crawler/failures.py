"""Why a request produced no page: a failed download or a refused response → a short reason slug.

The slug is the ``<reason>`` of the ``newscrawl/skipped/<reason>`` stats key.

>>> from scrapy.exceptions import IgnoreRequest
>>> failure_reason(IgnoreRequest("max redirections reached"))
'redirect_loop'
>>> failure_reason(TimeoutError())
'timeout'

A response that decompresses past ``DOWNLOAD_MAXSIZE`` (a gzip bomb) is ``too_large``, like one
whose download passed it; a request
:class:`~crawler.downloadermiddlewares.address_guard.AddressGuard` refused is ``refused`` (its own
counter, ``newscrawl/refused/<reason>``, says why).

>>> failure_reason(IgnoreRequest("Ignored response <200 http://a/> because its body (10 B "
...     "compressed, 11 B decompressed so far) exceeded DOWNLOAD_MAXSIZE (10 B) during "
...     "decompression."))
'too_large'
"""

from __future__ import annotations

from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadCancelledError,
    DownloadConnectionRefusedError,
    DownloadTimeoutError,
    IgnoreRequest,
    ResponseDataLossError,
)
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet import error as twisted_errors

from crawler.downloadermiddlewares.address_guard import AddressRefused

__all__ = ["failure_reason"]

_BY_TYPE: tuple[tuple[tuple[type[BaseException], ...], str], ...] = (
    ((CannotResolveHostError, twisted_errors.DNSLookupError), "dns"),
    ((DownloadTimeoutError, TimeoutError, twisted_errors.TimeoutError), "timeout"),
    ((DownloadCancelledError,), "too_large"),  # DOWNLOAD_MAXSIZE cancels the download
    (
        (
            DownloadConnectionRefusedError,
            ConnectionRefusedError,
            twisted_errors.ConnectionRefusedError,
        ),
        "connection_refused",
    ),
    ((ResponseDataLossError,), "data_loss"),
)


def failure_reason(error: BaseException) -> str:
    """The reason slug for an exception an errback received."""
    if isinstance(error, HttpError):
        return f"http_{error.response.status}"
    if isinstance(error, AddressRefused):
        return "refused"
    if isinstance(error, IgnoreRequest):
        message = str(error).lower()
        if "download_maxsize" in message:  # HttpCompressionMiddleware's message for a bomb
            return "too_large"
        if "redirection" in message:
            return "redirect_loop"
        if "robots.txt" in message:
            return "robots"
        return "ignored"
    for types, reason in _BY_TYPE:
        if isinstance(error, types):
            return reason
    return "download_error"
