"""Whether a text is written in a CJK script (Chinese, Japanese, Korean): the test that decides
whether a page is extracted against its same-template sibling.

LCS template denoising against a sibling (paper 003, :mod:`extractors.lcs_denoise`) raises the
body F1 of the Chinese portals and lowers it on every Latin-script set we have, page by page over
the pages with a sibling, ``default`` method (docs/evaluation.md, "Fifth round"): gne 0.9804 with
the sibling against 0.9456 without, cx_163 0.9201 against 0.9070; but cx_bbc 0.9486 against
0.9533, cleanportaleval 0.9568 against 0.9591, big9 0.9549 against 0.9567, wcxb_dev 0.638 against
0.663. So by default (``extract(..., use_sibling="auto")``) the sibling is used only on a page
whose text is CJK.

The test: :func:`cjk_share` is the share of CJK characters (Han ideographs, kana, Hangul) among the
letters of a text (``str.isalpha``: Latin, Cyrillic, Greek, Arabic... letters, and the CJK
characters themselves; digits, punctuation and spaces do not count). A text is CJK when the share is
at least :data:`CJK_MIN_SHARE`. Counted per character, so one Chinese character weighs as much as
one Latin letter: a Chinese story quoting English names stays far above the threshold (the English
words are a few letters each against the story's characters).

Where the threshold comes from: every page of aeb, big9, cleanportaleval, cx_bbc, cx_163, gne,
readability_testpages, trafilatura_eval and wcxb_dev (3,549 pages, 2026-11-26; the script is in
docs/evaluation.md, "Sixth round"), the share of the body the chain reads without a sibling. The
shares fall in two groups with an empty band between them: 157 pages at 0.298 or more (143 of
them 0.9 or more): the Chinese pages of cx_163, gne, aeb, readability_testpages and
trafilatura_eval, the lowest a WeChat post full of English terms (gne ``wechat/2``, 0.298), then
a CSDN post (0.68); every other page at 0.024 or less but one English blog post on Japan quoting
Japanese words (trafilatura_eval ``blog.gaijinpot.com``, 0.177). On the whole page's text (what
:func:`page_is_cjk` reads) the band is 0.149 to 0.343. :data:`CJK_MIN_SHARE` = 0.25 lies inside
both bands, about halfway; any value from 0.18 to 0.29 splits these pages alike. The sets' gold
``lang`` is not used: it calls some Chinese pages of gne ``latin`` and a German page ``zh``.
On those pages the whole page's text and the body fall on the same side of 0.25 but for three
Chinese pages whose body holds no CJK letter: two list pages of gne with an empty body (the
chain then reads the page's text: a body without letters says nothing about its script) and one
whose body is a URL. None goes the other way, so a crawl that skips pairing on a page whose text
is not CJK (:func:`page_is_cjk`) loses no page the chain would have paired.
"""

from __future__ import annotations

import re

__all__ = ["CJK_MIN_SHARE", "cjk_share", "has_letters", "is_cjk", "page_cjk_share", "page_is_cjk"]

#: A text whose share of CJK characters among its letters is at least this is CJK (see the module
#: docstring for where the value comes from).
CJK_MIN_SHARE = 0.25
#: Characters read for the share: the share of a longer text is stable long before this, and the
#: cost stays bounded (~1 ms) on a huge page.
SAMPLE_CHARS = 20_000

_CJK = re.compile(
    "[\u1100-\u11ff"        # Hangul Jamo
    "\u3040-\u30ff"         # Hiragana, Katakana
    "\u3130-\u318f"         # Hangul compatibility Jamo
    "\u31f0-\u31ff"         # Katakana phonetic extensions
    "\u3400-\u4dbf"         # CJK unified ideographs extension A
    "\u4e00-\u9fff"         # CJK unified ideographs
    "\uac00-\ud7af"         # Hangul syllables
    "\uf900-\ufaff"         # CJK compatibility ideographs
    "\uff66-\uff9f"         # half-width katakana
    "\U00020000-\U0003134f"  # CJK unified ideographs extensions B-G
    "]")
_LETTER = re.compile(r"[^\W\d_]")
_NOT_LETTERS = re.compile(r"[\W\d_]+")


def cjk_share(text: str) -> float:
    """The share of CJK characters among the letters of ``text`` (0.0 for a text without letters).

    >>> cjk_share("高速公路超前发展有必要"), cjk_share("It rained all day."), cjk_share("12 3,4")
    (1.0, 0.0, 0.0)
    >>> round(cjk_share("苹果公司 Apple 发布了新手机"), 2)
    0.67
    """
    sample = text[:SAMPLE_CHARS]
    letters = len(_NOT_LETTERS.sub("", sample))  # (a C loop: ~0.5 ms on 20 000 characters)
    cjk = len(sample) - len(_CJK.sub("", sample))
    return min(1.0, cjk / letters) if letters else 0.0  # (a few kana marks are CJK, not letters)


def has_letters(text: str) -> bool:
    """Whether ``text`` holds a letter (any script).

    >>> has_letters("2024-05-01 10:00"), has_letters("新闻")
    (False, True)
    """
    return _LETTER.search(text[:SAMPLE_CHARS]) is not None


def is_cjk(text: str) -> bool:
    """Whether ``text`` is CJK: :func:`cjk_share` at least :data:`CJK_MIN_SHARE`.

    >>> is_cjk("ソニーは新しいカメラを発表した"), is_cjk("한국은행이 기준금리를 동결했다"), is_cjk("Die Bank")
    (True, True, False)
    """
    return cjk_share(text) >= CJK_MIN_SHARE


def page_cjk_share(nodes) -> float:
    """:func:`cjk_share` of a parsed page's whole text (``Page.nodes``, an
    :class:`extractors.nodetable.NodeTable`: every text segment of the body, furniture included),
    read up to :data:`SAMPLE_CHARS` characters."""
    return cjk_share(_page_text(nodes))


def page_is_cjk(nodes) -> bool:
    """Whether a parsed page's whole text is CJK (:func:`page_cjk_share`): what a crawl reads before
    it pairs the page, when its body is not known yet.

    A text without one CJK character has a share of 0 whatever its letters, so the letters are
    counted only once one is found: a page in another script costs one regular-expression search
    instead of two substitutions over its 20 000 characters (the crawl bench's 175 English pages
    0.59-0.84 -> 0.10 ms a page, its 65 Chinese ones 0.78 either way; thread CPU, load 4-10)."""
    text = _page_text(nodes)
    return _CJK.search(text, 0, SAMPLE_CHARS) is not None and cjk_share(text) >= CJK_MIN_SHARE


def _page_text(nodes) -> str:
    """The text segments of ``nodes`` joined, up to the first to reach :data:`SAMPLE_CHARS`."""
    parts, size = [], 0
    for segment in nodes.seg_text:
        parts.append(segment)
        size += len(segment)
        if size >= SAMPLE_CHARS:
            break
    return "".join(parts)
