"""The page's language as a BCP 47 tag: from the markup, checked against the text.

The markup's tag (``<html lang>``, ``content-language``, JSON-LD ``inLanguage``, ``og:locale``) is
normalised (``en_us`` -> ``en-US``). The text decides when the markup says nothing or contradicts
it (templates left at ``lang="en-US"`` on German blogs are common): ``py3langid`` (a numpy port of
langid.py, 97 languages) classifies up to ``TEXT_SAMPLE_CHARS`` of the main text in ~0.3 ms once
its model is loaded (~0.9 s, on first use).
"""

from __future__ import annotations

import array
import logging
import re
import threading

__all__ = ["normalise_tag", "page_language"]

logger = logging.getLogger(__name__)

#: Characters of main text classified: langid's accuracy is flat beyond a few hundred, and its
#: cost grows with the sample (7 ms for 2 000 Chinese characters, under 1 ms for 600).
TEXT_SAMPLE_CHARS = 600
#: Shortest main text whose language is trusted over the markup's: below ~200 characters
#: (a caption, a teaser) langid confuses close languages.
MIN_TEXT_CHARS = 200

#: Held for py3langid's first classification, which loads its model: py3langid's own check (a
#: module global still None) is not thread-safe, and the crawl's extraction threads all start at
#: once, so each loaded the model (~0.6 s of CPU each, about 3.5 s of a 250-page crawl). Module
#: state because the model it guards is py3langid's own module global.
_FIRST_USE = threading.Lock()
_model_loaded = False

_TAG = re.compile(r"^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})*$")


def normalise_tag(value: str | None) -> str | None:
    """A BCP 47 tag from what markup writes, or None when it is not one.

    >>> normalise_tag("en_us"), normalise_tag("zh-hans-CN"), normalise_tag("English")
    ('en-US', 'zh-Hans-CN', None)
    """
    if not value:
        return None
    value = value.strip().split(",")[0].strip()
    if not _TAG.match(value) or len(value) > 35:
        return None
    parts = re.split(r"[-_]", value)
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            out.append(part.title())
        elif len(part) == 2 and part.isalpha():
            out.append(part.upper())
        else:
            out.append(part.lower())
    return "-".join(out)


def page_language(declared: list[tuple[str, str]], text: str) -> tuple[str | None, str | None,
                                                                         str | None]:
    """(tag, source, note): the first valid declared tag (``declared`` = [(value, source)]),
    unless the main text says another language; then the text's, with a note saying so."""
    tag, source = None, None
    for value, where in declared:
        tag = normalise_tag(value)
        if tag:
            source = where
            break
    sample = text[:TEXT_SAMPLE_CHARS]
    if len(sample.strip()) < MIN_TEXT_CHARS:
        return tag, source, None
    detected = _classify(sample)
    if detected is None:
        return tag, source, None
    if tag is None:
        return detected, "text", None
    if tag.split("-")[0] != detected:
        return detected, "text", f"markup says {tag}, the text is {detected}"
    return tag, source, None


#: py3langid's per-state tables that its byte-by-byte walk reads at every byte of the sample
#: (``_rowbase``, a row offset, and ``tk_output``, a feature, ~105 000 states each), held as
#: arrays of machine integers instead of lists of Python ints: the walk then reads 8 bytes where
#: it followed a list's pointer to an int object elsewhere in memory, which costs a cache miss
#: each in the chain (the page's parse and steps evict the model between two pages).
#: ``_classify`` in the chain, big9's 80 pages, median CPU: 0.73 -> 0.61 ms (isolated, with
#: the model in the cache: 0.18 ms either way). The same integers, so the same answers.
_COMPACT_TABLES = ("_rowbase", "tk_output")


def _compact_tables() -> None:
    """py3langid's loaded model with :data:`_COMPACT_TABLES` as ``array("q")`` (where they are
    lists: the attributes of py3langid 0.4; another version's model is left as it is)."""
    from py3langid import langid

    identifier = getattr(langid, "IDENTIFIER", None)
    for name in _COMPACT_TABLES:
        table = getattr(identifier, name, None)
        if isinstance(table, list):
            setattr(identifier, name, array.array("q", table))


def _classify(sample: str) -> str | None:
    global _model_loaded
    import py3langid  # imported on first use: its model loads in ~0.9 s

    try:
        if _model_loaded:
            code, _ = py3langid.classify(sample)
        else:
            with _FIRST_USE:  # one thread loads the model, the others wait for it
                code, _ = py3langid.classify(sample)
                _compact_tables()
                _model_loaded = True
    except OSError as error:  # py3langid unpacks its model to a temp file on first use: a full
        # disk must cost the page its detected language (the markup's tag stays), not the page
        logger.warning("language detection unavailable: %s", error)
        return None
    return code or None
