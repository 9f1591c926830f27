"""Bad-input errors raised by the extractors: each carries a short ``reason`` slug for crawl stats."""

from __future__ import annotations

__all__ = [
    "BadInput",
    "BadURL",
    "DocumentTooLarge",
    "EmptyDocument",
    "MalformedDocument",
    "MarkupTooComplex",
    "NotHTML",
    "TooDeep",
    "TooManyElements",
    "UndecodableDocument",
]


class BadInput(ValueError):
    """The input cannot be extracted; ``reason`` names why in one slug (``"empty"``, ``"not_html"``...)."""

    reason = "bad_input"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class EmptyDocument(BadInput):
    """The body holds no bytes, or nothing but whitespace."""

    reason = "empty"


class NotHTML(BadInput):
    """The body is binary (NUL bytes, a known file signature), not an HTML document."""

    reason = "not_html"


class DocumentTooLarge(BadInput):
    """The body is larger than the configured limit."""

    reason = "too_large"


class UndecodableDocument(BadInput):
    """No charset decodes the body into mostly valid text."""

    reason = "undecodable"


class MalformedDocument(BadInput):
    """The markup could not be repaired into a tree with a body."""

    reason = "malformed"


class MarkupTooComplex(BadInput):
    """An element has more attributes than the parser handles in reasonable time
    (:mod:`extractors.markup_limits`)."""

    reason = "too_many_attributes"


class TooDeep(BadInput):
    """The markup nests deeper than the parser's limit: it would keep only the part above it."""

    reason = "too_deep"


class TooManyElements(BadInput):
    """The markup holds more tags than a page is allowed (:mod:`extractors.markup_limits`)."""

    reason = "too_many_elements"


class BadURL(BadInput):
    """The page's URL is not one ``urllib`` can split (``http://[::1``: a bracketed host that is
    no IPv6 address): every step that reads the URL would raise on it. A crawl's URLs always
    split; this is for URLs given by hand (``newscrawl extract --url``, the service's ``url``)."""

    reason = "bad_url"
