"""Hostile pages made from real pages (MIT / CC-BY-4.0 fixtures, tests/fixtures/SOURCES.md).

Each builder takes a real page and changes one thing, the way an attacker (or a broken CMS) would:

- :func:`many_attributes`: the ``<body>`` of a real article given 200 000 attributes (3.4 MB);
- :func:`many_links`: a real list page with 200 000 more story links in one list (6 MB);
- :func:`deep_nesting`: a real article whose text follows 100 000 nested ``<div>`` elements;
- :func:`gzip_bomb`: a real article padded with 200 MB of spaces, served gzip-compressed (~200 KB).
"""

from __future__ import annotations

import gzip
from pathlib import Path

__all__ = ["ARTICLE", "LIST_PAGE", "deep_nesting", "gzip_bomb", "many_attributes", "many_links"]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
#: A real New York Times article (aeb, MIT; one plain ``<body>``, no conditional comments) and a
#: real ifixit.com list page (wcxb_dev, CC-BY-4.0).
ARTICLE = (FIXTURES / "pages" / "aeb-00001.html").read_bytes()
LIST_PAGE = (FIXTURES / "psnt" / "wcxb_dev-0651.html").read_bytes()


def _insert_after(page: bytes, marker: bytes, addition: bytes) -> bytes:
    at = page.index(marker) + len(marker)
    return page[:at] + addition + page[at:]


def many_attributes(count: int = 200_000) -> bytes:
    """The real article, its ``<body>`` element given ``count`` attributes."""
    attributes = b"".join(b' data-a%d="v"' % i for i in range(count))
    return _insert_after(ARTICLE, b"<body", attributes)


def many_links(count: int = 200_000) -> bytes:
    """The real list page with a list of ``count`` more same-site story links (short ones: 200 000
    make a 6 MB page, under the 10 MB page cap)."""
    items = b"".join(b'<li><a href="/s/%d">S%d</a></li>' % (i, i) for i in range(count))
    return _insert_after(LIST_PAGE, b"<body>", b"<ul>" + items + b"</ul>")


def deep_nesting(depth: int = 100_000) -> bytes:
    """The real article with its body's content below ``depth`` nested ``<div>`` elements (left
    open, as browsers and parsers accept: the same tree, half the tags)."""
    start = ARTICLE.index(b"<body>") + len(b"<body>")
    return ARTICLE[:start] + b"<div>" * depth + ARTICLE[start:]


def gzip_bomb(padding: int = 200_000_000) -> bytes:
    """The real article followed by ``padding`` spaces, gzip-compressed (the wire body)."""
    return gzip.compress(ARTICLE + b" " * padding, compresslevel=9)
