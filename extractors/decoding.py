"""Robust decoding of HTML bytes: BOM, then HTTP header, then meta charset, then detection, then UTF-8.

A meta charset naming a legacy codec is overruled by UTF-8 when the body is valid UTF-8 and holds
non-ASCII bytes: pages re-saved as UTF-8 often keep their old ``<meta charset=gb2312>``, and text in
a legacy multi-byte or 8-bit codec is almost never valid UTF-8 by chance.

GBK and GB2312 labels are read as gb18030 (its superset), as browsers do, and other labels go through
the WHATWG aliases that :mod:`w3lib.encoding` knows.

>>> decode_html(b'<meta charset="gbk"><p>\\xd6\\xd0\\xce\\xc4</p>').text[-9:]
'<p>中文</p>'
>>> decode_html(b'\\xef\\xbb\\xbf<p>x</p>').source
'bom'
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from charset_normalizer import from_bytes

from extractors.errors import EmptyDocument, NotHTML, UndecodableDocument

__all__ = ["Decoded", "decode_html"]

#: Bytes searched for a ``<meta charset>`` declaration (the HTML standard's prescan reads 1024;
#: real pages put scripts first, so we read further).
META_PRESCAN_BYTES = 4096
#: Share of U+FFFD replacement characters above which a decoding counts as failed.
MAX_REPLACEMENT_SHARE = 0.02
#: Bytes inspected to tell a binary body from text.
SNIFF_BYTES = 1024

_BINARY_SIGNATURES = (
    b"%PDF-", b"\x89PNG", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b",
    b"RIFF", b"\x00\x00\x01\x00", b"OggS", b"ID3", b"\x7fELF", b"BZh", b"7z\xbc\xaf",
)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))
_META_RE = re.compile(
    rb"""<meta[^>]+?charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE)
_HEADER_RE = re.compile(r"""charset\s*=\s*["']?\s*([a-zA-Z0-9_:.\-]+)""", re.IGNORECASE)
_SUPERSETS = {"gbk": "gb18030", "gb2312": "gb18030", "gb_2312-80": "gb18030", "x-gbk": "gb18030",
              "ascii": "cp1252", "iso-8859-1": "cp1252", "latin-1": "cp1252", "big5": "big5hkscs"}


@dataclass(frozen=True, slots=True)
class Decoded:
    """A decoded page: its text, the codec used, and where the codec came from."""

    text: str
    encoding: str
    source: str  # "bom" | "http" | "meta" | "detected" | "default"


def decode_html(body: bytes, content_type: str | None = None) -> Decoded:
    """Decode ``body`` to text, trying BOM, HTTP ``content_type``, meta charset, detection, UTF-8.

    Raises :class:`EmptyDocument` for an empty body, :class:`NotHTML` for a binary one and
    :class:`UndecodableDocument` when no candidate decodes it cleanly.
    """
    if not body or not body.strip():
        raise EmptyDocument("the body is empty")
    _reject_binary(body)
    for prefix, codec in _BOMS:
        if body.startswith(prefix):
            return Decoded(body[len(prefix):].decode(codec, errors="replace"), codec, "bom")
    for source, label in (("http", _header_charset(content_type)), ("meta", _meta_charset(body))):
        codec = _codec(label)
        if codec and source == "meta" and codec != "utf-8" and (text := _strict_utf8(body)):
            return Decoded(text, "utf-8", "detected")
        if codec and (text := _try_decode(body, codec)) is not None:
            return Decoded(text, codec, source)
    return _detect(body)


def _strict_utf8(body: bytes) -> str | None:
    """``body`` as UTF-8 when it is valid UTF-8 with at least one non-ASCII byte, else ``None``.

    >>> _strict_utf8("中文".encode("utf-8")), _strict_utf8(b"plain"), _strict_utf8("中文".encode("gbk"))
    ('中文', None, None)
    """
    if body.isascii():
        return None
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _reject_binary(body: bytes) -> None:
    head = body[:SNIFF_BYTES]
    if head.startswith(_BINARY_SIGNATURES) or (b"\x00" in head and not _is_utf16(head)):
        raise NotHTML(f"the body is binary (starts with {head[:8]!r})")


def _is_utf16(head: bytes) -> bool:
    return head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))


def _header_charset(content_type: str | None) -> str | None:
    match = _HEADER_RE.search(content_type or "")
    return match.group(1) if match else None


def _meta_charset(body: bytes) -> str | None:
    match = _META_RE.search(body[:META_PRESCAN_BYTES])
    return match.group(1).decode("ascii", "ignore") if match else None


def _codec(label: str | None) -> str | None:
    """Map a charset label to a Python codec name, or ``None`` if Python has no such codec."""
    if not label:
        return None
    label = label.strip().lower()
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    return _SUPERSETS.get(label) or _SUPERSETS.get(name) or name


def _try_decode(body: bytes, codec: str) -> str | None:
    text = body.decode(codec, errors="replace")
    bad = text.count("\ufffd")
    if bad and bad > MAX_REPLACEMENT_SHARE * len(text):
        return None
    return text


def _detect(body: bytes) -> Decoded:
    text = _try_decode(body, "utf-8")
    if text is not None:
        return Decoded(text, "utf-8", "default")
    best = from_bytes(body[:200_000]).best()
    codec = _codec(best.encoding) if best else None
    if codec and (text := _try_decode(body, codec)) is not None:
        return Decoded(text, codec, "detected")
    raise UndecodableDocument("no charset decodes the body (tried header, meta, detection, utf-8)")
