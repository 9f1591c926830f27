"""Limits on hostile markup that libxml2 would parse slowly or silently truncate.

Three cases, all checked wherever a page is parsed (:func:`extractors.page.parse_page` and the
crawler's link scan), so a page is either parsed whole or refused with a reason, never slowly and
never silently emptied:

- **attributes per element** (``too_many_attributes``): libxml2 checks each new attribute of a start
  tag against the ones before it, so one element with *n* attributes costs O(n²) (measured: 40 000
  attributes 1.4 s, 200 000 about 90 s). :func:`attribute_overflow` finds such a tag in linear time
  before parsing. ``MAX_ATTRIBUTES_PER_ELEMENT`` is far above real pages: the largest element over
  2 690 pages of the evaluation datasets (400 a dataset) has 70 attributes (p99: 26).
- **elements per page** (``too_many_elements``): the parse, the cleaning and the node table run C
  loops over the whole tree that hold the GIL (measured on a page of 200 000 links, 8.6 MB: 1.4 s
  of one worker thread's ``parse_page`` with the reactor thread waiting, 537 MB resident).
  :func:`markup_overflow` counts ``<`` characters (an upper bound of the tags, in one C call):
  ``MAX_MARKUP_TAGS`` is about ten times the most of 2 489 real pages (21 646; p99 9 871).
- **nesting depth** (``too_deep``): libxml2 stops parsing at depth 2 048 (256 without ``huge_tree``)
  and keeps only what it parsed so far, with an ``Excessive depth`` error in the parser's log and no
  exception. :func:`depth_exceeded` reads that log. Real pages nest at most 108 deep (same sample).

>>> attribute_overflow('<p class="a">x</p><div ' + 'a=1 ' * 50 + '>', limit=10)
50
>>> attribute_overflow('<p title="a=1 b=2 c=3 d=4">x</p>', limit=3) is None
True
"""

from __future__ import annotations

import functools
import re

from lxml import etree

__all__ = [
    "MAX_ATTRIBUTES_PER_ELEMENT",
    "MAX_MARKUP_TAGS",
    "attribute_overflow",
    "depth_exceeded",
    "markup_overflow",
]

#: An element with more attributes than this makes the page ``too_many_attributes`` (14x the
#: largest real element measured, see the module docstring; parsing 1 000 costs ~1 ms).
MAX_ATTRIBUTES_PER_ELEMENT = 1_000
#: A page with more ``<`` than this is ``too_many_elements`` (see the module docstring): a page of
#: 50 000 links stays under it (about 0.3 s of GIL held, 200 MB), 200 000 do not.
MAX_MARKUP_TAGS = 200_000

# A start tag (group 1: its name), or a comment (skipped whole, as the parser does).
_TAG_START = re.compile(r"<([A-Za-z][^\s/>]*)|<!--")
# Elements whose content is raw text to the parser (no tags inside): skipped to their end tag.
_RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "plaintext"})
# ... and the end tag of each, any case (compiled once: looked up in ``re``'s cache with its flag
# at each of the ~50 raw-text elements of a page).
_END_TAGS = {name: re.compile(rf"</{name}", re.IGNORECASE) for name in _RAW_TEXT}
# The inside of a start tag, in bounded steps (each regex call reads at most 256 pieces, so no
# single call holds the GIL long on a megabyte-long tag): a quoted value after "=" whole (a quoted
# ">" does not end the tag), or runs of other characters. As in libxml2, a quote only opens a value
# after "="; a stray quote elsewhere is an ordinary character (real pages have them).
_PIECES = re.compile(r"""(?:=\s*"[^"]*"|=\s*'[^']*'|[^>=]+|=){1,256}""")
# Inside a tag: "=value" (skipped), or an attribute name (group 1).
_TOKEN = re.compile(r"""=\s*(?:"[^"]*"|'[^']*'|[^\s"'=>]*)|([^\s"'=/>]+)""")
#: Shortest text of one attribute (a space and a one-letter name): a tag shorter than
#: ``limit * MIN_ATTRIBUTE_CHARS`` characters cannot exceed the limit and is not tokenised.
MIN_ATTRIBUTE_CHARS = 2


def attribute_overflow(text: str, limit: int = MAX_ATTRIBUTES_PER_ELEMENT) -> int | None:
    """The attribute count of the first start tag in ``text`` with more than ``limit``
    attributes, or None. Linear in ``len(text)``: each character is read once.

    The page is walked by :func:`_skipper`'s regex, which passes over text, comments, raw-text
    elements and every start tag it can prove harmless in C; only the tags it stops at (none on
    real pages) go through the exact scanner of the loop below, which the regex mirrors."""
    skip = _skipper(limit)
    pos, size = 0, len(text)
    while pos < size:
        passed = skip.match(text, pos).end()
        if passed > pos:
            pos = passed
            continue
        # the regex stopped at a raw-text element or at a tag it could not prove harmless
        tag = _TAG_START.search(text, pos)
        if tag is None:
            return None
        if tag.group(1) is None:  # a comment
            end = text.find("-->", tag.end())
            pos = len(text) if end < 0 else end + 3
            continue
        pos, count = _scan_tag(text, tag.end(), limit)
        if count > limit:
            return count
        name = tag.group(1).lower()
        if name in _RAW_TEXT:
            end = _find_end(text, name, pos)
            pos = len(text) if end < 0 else end
    return None


@functools.lru_cache(maxsize=8)
def _skipper(limit: int) -> re.Pattern:
    """A regex that passes over what the exact scanner (:func:`_scan_tag` in
    :func:`attribute_overflow`'s loop) would pass over without finding a tag of more than
    ``limit`` attributes, up to 1 000 items a call (so no call holds the GIL long): text,
    comments, and start tags whose inside holds at most ``limit`` steps. It stops before a
    raw-text element (``script``, ``style``...: the loop finds its end tag faster than a regex)
    and before a tag it cannot prove harmless.

    Why this is exact: the inside of a tag is cut into the scanner's own units (a quoted value
    after ``=``, a bare ``=``, a run of name characters, a run of separators: whitespace, quotes,
    ``/``), which end at the same ``>`` as the scanner's pieces. Every attribute name the
    scanner's tokens count is a whole run of name characters. The regex takes the units a step
    at a time, a step being a name run with the value and the separators after it
    (``name="value" ``, one step where the units are three), or one unit that follows no name
    run: no step holds two name runs, so a tag of at most ``limit`` steps has at most ``limit``
    attributes. (A unit a step before took 8-9 % more time: 0.61 -> 0.58 ms big9, 1.10 -> 1.00
    ms cx_163, the median page, CPU time.) The walk is the scanner's: the
    same tag starts, comments skipped to ``-->`` as it skips them. Written by hand because the
    scanner's Python loop over every tag cost as much as the lxml parse itself (1-1.5 ms a page);
    the fuzz test in tests/extractors/test_markup_limits.py checks both agree.
    """
    value = r"""=\s*+"[^"]*+"|=\s*+'[^']*+'|="""
    inside = (rf"""(?>[^\s"'=/>]++(?:{value})?[\s"'/]*+|[\s"'/]++|{value})"""
              rf"{{0,{limit}}}+(?=>|\Z)")
    # a tag name is raw when its lower() is one of _RAW_TEXT: ASCII letters in either case
    # (re.IGNORECASE would also take "\u017f" for "s")
    raw = "|".join("".join(f"[{c.upper()}{c}]" for c in name) for name in sorted(_RAW_TEXT))
    tag = rf"(?!(?:{raw})(?:[\s/>]|\Z))[A-Za-z][^\s/>]*+{inside}"
    comment = r"!--(?:(?s:.*?)-->|(?s:.*)\Z)"
    return re.compile(rf"(?>[^<]++|<(?>{tag}|{comment}|(?![A-Za-z]|!--))){{0,1000}}+")


def _scan_tag(text: str, pos: int, limit: int) -> tuple[int, int]:
    """Read the inside of the start tag from ``pos``: (the position after it, its attribute count
    or 0 when it is too short to matter)."""
    count = length = 0
    while (piece := _PIECES.match(text, pos)) is not None:
        pos, inside = piece.end(), piece.group()
        length += len(inside)
        if length >= limit * MIN_ATTRIBUTE_CHARS:
            count += sum(1 for token in _TOKEN.finditer(inside) if token.group(1))
            if count > limit:
                break
    return pos, count


def _find_end(text: str, name: str, pos: int) -> int:
    """Where the end tag ``</name`` (any case) starts after ``pos``, or -1."""
    match = _END_TAGS[name].search(text, pos)
    return -1 if match is None else match.start()


def markup_overflow(text: str, limit: int = MAX_MARKUP_TAGS) -> int | None:
    """The number of ``<`` in ``text`` when over ``limit`` (an upper bound of its tags), else None.

    >>> markup_overflow("<p>" * 5, limit=4), markup_overflow("<p>a < b</p>", limit=4)
    (5, None)
    """
    count = text.count("<")
    return count if count > limit else None


def depth_exceeded(parser: etree._FeedParser) -> bool:
    """Whether ``parser``'s last parse stopped at libxml2's nesting depth limit."""
    return any(
        error.type == etree.ErrorTypes.ERR_RESOURCE_LIMIT or "Excessive depth" in error.message
        for error in parser.error_log
    )
