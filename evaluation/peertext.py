"""Turning what peers return (HTML fragments, raw bytes) into plain text, the same way for all."""

from __future__ import annotations

import re

import lxml.html

XML_DECLARATION_RE = re.compile(r"^\s*<\?xml[^>]*\?>\s*")

BLOCK_TAGS = frozenset({
    "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr",
    "blockquote", "pre", "section", "article", "header", "footer", "figure", "figcaption", "dd",
    "dt", "td", "th",
})


def fragment_text(fragment: str | None) -> str:
    """Text of an HTML fragment with a line break after each block element.

    >>> fragment_text("<div><p>One <b>two</b></p><p>three</p></div>")
    'One two\\nthree'
    >>> fragment_text("")
    ''
    """
    if not fragment or not fragment.strip():
        return ""
    root = lxml.html.fragment_fromstring(fragment, create_parent="div")
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag in BLOCK_TAGS:
            element.tail = "\n" + (element.tail or "")
    lines = (line.strip() for line in root.text_content().splitlines())
    return "\n".join(line for line in lines if line)


def decode_for_peers(html: bytes) -> str:
    """Decode page bytes for the peers that want text (the project's own decoder).

    A leading XML declaration is dropped: once the text is decoded it is wrong, and lxml (under
    most peers) refuses a ``str`` that carries one.

    >>> decode_for_peers(b'<?xml version="1.0" encoding="utf-8"?> <html><p>x</p></html>')
    '<html><p>x</p></html>'
    """
    from extractors.decoding import decode_html

    try:
        text = decode_html(html).text
    except ValueError:
        text = html.decode("utf-8", errors="replace")
    return XML_DECLARATION_RE.sub("", text, count=1)
