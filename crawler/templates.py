"""URL template keys: a page's site plus the shape of its URL, so pages of one template share a key.

The key is ``<site><path>[?<query>]`` where

- ``<site>`` is the host name, lower-cased, without a leading ``www.`` and without the port;
- the path is split at ``/`` and every segment is replaced by its *shape*; an extension of 1-5 letters
  (``.html``, ``.shtml``, ``.php``) is kept and the part before it is shaped;
- the query keeps its parameter names (sorted) and shapes their values; the fragment is dropped.

The shape of a segment (first rule that matches):

1. a date ``YYYYMMDD``, ``YYYY-MM-DD`` or ``YYYY_MM_DD`` (year 19xx/20xx, valid month and day) → ``<date>``;
2. only digits → ``<n{len}>`` (so ``/2024/05/12/`` becomes ``/<n4>/<n2>/<n2>/``);
3. an id: hex of 8+ characters with both digits and letters, or 10+ letters and digits with at least
   two digits (``ATN2UGL700252G50``) → ``<id>``;
4. a slug: two or more runs of letters/digits joined by ``-`` or ``_`` (``rain-in-spain``,
   ``business-27107354``) → ``<slug>``;
5. anything else is kept as written (``news``, ``index``).

>>> template_key("https://www.example.com/news/2024/05/12/rain-in-spain.html")
'example.com/news/<n4>/<n2>/<n2>/<slug>.html'
>>> template_key("http://money.163.com/15/0704/19/ATN2UGL700252G50.html")
'money.163.com/<n2>/<n4>/<n2>/<id>.html'
>>> template_key("https://www.bbc.com/news/business-27107354")
'bbc.com/news/<slug>'
>>> template_key("https://example.org/archive/20240512/?page=3&cat=world#top")
'example.org/archive/<date>/?cat=world&page=<n1>'
>>> template_key("https://example.org/item/5f3a9c2be81d4a7f")
'example.org/item/<id>'
>>> template_key("http://127.0.0.1:8000/")
'127.0.0.1/'
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

__all__ = ["segment_shape", "template_key"]

_DATE = re.compile(r"(19|20)\d\d[-_]?(0[1-9]|1[0-2])[-_]?(0[1-9]|[12]\d|3[01])")
_DIGITS = re.compile(r"\d+")
_HEX_ID = re.compile(r"[0-9a-fA-F]{8,}")
_ALNUM_ID = re.compile(r"[A-Za-z0-9]{10,}")
_SLUG = re.compile(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+")
_EXTENSION = re.compile(r"(.+)(\.[A-Za-z]{1,5})")


def segment_shape(segment: str) -> str:
    """The shape of one path segment or query value (rules in the module docstring).

    >>> [segment_shape(s) for s in ["2024", "2024-05-12", "a1b2c3d4", "top-stories", "news", ""]]
    ['<n4>', '<date>', '<id>', '<slug>', 'news', '']
    """
    if _DATE.fullmatch(segment):
        return "<date>"
    if _DIGITS.fullmatch(segment):
        return f"<n{len(segment)}>"
    if _is_id(segment):
        return "<id>"
    if _SLUG.fullmatch(segment):
        return "<slug>"
    return segment


def _is_id(segment: str) -> bool:
    has_letter = any(c.isalpha() for c in segment)
    digits = sum(c.isdigit() for c in segment)
    if _HEX_ID.fullmatch(segment) and has_letter and digits:
        return True
    return bool(_ALNUM_ID.fullmatch(segment)) and has_letter and digits >= 2


def _path_segment_shape(segment: str) -> str:
    match = _EXTENSION.fullmatch(segment)
    if match:
        return segment_shape(match.group(1)) + match.group(2).lower()
    return segment_shape(segment)


def template_key(url: str) -> str:
    """The template key of ``url`` (see the module docstring for the exact rules)."""
    parts = urlsplit(url)
    site = (parts.hostname or "").lower().removeprefix("www.")
    path = "/".join(_path_segment_shape(s) for s in (parts.path or "/").split("/"))
    key = site + path
    if parts.query:
        pairs = sorted(parse_qsl(parts.query, keep_blank_values=True))
        key += "?" + "&".join(f"{name}={segment_shape(value)}" for name, value in pairs)
    return key
