"""Dates and authors from the visible page when its metadata gives none: bylines and datelines.

Run for pages whose metadata left the field empty, and (dates) to check a metadata date against
the day the page shows (``fields._shown_date``). Dates: htmldate on our tree (a well-kept library
for exactly this: on the dev sets it finds the right day on more of these pages than our own
patterns did, e.g. htmldate_eval day accuracy 0.881 -> 0.896), then the elements whose class or id
names a date (``class="entry-date"``) and the text after the headline. Authors: a "By ..." line
right after the headline (the heading that reads as the chosen title, then the first ``<h1>``),
a link to the author's page, elements whose class or id names an author, a labelled name in a
post's meta line, a "Written by" line anywhere, a team alone in an author element, for
Chinese pages the "作者：" / "责任编辑：" line, and last the name that signs the main text at its
end (:func:`signature`), the post author's own comment (:func:`post_author_comment`), an
author credit line of the main text (:func:`credit_line`) and a press release's contact
(:func:`press_contact`).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from datetime import UTC, date, datetime, timedelta
from itertools import accumulate, compress
from typing import TYPE_CHECKING

from extractors.authors import clean_authors
from extractors.dates import (MAX_DATELINE_CHARS, FoundDate, first_date_in, other_reading,
                              parse_date)
from extractors.page import Page, heading_rows, link_hrefs, name_marks

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy as np

__all__ = ["base_of", "cjk_byline", "credit_line", "full_name", "is_outlet", "name_written_out",
           "person_over_outlet", "plain_byline", "press_contact", "read_text_authors", "signature",
           "text_authors", "text_date", "thread_starter"]

#: Elements with a date-ish class looked at (the byline is among the first few of a page).
MAX_MARKED = 30
#: Longest text of a marked element read as a date or a byline (a dateline with place and time
#: is under ~120 characters; longer ones are whole teasers).
MAX_MARKED_CHARS = 160
#: ... and of text segments (a byline is a few spans; more is a whole block).
MAX_MARKED_SEGMENTS = 12
#: Characters after the headline searched for a dateline (bylines sit right below the headline;
#: 1 500 covers a standfirst and an image caption in between).
AFTER_HEADLINE_CHARS = 1_500
#: Text read right under the headline for its dateline (see :func:`headline_dateline`): a
#: dateline sits in the first lines below it, before the standfirst; 200 characters hold a kicker,
#: a byline and the date (pages gained and lost are in :func:`headline_dateline`). Counted from
#: the line after the headline, without the lines' indentation.
UNDER_HEADLINE_CHARS = 200
#: Text segments right above the headline (the heading's own included) searched for a "By ..."
#: line where none follows it: some templates set the byline over the headline (with the dash
#: of a dateline in the byline's own span, "05.02.2020" / "- Redaktion: Eberhard Fuhr"):
#: trafilatura_eval 407 -> 408 of the pages with a gold author, none lost elsewhere.
BEFORE_HEADLINE_SEGMENTS = 4
#: Text segments right above the headline read for its dateline where none is under it
#: (:func:`headline_dateline`): templates that set the date over the headline, as a kicker
#: ("February 4, 2025 - 11 minutes"; "Last updated:" / "Dec 12, 2025", two segments). Every
#: page with a gold date: wcxb_dev 709 -> 711, htmldate_eval 928 -> 929, none lost; 3 and 6
#: segments gain the same pages (6 reaches furche.at's teaser dates, wrong either way); the
#: nearest of several date lines first lost ucdavis.edu's "DECEMBER 22, 2022" over
#: "Updated: JANUARY 02, 2026" (docs/evaluation.md, "Dates, ninth round").
ABOVE_HEADLINE_SEGMENTS = 2
#: Text segments after the headline searched for a "By ..." line (a standfirst, a picture and its
#: caption come first on many pages; the byline is within ~40 segments on the dev sets' pages).
BYLINE_SEGMENTS = 40
#: The segments after a byline's label read for its names and their connectors (the reader's
#: seven since the fourth round: four names and their three connectors fit). They are read past
#: the end of the ``BYLINE_SEGMENTS`` window too: a label near its end had its names cut off
#: (trafilatura_eval franceculture.fr "Par" 39 segments under the headline, "Jacques Munier" at
#: 40, no name read; cubadebate.cu "Por:" at 35, its third name "René Tamayo" at 40 lost).
NAME_SEGMENTS = 7
#: Characters of body text searched for any date when nothing else gave one (the regexes cost
#: ~0.7 ms per 1 000 characters; a dateline sits in the first few thousand).
MAX_DATELINE_SCAN = 5_000
#: htmldate's extensive search (its text patterns) or only its markup rules: day accuracy on
#: wcxb_dev 0.862 with it, 0.847 without (htmldate_eval 0.896 either way); it costs ~3x
#: (217 vs 69 ms a call on wcxb_dev pages, measured on a loaded machine).
HTMLDATE_EXTENSIVE = True
#: Characters of body text searched for a Chinese byline (it sits above or right below the text).
MAX_BYLINE_SCAN = 20_000

#: Class/id words that mark a date or an author (plain substrings of the lower-cased attributes:
#: a regex per element cost ~20 us on long utility-class strings, 29 ms a page on wcxb_dev).
SHOWN_DAY_WINDOW = 200
"""Characters before a written year (after it, for ISO days) that ``shows_day`` searches for the
day written with it: the longest form, a month's name between spaces, is under 40; a day
written further from its year is no reading of it."""
_DATE_MARKED = ("date", "time", "publish", "posted", "byline", "meta", "info", "zeit", "datum")
_AUTHOR_MARKED = ("author", "byline", "writer", "autor", "reporter", "source")
_SKIP_WORDS = ("comment", "related", "footer", "sidebar", "widget", "bio", "avatar", "share",
               "social")
#: Not an author box either: "resources" holds "source" ("All Resources", "Search Resources"
#: menus were read as names), "authority" holds "author" (Wikipedia's "Authority control"
#: box); an element marked "resource-author" still is one.
_NOT_SOURCE = (("source", "resource"), ("author", "authority"))
#: Not a dateline either: a citation's access date ("Retrieved 27 January 2020" on Wikipedia).
_DATE_SKIP_WORDS = (*_SKIP_WORDS, "access", "reference", "citation")
#: Elements holding a post's meta line (date, author, category).
_META_MARKED = ("meta", "byline", "posted", "submitted", "postdata", "post-info", "entry-info",
                "date", "author")
#: "by" / "von" and the other labels of a byline inside a meta line; the name runs to a
#: separator, the end of its text segment, a number, or "on"/"am"/"um"/"in" (the date or
#: category after it).
_LABELLED = re.compile(
    r"(?:^|(?<=[\s|·•,–—:\d-]))"
    r"(?i:(?:posted|written|published|geschrieben|verfasst|gespeichert|erstellt|artikel|beitrag|"
    r"text)\s+(?:by|von)|by|von|autor(?:in)?:|author:|verfasser(?:in)?:)"
    r"(?:[ \t]*:?\s+|(?=[A-ZÀ-ÖØ-Þ]))(?![^\n]*?(?i:\bby\b|\bvon\b))"
    r"(?P<name>[^\s|·•,–—()\d:][^|·•,–—():\n]{0,60}?)"
    r"(?=[ \t]+(?i:on|am|um|in|at|for|und|and|with|mit|under)\b|\s*[|·•,–—():\n]|\s+\d|\s+-\s|"
    r"\s*$)")
#: Words after "by" that are no name ("by the way", "by email").
_NOT_BYLINE = frozenset({"the", "a", "an", "email", "e-mail", "mail", "phone", "admin", "me"})
_BY_WORDS = frozenset({"by", "von", "par", "por", "door", "di", "av", "af", "text", "texto"})
#: Of those, the ones that are also weekday abbreviations or other words ("Di", "af", a font
#: size chooser's "Text" / "Small").
_SHORT_LABELS = frozenset({"di", "av", "af", "text", "texto"})
#: A byline: a label ("By", "Von:", "Written by:", "Redaktion:"), then a capitalised first and
#: last name; a dateline may come first ("05.02.2020 - Redaktion: Eberhard Fuhr").
_BY_LINE = re.compile(r"(?:[\d./:\s]*[-–—|•·]\s*)?"
                      r"((?i:(?:written\s+|posted\s+|geschrieben\s+|verfasst\s+)?by|von|par|por|"
                      r"door|text|texto|autor|autorin|author|auteur|redaktion)\s*:?\s+"
                      r"[A-ZÀ-ÖØ-Þ][\w.'-]+\s+[A-ZÀ-ÖØ-Þ].*)")
#: The "on" / "am" / "um" a byline's segment ends with when its date is a link of its own ("Von
#: R. R. am" / "07.08.2013"): not part of the name (trafilatura_eval's time4talks page read
#: "R. R. am" once the chosen title found its headline).
_DATE_WORD_END = re.compile(r"\s+(?i:on|am|um)\s*$")
#: A dateline then a name and nothing else: "11.12.2019 - Amelie Loevenich", "2019-12-11 | Jane
#: Roe" (the name of two or three capitalised words); the day may be written with its month's
#: name and a time may follow it ("Dec 26, 2025 • Mahua Das in Project Management", "04.02.2022
#: | 13:10 Uhr | Uta Helkenberg"), and the name may be followed by " in " a category or " on "
#: behalf of someone (trafilatura_eval +1, wcxb_dev +1 of the pages with a gold author, none lost).
_DATE_NAME = re.compile(r"^(?:\d{1,2}\.\s?\d{1,2}\.\s?\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{4}|"
                        r"(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2},?"
                        r"\s+\d{4})"
                        r"(?:\s*[-–—|•·,]?\s*\d{1,2}:\d{2}(?:\s*(?i:uhr|am|pm))?)?\s*[-–—|•·]\s*"
                        r"(?P<name>[A-ZÀ-ÖØ-Þ][\w'-]+(?:\s+[A-ZÀ-ÖØ-Þ][\w.'-]+){1,2})"
                        r"\s*(?:$|(?=\s(?:in|on)\s))")
#: Words of an outlet's name, not a person's ("By BBC News", "Von: Ostbelgien Direkt").
_OUTLET = re.compile(r"(?i)\b(?:news|press|times|media|blog|magazin\w*|zeitung|online|tv|radio|"
                     r"daily|post|journal|direkt|welle|network|group|agency|team|herald|"
                     r"tribune|gazette|review|today|weekly|digital)\b")
#: A link to an author's page: ``/author/jdoe``, ``/autor/...``, ``/profile/123``, ``/members/x.21``,
#: ``/staff/...``, WordPress's ``?author=3``, a Medium-style ``/@handle``.
_AUTHOR_HREF = re.compile(r"(?i)/(?:authors?|autor|autoren|autorinnen|users?|profiles?|profil|"
                          r"members?|staff|people|writers?|contributors?|journalist\w*|"
                          r"redakteur\w*)/(?P<slug>[^/?#]+)|[?&]author=\d|/@[\w.-]+/?$")
#: :data:`_AUTHOR_HREF` over hrefs one a line: the same pattern, whose slug stops at a line
#: break (no other part of it matches one), with ``$`` at each line's end.
_AUTHOR_HREF_LINES = re.compile(_AUTHOR_HREF.pattern.replace("[^/?#]+", "[^/?#\n]+"), re.M)
#: ... without its ``(?i)``, for lower-cased ASCII hrefs: on ASCII text ``(?i)`` matches exactly
#: what the lower-case pattern matches in the lowered text (every literal of the pattern is
#: lower case; the Unicode case pairs ``(?i)`` adds, "K" and "ſ", are not ASCII), and a search
#: without it is a third faster (0.76 -> 0.47 ms on cx_163's pages, 0.30 -> 0.20 on big9's).
_AUTHOR_HREF_LINES_ASCII = re.compile(_AUTHOR_HREF_LINES.pattern.removeprefix("(?i)"), re.M)
#: Slugs of account pages, not of a person: "/user/login", "/profile/edit".
_ACCOUNT_SLUG = re.compile(r"(?i)^(?:log-?in|log-?out|sign-?in|sign-?up|sign_in|register\w*|"
                           r"registrieren|anmelden|abmelden|edit|settings|account|list|index|"
                           r"me|new|all)(?:\.\w+)?$")
#: Marks of the blocks whose author links are not the article's: comments, sidebars, footers,
#: and picture galleries and captions (a photo's uploader or photographer).
_AUTHOR_LINK_SKIP = ("comment", "related", "footer", "sidebar", "widget", "reply", "respond",
                     "menu", "nav", "carousel", "gallery", "slider", "lightbox", "caption")
#: Author links looked at per page (a forum page links hundreds of posters).
MAX_AUTHOR_LINKS = 20
#: Names read from author links side by side (a byline lists 1-4 people).
MAX_LINKED_AUTHORS = 6
#: A role between the label and the name, ended by a space: "文/观察者网专栏作者 王文",
#: "文/本报记者 张三" (the name is what follows the role, not the role's first characters).
_CJK_ROLE = r"(?:[\u4e00-\u9fff]{0,10}(?:记者|作者|评论员|通讯员|撰稿人|编辑|研究员)\s+)?"
_CJK_BYLINE = re.compile(r"(?:作者|记者|撰文|文|编辑|责任编辑|责编)\s*[:：/]\s*" + _CJK_ROLE +
                         r"([\u4e00-\u9fff·]{2,5}(?:[ 、，,][\u4e00-\u9fff·]{2,5}){0,3})")


def base_of(page: Page) -> str | None:
    """The URL relative links resolve against: ``<base href>`` joined to the page URL."""
    from extractors.tagpaths import join_url

    head = page.root.find("head")
    for element in () if head is None else head.iterfind("base"):
        href = (element.get("href") or "").strip()
        if href:
            return join_url(page.url, href) or page.url
    return page.url


def htmldate_fallback(page: Page, fetched_at: datetime | None) -> FoundDate | None:
    """htmldate (its rules for date-marked elements, CMS idiosyncrasies and, extensive, text
    patterns) on the page's tree, for pages whose metadata gives no date.

    htmldate copies the tree it is given, so ours stays as it is; it costs 20-70 ms a page (its
    copy and whole-text searches), paid only by the pages without a metadata date (about one in
    five on the dev sets): the reason the fields step's mean is far above its median."""
    return _htmldate(page, page.root, fetched_at, HTMLDATE_EXTENSIVE)


def htmldate_source(page: Page, source: bytes | str, fetched_at: datetime | None
                    ) -> FoundDate | None:
    """htmldate on the page's source as fetched, for a page where nothing on the parsed tree
    gave a date (metadata, URL, htmldate on the tree, the dateline): the source still holds
    what the parse dropped, scripts and comments, where some pages keep their only date (an app
    state's ``"publishedDate"`` or ``"createdAt"``).

    A second parse, by htmldate, for the articles that reach it (``extract()`` calls it for
    pages typed ``article`` only: every third page of each set, all types, 0.6 % of
    htmldate_eval's, 3.6 % of trafilatura_eval's, 11 % of wcxb_dev's; 1-5 ms median, 63 ms at
    most). Of the dated pages it dated 2 of htmldate_eval's 995, 2 of trafilatura_eval's 728,
    none of wcxb_dev's, none dated before. htmldate's markup rules only: its extensive search
    (text patterns over the whole source) dated 2 more htmldate_eval pages (a ``showDate()``
    call, a cache comment) but cost 46 ms median and up to 1.1 s a page on the wcxb_dev pages
    reaching it, on a loaded machine (docs/evaluation.md, "Dates, fifth round"). ``source``
    bytes are decoded with the page's encoding; a 1 January answer stands only where the page
    writes that day."""
    if isinstance(source, bytes):
        try:
            source = source.decode(page.encoding if page.encoding != "unicode" else "utf-8",
                                   "replace")
        except LookupError:
            source = source.decode("utf-8", "replace")
    return _htmldate(page, source, fetched_at, False, url=page.url)


def _htmldate(page: Page, document, fetched_at: datetime | None, extensive: bool,
              url: str | None = None) -> FoundDate | None:
    """htmldate's original date of ``document`` (our tree or the source), none after tomorrow,
    and none where it is 1 January of a year the page does not write as that day."""
    from htmldate import find_date  # imported on first use

    latest = (fetched_at or datetime.now(UTC)) + timedelta(days=1)
    try:
        found = find_date(document, url=url, extensive_search=extensive, original_date=True,
                          outputformat="%Y-%m-%d", max_date=latest.strftime("%Y-%m-%d"))
    except Exception:  # htmldate raises assorted errors on odd pages; no date is the answer
        return None
    date = parse_date(found, fetched_at)[0] if found else None
    if date is not None and (date.when.month, date.when.day) == (1, 1) \
            and not _writes_new_year(page, date.when.year):
        return None  # a bare year (a copyright line) read as 1 January
    return date


def day_patterns(day: date) -> tuple[re.Pattern, re.Pattern, re.Pattern, re.Pattern]:
    """The forms ``shows_day`` reads ``day`` in: German short (``07.09.19``), ISO or CJK (year
    first), numeric with the year last, and a word between the day and the year (each match
    then read by ``parse_date``)."""
    y, m, d = day.year, day.month, day.day
    short = re.compile(rf"(?<![\d.]){d:02d}\.{m:02d}\.{y % 100:02d}(?![\d.])")
    iso = re.compile(rf"(?<!\d){y}\s*[-/.年]\s*0?{m}\s*[-/.月]\s*0?{d}(?!\d)")
    numeric = re.compile(rf"(?:(?<![\d.])0?{d}\.\s?0?{m}\.\s?|(?<![\d/])0?{d}/0?{m}/|"
                         rf"(?<![\d/])0?{m}/0?{d}/|(?<![\d-])0?{d}-0?{m}-){y}(?!\d)")
    named = re.compile(rf"(?i)(?<!\d)0?{d}(?:st|nd|rd|th|er|º)?\.?\s+(?:of\s+|de\s+)?"
                       rf"[^\W\d_]{{3,}}\.?,?\s+(?:de\s+)?{y}(?!\d)|"
                       rf"[^\W\d_]{{3,}}\.?\s+0?{d}(?:st|nd|rd|th)?,?\s+{y}(?!\d)")
    return short, iso, numeric, named


def shows_day(page: Page, day: date, langs: tuple[str, ...] = (),
              rows: np.ndarray | None = None) -> bool:
    """Whether the page's text (its segments, not attributes, scripts or ``<meta>``; only those
    of the kept rows where ``rows``, a row mask of the node table, is given) writes
    ``day``: as ISO or CJK (``2019-09-07``, ``2019/9/7``, ``2019年9月7日``), numeric day or month
    first with a four-digit year (``07.09.2019``, ``7/9/2019``, ``9/7/2019``, ``07-09-2019``),
    German short (``07.09.19``: two-digit years only zero-padded, as "vBulletin 3.8.11" is no
    day), or a word between the day and year in either order that reads as ``day``
    (``parse_date``: "7 September 2019", "Sep. 7th, 2019", "7 de septiembre de 2019").

    A search for one known day, not a reading of every date: ``first_date_in`` finds the first
    date only and dateparser's ``search_dates`` is slow and guesses languages. Every form but the
    German short one holds the four-digit year, so the patterns run only where the year is
    written, over ``SHOWN_DAY_WINDOW`` characters around it (``str.find`` for the year, then the
    anchored patterns): over the whole text they cost 2.36 ms a call, so 0.21 (8 210 calls on
    the pages of eight sets, the htmldate day and the gold's, every answer the same; the named
    pattern tries its word class at every letter)."""
    texts = page.nodes.seg_text
    text = "\n".join(texts if rows is None else compress(texts, rows[page.nodes.seg_owner]))
    short = f"{day.day:02d}.{day.month:02d}.{day.year % 100:02d}"
    if short in text and day_patterns(day)[0].search(text):
        return True
    year = str(day.year)
    at = text.find(year)
    if at < 0:
        return False
    _, iso, numeric, named = day_patterns(day)
    while at >= 0:
        # the forms that end with the year end here: the window stops one character past it
        # (their closing look-ahead); the ISO form starts here (its look-behind sees the text)
        low, high = max(0, at - SHOWN_DAY_WINDOW), at + len(year) + 1
        if iso.match(text, at, at + SHOWN_DAY_WINDOW) or numeric.search(text, low, high):
            return True
        if any((found := parse_date(match.group(), None, langs)[0]) is not None
               and found.day() == day for match in named.finditer(text, low, high)):
            return True
        at = text.find(year, at + 1)
    return False


def _writes_new_year(page: Page, year: int) -> bool:
    """Whether the page writes 1 January of ``year`` as a day, in its text or attributes.

    htmldate answers a bare year (``© 2016``, a year in a heading) as 1 January: of its
    1 January answers on pages without a metadata date none was right (22 pages, 0 right, on
    htmldate_eval, trafilatura_eval and wcxb_dev); such an answer stands only where the page
    writes that day itself."""
    from lxml import etree

    return _new_year_in(etree.tostring(page.root, encoding="unicode", method="html"), year)


def _new_year_in(markup: str, year: int) -> bool:
    """Whether ``markup`` writes 1 January of ``year`` (:data:`_NEW_YEAR`, searched as
    :data:`_NEW_YEAR_PARTS`)."""
    return any(re.search(part.format(y=year), markup, flags) is not None
               for part, flags in _NEW_YEAR_PARTS)


_NEW_YEAR = (r"{y}-0?1-0?1(?!\d)|(?<!\d)0?1\.\s?0?1\.\s?{y}|(?<!\d)0?1/0?1/{y}|{y}年0?1月0?1日|"
             r"\bjan\w*\.?\s+0?1(?:st)?\b,?\s+{y}|(?<!\d)0?1(?:st)?\.?\s+(?:of\s+)?jan\w*\.?,?\s+{y}")
#: :data:`_NEW_YEAR` (with ``re.I``) as three searches, (pattern, flags), one of which matches
#: where it does: each starts with a fixed character or set, which the search skips to in C,
#: where the one pattern tried its six alternatives at every character of the markup (a
#: lookbehind or ``\b`` first, ``re.I`` on "jan"): the year's digits; "0" or "1", the
#: lookbehind tested after it; "j", without ``re.I`` (its letters written as the case pairs
#: ``re.I`` matches, "s" also "ſ"). 5.9 -> 0.84 ms a search (big9's 360 pages and cx_163's 74,
#: five years each); it runs on the pages htmldate dates 1 January (17 of big9's 360).
_NEW_YEAR_PARTS = (
    (r"{y}(?:-0?1-0?1(?!\d)|年0?1月0?1日)", re.IGNORECASE),
    (r"(?:0(?<!\d0)1|1(?<!\d1))(?:\.\s?0?1\.\s?{y}|/0?1/{y}|"
     r"(?:st)?\.?\s+(?:of\s+)?jan\w*\.?,?\s+{y})", re.IGNORECASE),
    (r"[jJ](?<!\w[jJ])[aA][nN]\w*\.?\s+0?1(?:[sSſ][tT])?\b,?\s+{y}", 0),
)


def text_date(page: Page, fetched_at: datetime | None, langs: tuple[str, ...],
              anywhere: bool = True) -> FoundDate | None:
    """A publication date written on the page: in a date-marked element, else after the
    headline, else (``anywhere``) the first one in the body."""
    for text in _marked(_DATE_MARKED, page, _DATE_SKIP_WORDS):
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        found = first_date_in(text, fetched_at)
        if found is None and len(text) <= 60:
            found = parse_date(text, fetched_at, langs)[0]
        if found is not None:
            return found
    found = first_date_in(_text_from(page, _headline_segment(page), AFTER_HEADLINE_CHARS),
                          fetched_at)
    if found is None and anywhere:
        found = first_date_in(_text_from(page, 0, MAX_DATELINE_SCAN), fetched_at)
    return found


#: A line that opens with a publication label and goes on with its date ("Erschienen am:
#: 01.11.2023", "Veröffentlicht am 16.08.2019", "Publié le 29 juin 2019", "Posted on April 13,
#: 2023"): the page saying in words which of its dates is the publication. "Originally published"
#: and labels inside a sentence are left out (a blog's "This post was originally published on
#: ... and updated on ...", a study "published online Feb. 16" in the body).
_PUBLICATION_LABEL = re.compile(
    r"(?i)^\W*(?:erschienen|ver[öo]ffentlicht|published|publi[ée]e?|publicado|pubblicato|posted|"
    r"gepostet)\s+(?:am|on|le|el|il)?\s*:?\s*(?=\S)")


def labelled_date(page: Page, fetched_at: datetime | None) -> FoundDate | None:
    """The date of the page's first short line (``MAX_DATELINE_CHARS``) that opens with a
    publication label (``_PUBLICATION_LABEL``); None where no line does.

    For pages dated by no metadata, or by a ``<time>`` alone: our dateline readers and htmldate
    take the first date of a marked element or line, which can be a last change set before the
    publication (literaturkritik.de's footer "Letzte Änderung: 31.10.2023" over "Erschienen am:
    01.11.2023") or another story's ``<time>`` (resonator-podcast.de's 2019-08-24 beside
    "Veröffentlicht am 16.08.2019"; paris-luttes.info's ``<time datetime>`` of 3 July on
    "Publié le 29 juin 2019"). Every page with a gold date whose date came from a ``<time>``
    or the page's text: trafilatura_eval 2 gained, htmldate_eval 3, none lost on any set
    (docs/evaluation.md, "Dates, ninth round")."""
    for text in page.nodes.seg_text:
        if len(text) > MAX_DATELINE_CHARS:
            continue
        label = _PUBLICATION_LABEL.match(text)
        if label is not None:
            found = first_date_in(text[label.end():], fetched_at)
            if found is not None:
                return found
    return None


def headline_dateline(page: Page, fetched_at: datetime | None, title: str | None = None,
                      either_way: bool = False) -> FoundDate | None:
    """The date of a dateline right under the page's headline: the first text segment within
    ``UNDER_HEADLINE_CHARS`` after it that is short (``MAX_DATELINE_CHARS``: a sentence naming a
    day is no dateline) and holds a date; None on a page without an ``<h1>``, or where that date
    reads either way round ("02/10/2020": a British page's 2 October).

    For pages without metadata, read before htmldate: htmldate takes the first ``<time>`` or
    dated element of the page, often another story's in a list of related ones (gamersky's
    "相关内容", golf.de's news list), while the line under the headline is the page's own.
    Every page with a gold date, ``extract()``: trafilatura_eval 4 gained, 0 lost; wcxb_dev 4, 0;
    htmldate_eval 2, 0; gne 1, 0; readability_testpages unchanged. Without the length bound
    (the first date in the 200 characters): 3 sentences naming another day lost; reading the
    ambiguous dates too: 2 British "dd/mm/yyyy" read month first lost, 1 gained (docs/
    evaluation.md, "Dates, sixth round"). The characters counted are the lines' own, after
    the headline: counting the headline and the lines' indentation too left fluter.de's
    "31.03.2020" (after a 150-character standfirst and a byline) and energysage.com's dateline
    out of reach (trafilatura_eval, htmldate_eval, wcxb_dev 1 page gained each, none lost;
    "Dates, seventh round").

    ``either_way``: a date that reads either way round is returned too (its caller checks
    both readings against a ``<time>``: ``fields._time_under_headline``).

    ``title`` (the title the fields chose): the headline is the ``<h1>`` that reads as it where
    one does, not the first ``<h1>`` (a skip link's, a logo's, a currency ticker's: zoll.de,
    world.kbs.co.kr, news.az; trafilatura_eval 2 pages gained, htmldate_eval 3, none lost).
    An ``<h2>`` or ``<h3>`` that reads as the title too (``DATELINE_HEADINGS``): trafilatura_eval
    +3 -2, htmldate_eval +6 -2, wcxb_dev -2 (a forum's board heading, a blog's post heading
    over its book data, ecovacs.com's section heading after the headline).

    Where no line under the headline holds a date, the ``ABOVE_HEADLINE_SEGMENTS`` lines right
    above it are read, the upper first (the headline's own line left out): a date set over the
    headline (ironhack.com, embarque.io, handball-world.news)."""
    segment = _headline_segment(page, title, DATELINE_HEADINGS)
    if segment <= 0:
        return None
    for line in _lines_near_headline(page.nodes.seg_text, segment):
        if line and len(line) <= MAX_DATELINE_CHARS:  # a sentence naming a day is no dateline
            found = first_date_in(line, fetched_at)
            if found is not None:
                # "02/10/2020" on a British page: htmldate's reading of the page decides
                return found if either_way or other_reading(found) is None else None
    return None


def _lines_near_headline(texts: list[str], segment: int):
    """The lines (stripped text segments) under the headline, from ``segment`` (the first
    after it) until ``UNDER_HEADLINE_CHARS`` of them are read (the first line's own not
    counted), then the ``ABOVE_HEADLINE_SEGMENTS`` lines above it, the upper first
    (``segment - 1`` is the headline's own line)."""
    size = 0
    for number, text in enumerate(texts[segment:]):
        line = text.strip()
        yield line
        size += len(line) if number else 0
        if size >= UNDER_HEADLINE_CHARS:
            break
    for text in texts[max(0, segment - 1 - ABOVE_HEADLINE_SEGMENTS):segment - 1]:
        yield text.strip()


def _text_from(page: Page, segment: int, chars: int) -> str:
    """About ``chars`` characters of the page's text from its text segment ``segment`` on (the
    node table's segments: no walk over the whole tree's text)."""
    texts, size = [], 0
    for text in page.nodes.seg_text[segment:]:
        texts.append(text)
        size += len(text)
        if size >= chars:
            break
    return "".join(texts)[:chars]


def text_authors(page: Page, sites: tuple[str, ...], page_lang: str | None = None,
                 as_trained: bool = False, title: str | None = None) -> list[str]:
    """:func:`read_text_authors`, read once per page and arguments (kept in ``page.memo``; a new
    list each call): the fields step asks the same question up to three times on a page without
    a declared author (the Chinese byline first, then as the last tier; 0.7 ms a call on
    cx_163's pages)."""
    key = ("text_authors", tuple(sites), page_lang, as_trained, title)
    found = page.memo.get(key)
    if found is None:
        found = page.memo[key] = tuple(read_text_authors(page, sites, page_lang, as_trained, title))
    return list(found)


def read_text_authors(page: Page, sites: tuple[str, ...], page_lang: str | None = None,
                      as_trained: bool = False, title: str | None = None) -> list[str]:
    """Names from a byline element, else from a Chinese "作者：" / "责任编辑：" line (first, on
    Chinese and Japanese pages).

    The readers in order: a "By" line under the headline (or a label in a span of its own and
    the name in the next, a team alone after "By"), a link to the author's page
    (:func:`author_link`), an author-marked element, a labelled name in a meta line, a
    "Written by" line anywhere (:func:`_written_by`), then a team or the site named alone in
    an author-marked element (:func:`_marked_team`): a person first. The link
    comes before the author-marked elements: their text often joins the name to a role or a
    menu ("Celeste Longacre Gardener, Astrologer"), the link's holds the name alone (the link
    reader right after the "By" line: 22 pages gained, 0 lost on trafilatura_eval and
    wcxb_dev; last of the readers: 14 gained; docs/evaluation.md, "Authors, fourth round").
    ``as_trained``: the readers as the page model was trained with them, without the link
    reader and with an author-marked element's text read as one string (see
    ``Fields.person_named``). ``title``: the page's title as chosen, to find its headline
    (:func:`_headline_segment`)."""
    if page_lang in ("zh", "ja"):  # Chinese bylines name the reporter or editor in the text
        names = cjk_byline(page, sites, title, headline=not as_trained)
        if names:
            return names
    names = _byline_after_headline(page, sites, labelled=not as_trained,
                                   title=None if as_trained else title)
    if names:
        return names
    if not as_trained:
        names = author_link(page, sites)
        if names:
            return names
    team: list[str] = []
    for text in _marked(_AUTHOR_MARKED, page, joiner="\n",
                        within=() if as_trained else _NOT_SOURCE, furniture=as_trained):
        if text and len(text) > MAX_MARKED_CHARS and not as_trained:
            names = _boxed_name(text, sites)
            if names:
                return names
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        names = clean_authors([" ".join(text.split())], sites)[0] if as_trained \
            else _marked_names(text, sites)
        if names:
            return names
        if not team and not as_trained:
            team = _marked_team(text)
    names = _labelled_in_meta(page, sites)
    if not names and not team and not as_trained:
        names = _written_by(page, sites)
    return names or team or cjk_byline(page, sites)


def person_over_outlet(names: list[str], page: Page, sites: tuple[str, ...],
                       page_lang: str | None, title: str | None) -> list[str]:
    """The person the page's byline names where every declared name is an outlet ("The
    Planetary Press", "Die FURCHE", "Hanns-Seidel-Stiftung e.V.", the site's name), else [].

    Publishers fill JSON-LD's or ``meta name=author`` with their own name while the visible
    byline names the reporter, whom the gold of the dev sets takes. Only a "By" line under the
    headline or an author-marked element counts, and only full names (two to four capitalised
    words) that are no outlet themselves; where neither names one, a labelled name in the text
    (:func:`labelled_person`)."""
    if not names or not all(is_outlet(n, sites) for n in names):
        return []
    found = _byline_after_headline(page, sites, labelled=True, title=title)
    for text in () if found else _marked(_PERSON_MARKED, page, joiner="\n"):
        if text and len(text) <= MAX_MARKED_CHARS:
            found = _marked_names(text, sites)
            if found:
                break
    if found and all(full_name(n) and not is_outlet(n, sites) for n in found):
        return found
    return labelled_person(page, sites)


#: A byline label that names the author by itself, with its colon ("Autorin: Uta Staschewski,
#: Projektleiterin ...", "Written by:" / "Julie Mollins"), or "By" / "Von" and a name filling
#: the line ("Von Leonora Holling"); the name runs to a comma, a bracket, a full stop or the end.
#: Read only where every declared author is the publisher and no byline names a person
#: (:func:`labelled_person`): trafilatura_eval 411 -> 414 of the 538 pages with a gold author,
#: no page of the four sets lost, none changed without a gold author. "By" / "Von" in a
#: segment of its own joined to the next lost 2 wcxb_dev pages (a photographer's "By" / name
#: over "Resy Staff") and gained none; not kept.
_LABELLED_PERSON = re.compile(
    r"^(?:(?i:(?:written|geschrieben|verfasst)\s+(?:by|von)|autor(?:in)?|author|verfasser(?:in)?)"
    r"\s*:|(?i:by|von)(?=\s+\S+\s+\S+(?:\s+\S+)?\s*$))\s*"
    r"(?P<name>[A-ZÀ-ÖØ-Þ][^,;()|:\n]{2,60}?)\s*(?:[,;(|]|\.\s|\.?$)")


#: Elements whose text is page furniture, not the article's.
_FURNITURE_TAGS = frozenset({"nav", "aside", "footer"})


def labelled_person(page: Page, sites: tuple[str, ...]) -> list[str]:
    """The full name after a byline label anywhere on the page (:data:`_LABELLED_PERSON`; a
    label in a segment of its own is read with the next), outside comments and ``<nav>``,
    ``<aside>``, ``<footer>`` (a menu's "By Event Type"; the class words of
    :func:`_in_skipped_block` are also on ``<body>``, "has-double-sidebar"), or []: the author
    where the page declares only its publisher and the byline under the headline, if any,
    names the publisher too ("The Planetary Press" over "Written by: Julie Mollins" in the
    text; "Hanns-Seidel-Stiftung e.V." over "Autorin: Uta Staschewski, ..." at its end)."""
    nodes = page.nodes
    texts = nodes.seg_text
    for number, text in enumerate(texts):
        text = " ".join(text.split())
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        if text.endswith(":") and number + 1 < len(texts):
            text = f"{text} {' '.join(texts[number + 1].split())}"
        match = _LABELLED_PERSON.match(text)
        element = nodes.elements[nodes.seg_owner[number]]
        if match is None or _in_furniture(element):
            continue
        names, _ = clean_authors([match.group("name")], ())
        if len(names) == 1 and full_name(names[0]) and not is_outlet(names[0], sites):
            return names
    return []


#: Longest line read as the name that signs an article at its end (:func:`signature`): a name of
#: two to four words. The reader, every page with a gold author: trafilatura_eval 414 -> 416 of
#: 538 (eishockeynews.de, galore.de), wcxb_dev, readability_testpages, gne unchanged; on the
#: pages without a gold author of the four sets and htmldate_eval it names no one new once a
#: link's text is refused (a radio's "The Hit Mix" before).
MAX_SIGNATURE_CHARS = 40
#: Inline tags that set a signature apart from the text above it: bold or italics.
_SIGNATURE_TAGS = frozenset({"b", "strong", "em", "i"})
_RIGHT_ALIGNED = re.compile(r"(?i)text-align\s*:\s*right")


def signature(page: Page, text: str, sites: tuple[str, ...]) -> list[str]:
    """The name that signs the article at the end of its main text: the text's last line a full
    name alone (:func:`full_name`, no digits, no outlet), set apart in bold or italics or aligned
    right in the page, not a link ("<b><i>Stefan Wasmer</i></b>" closing an eishockeynews.de
    report, "<strong>Marina Mucha</strong>" under galore.de's book review; a radio's home page
    ends on its stream's title, a link). Read only where no other
    reader names anyone: without the emphasis, the last lines that read as names on the dev
    sets' pages without a gold author were buttons and headings ("Learn More", "Program
    Topics", "Apple Watch")."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        return []
    last = " ".join(lines[-1].split())
    if len(last) > MAX_SIGNATURE_CHARS or not full_name(last) or any(c.isdigit() for c in last):
        return []
    names, _ = clean_authors([last], sites)
    if names != [last] or is_outlet(last, sites):
        return []
    nodes = page.nodes
    for number in range(len(nodes.seg_text) - 1, -1, -1):
        if " ".join(nodes.seg_text[number].split()) == last:
            return names if not nodes.seg_in_link[number] and _set_apart(
                nodes.elements[nodes.seg_owner[number]]) else []
    return []


#: Longest line of the main text read as an author credit (:func:`credit_line`): a label and two
#: names with a picture credit after them ("Text von Christian Seiler Illustration von Markus
#: Roost", 56 characters). The reader, every page with a gold author: trafilatura_eval 420 ->
#: 423 of 538 (alacarte.at, duengebehoerde-niedersachsen.de, ln-online.de), wcxb_dev,
#: readability_testpages, gne unchanged; on the pages without a gold author of those sets and
#: htmldate_eval, news_article_vs_nonarticle, aeb, big9 it names no one new once a record's
#: fields are refused (:data:`_FIELD_LINE`).
MAX_CREDIT_CHARS = 90
_CREDIT_NAME = r"[A-ZÀ-ÖØ-Þ][\w'’.-]+(?:\s+[A-ZÀ-ÖØ-Þ][\w'’.-]+){1,3}"
#: One or two such names, joined by "," / "und" / "and" / "&".
_CREDIT_NAMES = (r"(?P<names>" + _CREDIT_NAME + r"(?:(?:\s*,|\s+und|\s+and|\s*&)\s+" +
                 _CREDIT_NAME + r")?)")
#: An author credit of the article's text: "Text von" / "Text:" / "Autor:" / "Autorin:" /
#: "Autoren" and one or two full names, and only a picture credit after them ("Illustration von
#: ...", "Fotos: ..."); the names end the line or the picture credit begins.
_CREDIT_LINE = re.compile(
    r"^(?:Text\s*(?:von|:)|Autor(?:in)?\s*:|Autor(?:en|innen)\s*:?)\s*"
    + _CREDIT_NAMES
    + r"(?:\s+(?:Illustration(?:en)?|Fotos?|Bilder|Photos?|Grafiken?)\s*(?:von|by|:)\s.*)?$")
#: ... and, as the text's last line only, "Von" / "By" and the names ("Von Cosima Künzel" closing
#: a ln-online.de report): anywhere else a "By" line is a shop's brand ("By Ebern Designs").
_SIGNED_LINE = re.compile(r"^(?:Von|By)\s*:?\s+" + _CREDIT_NAMES + r"$")


#: A line that is one field of a record ("Seiten: 400 Seiten", "Verlag: Carlsen"): a credit
#: line beside one names the author of a reviewed book, not of the page (derpapierplanet.de's
#: "Autorin: Alys Arden" between "Seiten:" and "Verlag:").
_FIELD_LINE = re.compile(r"^\w[\w .-]{0,24}:\s")


def credit_line(text: str, sites: tuple[str, ...]) -> list[str]:
    """The names of an author credit in the main text (:data:`_CREDIT_LINE`, any line; or
    :data:`_SIGNED_LINE`, its last line), each a full name and no outlet; else []. German
    magazines credit the text's author and the illustrator in one line under the standfirst
    ("Text von Christian Seiler Illustration von Markus Roost" on alacarte.at), an authority's
    news item ends on "Autoren Jelko Djuren und Jutta Klaukien" (duengebehoerde-niedersachsen.de),
    a newspaper's report on "Von Cosima Künzel" (ln-online.de, which declares its own initials
    "LN" as an Organization). Read only where no other reader names anyone (after
    :func:`signature` and :func:`post_author_comment`)."""
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    for number, line in enumerate(lines):
        if len(line) > MAX_CREDIT_CHARS:
            continue
        match = _CREDIT_LINE.match(line) or (
            _SIGNED_LINE.match(line) if number == len(lines) - 1 else None)
        beside = lines[number - 1:number] + lines[number + 1:number + 2]
        if match is None or any(_FIELD_LINE.match(other) for other in beside):
            continue  # a record of fields: a reviewed book's "Autorin:" among "Seiten:", "Verlag:"
        names, _ = clean_authors([match.group("names")], sites)
        if names and all(full_name(n) and not is_outlet(n, sites) for n in names):
            return names
    return []


#: A press release's contact label in a segment of its own ("Pressekontakt:", "Press contact",
#: "Kontakt:" with its colon: a menu's "Kontakt" link is followed by other menu words). The reader
#: (:func:`press_contact`), every page with a gold author: trafilatura_eval 425 -> 428 of 538
#: (iwr.de, unendlich-viel-energie.de, baumev.de), wcxb_dev, readability_testpages, gne unchanged;
#: over the pages of those sets, htmldate_eval, news_article_vs_nonarticle, aeb, big9 and
#: cleanportaleval it names someone on one page more, mpimet.de's press contact (no gold author).
_CONTACT_LABEL = re.compile(
    r"(?i)^(?:presse-?kontakt|medienkontakt|press contact|media contact)\s*:?$|^kontakt\s*:$")

_CONTACT_NAME = re.compile(_CREDIT_NAME)


def press_contact(page: Page, sites: tuple[str, ...]) -> list[str]:
    """The name in the segment right after a press release's contact label
    (:data:`_CONTACT_LABEL`), a full name or firm of two to four capitalised words and nothing
    else (:data:`_CREDIT_NAME`; "Pressesprecher*in Markus Ulrich" is a role's line), neither
    label nor name a link, outside comments and ``<nav>``, ``<aside>``, ``<footer>``; else [].
    A press release names no author but the person or company that answers for it, and the
    gold takes that one: naturstrom's "Pressekontakt" / "Dr. Tim Loppe" (on
    unendlich-viel-energie.de), baumev.de's "Kontakt:" / "Jan Koch", iwr.de's "Pressekontakt:"
    / "Nordex SE". Read only where no other reader names anyone, last."""
    nodes = page.nodes
    texts = nodes.seg_text
    for number in range(len(texts) - 1):
        if nodes.seg_in_link[number] or not _CONTACT_LABEL.match(" ".join(texts[number].split())):
            continue
        name = " ".join(texts[number + 1].split())
        element = nodes.elements[nodes.seg_owner[number]]
        if (nodes.seg_in_link[number + 1] or not _CONTACT_NAME.fullmatch(name)
                or any(c.isdigit() for c in name) or _in_furniture(element)):
            continue
        names, _ = clean_authors([name], sites, declared=True)
        if names == [name]:
            return names
    return []


#: The label XenForo prints before a thread's first poster in the thread's header ("Thread
#: starter", a screen reader's text beside the user icon, also the icon's ``<title>``). Read
#: first, before the declared authors (:func:`thread_starter`), every page with a gold author:
#: wcxb_dev 630 -> 634 of 739 (forums.tomshardware.com twice, festoolownersgroup.com,
#: forums.androidcentral.com, whose first ``itemprop=author`` on the stored page is a later
#: reply's poster), trafilatura_eval, readability_testpages, gne unchanged; the label's name is
#: the gold on each of the 22 pages of the four sets that print it.
_THREAD_STARTER = "thread starter"


def thread_starter(page: Page, sites: tuple[str, ...]) -> list[str]:
    """The user name in the segment after a forum thread's :data:`_THREAD_STARTER` label, the
    name alone (a login as the forum prints it); else []."""
    texts = page.nodes.seg_text
    for number, text in enumerate(texts[:-1]):
        if "tarter" not in text or " ".join(text.split()).lower() != _THREAD_STARTER:
            continue  # (the substring first: a page has thousands of segments)
        name = " ".join(texts[number + 1].split())
        if name.lower() == _THREAD_STARTER:
            continue  # the icon's <title>, then the screen reader's label
        names, _ = clean_authors([name], sites, declared=True)
        return names if names == [name] else []
    return []


def _set_apart(element) -> bool:
    """Whether the text of ``element`` is in bold or italics, or in a block aligned right."""
    for node in (element, *element.iterancestors()):
        if node.tag in _SIGNATURE_TAGS:
            return True
        if node.get("align", "").lower() == "right" or _RIGHT_ALIGNED.search(
                node.get("style", "")):
            return True
        if node.tag in ("p", "div", "td", "li", "body"):
            return False
    return False


#: The class WordPress gives a comment written by the post's own author (``comment byuser
#: comment-author-jancak bypostauthor``), and the classes of the element in it that shows the
#: commenter's name as the site prints it, the microformat's ``fn`` first (``<span class="fn">``
#: inside "Kommentar von ..."), else the theme's ``<p class="comment-author">``. The reader
#: (:func:`post_author_comment`), every page of the four author sets: trafilatura_eval 416 -> 420
#: of 538, wcxb_dev, readability_testpages, gne unchanged; no page without a gold author named.
_POST_AUTHOR_COMMENT = "bypostauthor"
_COMMENTER_CLASSES = ("fn", "comment-author")
#: A "says:" label WordPress themes print after the commenter's name ("Nesselsetzer Sagt:").
_SAYS = re.compile(r"(?i)\s+(?:says|sagt|dit|dice|zegt)\s*:?\s*$")


def post_author_comment(page: Page, sites: tuple[str, ...]) -> list[str]:
    """The name over the first comment WordPress marks as the post author's
    (:data:`_POST_AUTHOR_COMMENT`): a blog that prints no byline names its author where he
    answers his readers ("jancak" on literaturgefluester.wordpress.com, "HansEhrlich" on
    dealdoktor.de's deals, "Nesselsetzer"). The name element's whole text must be the one
    name; a generic login ("admin") is none (:data:`_NOT_BYLINE`). Read only where no other
    reader names anyone."""
    nodes = page.nodes
    marks = name_marks(page)
    rows = [marks.rows[k] for k in marks.containing((_POST_AUTHOR_COMMENT,))]
    comment = min((r for r in rows if _POST_AUTHOR_COMMENT in nodes.classes[r].split()),
                  default=None)
    if comment is None:
        return []
    inside = range(comment + 1, int(nodes.end[comment]) + 1)
    for wanted in _COMMENTER_CLASSES:
        row = next((r for r in inside if wanted in nodes.classes[r].split()), None)
        if row is None:
            continue
        lo, hi = int(nodes.seg_lo[row]), int(nodes.seg_hi[row])
        text = _SAYS.sub("", " ".join(" ".join(nodes.seg_text[lo:hi]).split()))
        names, _ = clean_authors([text], sites)
        if names == [text] and text.lower() not in _NOT_BYLINE and not is_outlet(text, sites):
            return names
        return []
    return []


def plain_byline(page: Page, sites: tuple[str, ...], title: str | None) -> list[str]:
    """The byline's full names where the page shows them plainly: a "By" line under the
    headline, else an author-marked element that holds a full name and nothing else; [] if
    neither (for overruling a declared login or initials: the other readers' names, read out
    of longer author boxes, were a theme's name or a list of tags there, "Pirate Rogue",
    "SCHLAGWORTE Boilies Karpfen", on pages without a gold author)."""
    found = _byline_after_headline(page, sites, labelled=True, title=title)
    if found:
        return found if all(full_name(n) and not is_outlet(n, sites) for n in found) else []
    for text in _marked(_PERSON_MARKED, page, joiner="\n"):
        if text and "\n" not in text and len(text) <= MAX_MARKED_CHARS:
            found, _ = clean_authors([text], sites)
            if len(found) == 1 and found[0] == text.strip() and full_name(found[0]) \
                    and not is_outlet(found[0], sites):
                return found
    return []


#: Class/id words of an element that holds the article's author, for overruling a declared
#: publisher: :data:`_AUTHOR_MARKED` less "source", which also marks "resources" menus.
_PERSON_MARKED = ("author", "byline", "writer", "autor", "reporter")


def is_outlet(name: str, sites: tuple[str, ...]) -> bool:
    """Whether ``name`` names a publisher, not a person: the site's name, an outlet's or an
    organisation's word ("News", "Welle", "Redaktion", "e.V.", "Foundation"). A name the host
    spells is not enough: a personal site's owner ("Cathy Horvath Buchanan") is a person.

    >>> is_outlet("Deutsche Welle", ()), is_outlet("Ursula Baatz", ()), is_outlet("BZ", ("bz",))
    (True, False, True)
    """
    from extractors.authors import is_site_name

    return bool(is_site_name(name, sites) or _OUTLET.search(name) or _ORGANISATION.search(name))


#: Words of an organisation's name: "Hanns-Seidel-Stiftung e.V.", "Cleveland Clinic".
_ORGANISATION = re.compile(r"(?i)(?:\be\.\s?v\b|\bgmbh\b|\bag$|\binc\b|\bltd\b|\bllc\b|"
                           r"foundation|stiftung|verband\b|verein\b|institut|university|"
                           r"universität|clinic|klinik|editorial|redaktion|association|"
                           r"\bteam\b|\bstaff\b|\bcompany\b|\bcorporation\b)")


def author_link(page: Page, sites: tuple[str, ...]) -> list[str]:
    """The text of the page's first link to an author's page (``/author/jdoe``, ``?author=3``,
    ``/profile/...``: :data:`_AUTHOR_HREF`) on the page's own site, outside comments, menus,
    sidebars and footers, read as a declared name (a team or a user name stays: the link says
    it is an author); with the names of the author links beside it (the same parent: "<a>Isabel
    Caro</a>, <a>Rocío Latorre</a> y <a>José Miguel Wilson</a>")."""
    links = list(_author_links(page))
    if len({link.get("href") for link in links}) > MAX_LINKED_AUTHORS:
        return []  # a list of stories or a thread of posts by many authors: no byline
    names: list[str] = []
    parent = None
    for element in links:
        if parent is not None and element.getparent() is not parent:
            continue
        found = _link_name(element, sites)
        if found:
            names += [n for n in found if n not in names]
            parent = element.getparent()
    return names[:MAX_LINKED_AUTHORS]


def _author_links(page: Page):
    """The page's links to an author's page on its own site, outside skipped blocks."""
    host, seen = _host(page.url), 0
    elements = page.nodes.elements
    for row, href in _author_href_rows(page):
        element = elements[row]
        match = _AUTHOR_HREF.search(href)
        if match is None or (match.group("slug") and _ACCOUNT_SLUG.match(match.group("slug"))):
            continue
        other = _host(href)
        if other and other != host:
            # a social network's profile ("youtube.com/user/..."), or, on a page without its
            # URL, a link that may lead anywhere (a Wikipedia reference's "/people/...")
            continue
        seen += 1
        if seen > MAX_AUTHOR_LINKS:
            return
        if not _in_skipped_block(element):
            yield element


def _author_href_rows(page: Page) -> list[tuple[int, str]]:
    """(row, href) of the page's links whose ``href`` :data:`_AUTHOR_HREF` matches, in document
    order: one search over all the hrefs, one a line (:data:`_AUTHOR_HREF_LINES`), instead of
    one search per link (1-2 ms on cx_163's pages of a thousand links). An href holding a line
    break is read on its own, as the pattern reads it, and stands as a blank line in the joined
    hrefs (no match starts on a blank line or crosses a line break): one such link no longer
    sends every other link of its page to a search of its own (~1 ms a page where it did)."""
    rows, hrefs = link_hrefs(page)
    joined = "\n".join(hrefs)
    broken: list[int] = []
    lines = hrefs
    if joined.count("\n") != max(len(hrefs) - 1, 0):
        broken = [k for k, href in enumerate(hrefs) if "\n" in href]
        lines = ["" if "\n" in href else href for href in hrefs]
        joined = "\n".join(lines)
    starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    pattern = _AUTHOR_HREF_LINES
    if joined.isascii():
        pattern, joined = _AUTHOR_HREF_LINES_ASCII, joined.lower()
    found = {bisect_right(starts, m.start()) - 1 for m in pattern.finditer(joined)}
    found.update(k for k in broken if _AUTHOR_HREF.search(hrefs[k]))
    return [(rows[k], hrefs[k]) for k in sorted(found)]


def _link_name(element, sites: tuple[str, ...]) -> list[str]:
    """The first of the link's own texts that is a name: a name and the role under it are two
    spans ("Meghan Neville" / "Content Marketing Coordinator")."""
    for text in element.itertext():
        text = " ".join(text.split())
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        names, _ = clean_authors([text], sites, declared=True)
        if names:
            return names
    return []


def _host(url: str | None) -> str:
    """The URL's host less ``www.`` ("" for a relative URL)."""
    from urllib.parse import urlsplit

    try:
        host = urlsplit(url or "").hostname or ""
    except ValueError:
        return ""
    return host[4:] if host.startswith("www.") else host


def _in_skipped_block(element) -> bool:
    for ancestor in element.iterancestors():
        if ancestor.tag in ("footer", "aside", "nav"):
            return True
        classes = ancestor.get("class") or ""
        if "[" in classes:  # a utility class's arbitrary value ("[--sidebar-width:18rem]")
            # names a CSS variable, not the block
            classes = " ".join(c for c in classes.split() if "[" not in c)
        marks = f"{classes} {ancestor.get('id') or ''}".lower()
        if any(word in marks for word in _AUTHOR_LINK_SKIP):
            return True
    return False


def _boxed_name(text: str, sites: tuple[str, ...]) -> list[str]:
    """The name heading an author box that goes on with the author's biography, one text
    segment a line: a full name (:func:`full_name`), then a line that starts with its first
    word ("Lauren Vetter" / "Lauren Vetter is a growth-focused marketing professional...",
    "Bence Kovács" / "Bence is a software developer..."). Too long to be read as a byline,
    such a box was passed over (wcxb_dev)."""
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) < 2 or len(lines[0]) > MAX_MARKED_CHARS:
        return []
    first = lines[0].split()[0]
    if not lines[1].startswith(first + " "):
        return []
    names, _ = clean_authors([lines[0]], sites)
    return names if len(names) == 1 and full_name(names[0]) else []


def _marked_names(text: str, sites: tuple[str, ...]) -> list[str]:
    """Names in an author-marked element's text (its text segments one a line): the first
    segment that is a full name (a label's segment joined to the next: "By" / "Jane Roe"), else
    the whole text as one byline.

    An author box holds the name and, in spans of their own, the role and a menu ("Liz Kenny" /
    "Former McKinsey Consultant", "Rachel MacDonald" / "Writer"); read as one string they were
    one wrong name. A segment counts alone only as a full name (:func:`full_name`): a user
    name of one word stays with its label ("Beitrag von" / "r23"). trafilatura_eval and
    wcxb_dev: 12 pages gained, 2 lost (docs/evaluation.md, "Authors, fourth round")."""
    lines: list[str] = []
    for line in (line.strip() for line in text.split("\n")):
        if not line:
            continue
        if lines and (_CONNECTOR.match(line) or _CONNECTOR.match(lines[-1].rsplit(None, 1)[-1])):
            lines[-1] = f"{lines[-1]} {line}"  # "Lars Fischer" / "und" / "Alina Schadwinkel"
        else:
            lines.append(line)
    if any(line in _CREDIT_LABELS for line in lines):
        return []  # a picture's credit: "©" / "Matyas Rehak - Adobe Stock"
    if len(lines) > 1:
        for number, line in enumerate(lines):
            if line.strip().lower().rstrip(":") in _BY_WORDS and number + 1 < len(lines):
                line = f"{line} {lines[number + 1]}"
            names, _ = clean_authors([line], sites)
            if names and all(full_name(n) for n in names):
                return names
    names, _ = clean_authors([" ".join(lines)], sites)
    return names


def _marked_team(text: str) -> list[str]:
    """A team or the site named alone in an author-marked element ("Redaktion", "Podium
    Staff", "By" / "Team SimplyThrilled"), which :func:`_marked_names` refuses as no person:
    the element's one line (a "By" line before it dropped) of one to four words, read as a
    declared name. Taken only where no reader names a person."""
    lines = [line.strip() for line in text.split("\n") if line.strip()]
    if lines and lines[0].lower().rstrip(":") in _BY_WORDS:
        lines = lines[1:]
    if len(lines) != 1 or len(lines[0].split()) > 4 or not lines[0][0].isupper():
        return []
    names, _ = clean_authors(lines, (), declared=True)
    return names if len(names) == 1 and first_date_in(names[0], None) is None else []


#: A segment that labels what follows as a picture's or a page's credit, not its author: a
#: Drupal image field "field--name-field-media-term-media-source" (marked by "source") reads
#: "©" / "Matyas Rehak - Adobe Stock" above the article's author field (helmholtz-klima.de).
_CREDIT_LABELS = frozenset({"©", "(c)", "Foto:", "Fotos:", "Bild:", "Photo:", "Image:"})
#: A segment that only joins two names of a byline: "," / "und" / ", and" / "&".
_CONNECTOR = re.compile(r"(?i)^(?:,|,?\s*(?:and|und|et|y|e|&))$")


def full_name(name: str) -> bool:
    """Two to four words, each capitalised: "Liz Kenny", "Julian K. Arni"."""
    words = name.split()
    return 2 <= len(words) <= 4 and all(w[0].isupper() for w in words)


def _labelled_in_meta(page: Page, sites: tuple[str, ...]) -> list[str]:
    """The name after a "by" / "von" / "Autor:" label inside a post's meta line ("Posted in
    News by jdoe on August 3, 2019", "Gespeichert von rasos am 24. Juli 2017", "Datum:
    03.11.2021 Autor: Peter Maahn"). The label makes a single word (a blogger's user name) a
    name here, where the unlabelled readers above want a first and a last name; a blogger's
    login stays where the site bears it ("by damianduchamps" on damianduchamps.wordpress.com:
    the label says it is the author)."""
    for text in _marked(_META_MARKED, page, joiner="\n"):
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        for match in _LABELLED.finditer(text):
            name = match.group("name").strip()
            if name.lower() in _NOT_BYLINE or (" " in name and name.islower()):
                continue  # "by the way"; "by adding to it": a phrase, not a user name
            names, _ = clean_authors([name], ())
            names = [n for n in names if not _OUTLET.search(n)]
            if names:
                return names
    return []


def _byline_after_headline(page: Page, sites: tuple[str, ...], labelled: bool = False,
                           title: str | None = None) -> list[str]:
    """A "By Jane Roe" / "von Anna Schmidt" text (or "By" then the name in the next span) among
    the first ``BYLINE_SEGMENTS`` text segments after the headline.

    ``labelled``: also a name after a label in a segment of its own ("Autor:" / "Peter Maahn",
    "Verfasst von:" / "mitundvoneinander"), read as a declared name: the label says the next
    span is the author, so a user name of one word or a team stays.

    Kept in ``page.memo`` per arguments (a new list each call): the text-author reader,
    :func:`plain_byline` and :func:`person_over_outlet` ask the same question on one page (40
    of cx_163's 74 pages asked it twice, 0.12 ms a reading)."""
    key = ("byline_after_headline", tuple(sites), labelled, title)
    found = page.memo.get(key)
    if found is None:
        found = page.memo[key] = tuple(_read_byline_after_headline(page, sites, labelled, title))
    return list(found)


def _read_byline_after_headline(page: Page, sites: tuple[str, ...], labelled: bool,
                                title: str | None) -> list[str]:
    """:func:`_byline_after_headline` read afresh."""
    nodes = page.nodes
    # after the heading that reads as the chosen title, then after the first <h1> (a byline
    # may sit above the title's heading, under a blog's <h1>)
    for start in dict.fromkeys((_headline_segment(page, title), _headline_segment(page))):
        # the label is looked for in the window, its names may run past its end
        texts = [t.strip() for t in nodes.seg_text[start:start + BYLINE_SEGMENTS + NAME_SEGMENTS]]
        names = _byline_in(texts, labelled, BYLINE_SEGMENTS)
        if names:
            return names
    # right above the headline: "05.02.2020 - Redaktion: Eberhard Fuhr" over the <h1>
    start = _headline_segment(page, title)
    if start:
        before = [t.strip() for t in nodes.seg_text[max(0, start - BEFORE_HEADLINE_SEGMENTS):start]]
        return _byline_in(before, False)
    return []


def _byline_in(texts: list[str], labelled: bool, scan: int | None = None) -> list[str]:
    """The first byline among ``texts`` (text segments, stripped), among the first ``scan``
    of them (all when None; the names after a label are read from the rest too); see
    :func:`_byline_after_headline`."""
    for number, text in enumerate(texts[:scan]):
        if not text or len(text) > MAX_MARKED_CHARS:
            continue
        declared = False
        if text.lower().rstrip(":") in _BY_WORDS or (labelled and _LABEL_SEGMENT.match(text)):
            rest = [t for t in texts[number + 1:number + 1 + NAME_SEGMENTS] if t]
            candidate = rest[0] if rest else ""
            # "von" / "Lars Fischer" / "und" / "Alina Schadwinkel": the names joined across
            for joiner, name in zip(rest[1::2], rest[2::2]):
                if not _CONNECTOR.match(joiner):
                    break
                candidate = f"{candidate}, {name}"
            # "DI" / "MI" / "DO": weekdays, not the Italian "di"; "Auteur :" / "Auteur(s) :"
            # and the short labels of other languages ("Di" / "Mi", "av") stay strict
            declared = labelled and not text.isupper() and not candidate.endswith(":") \
                and text.lower().rstrip(":") not in _SHORT_LABELS
        elif labelled and (match := _BY_ONLY.match(text)) \
                and not clean_authors([match.group("name")], ())[0]:
            # "By Staff Writer", "von Redaktion,", "By the Lavazza Team": a team the text-byline
            # cleaner refuses as no person, alone after its label; kept as a declared name
            candidate, declared = match.group("name"), True
        elif match := _BY_LINE.match(text):
            candidate = match.group(1)
        elif match := _DATE_NAME.match(text):
            candidate = match.group("name")
        else:
            continue
        if declared:
            names, _ = clean_authors([candidate], (), declared=True)
            names = [n.title() if n.isupper() and len(n) > 3 and " " in n else n
                     for n in names if n.lower() not in _NOT_BYLINE
                     and first_date_in(n, None) is None]
            if names:
                return names
            continue
        # a labelled byline names a person even where the site bears that name (a personal
        # blog "Wolfgang Schmale": "Von: Wolfgang Schmale"); bylines naming an outlet are
        # refused below
        names, _ = clean_authors([_DATE_WORD_END.sub("", candidate)], ())
        names = [n for n in names if not _OUTLET.search(n)]
        names = [n for n in names if n[0].isupper() and len(n.split()) >= 2]
        if names:
            return names
    return []


#: A span that is "By" / "Von" and a name of one to four words and nothing else.
_BY_ONLY = re.compile(r"(?i:by|von)\s*:?\s+(?P<name>(?i:the\s+)?[A-ZÀ-ÖØ-Þ0-9][\w&.'’-]*"
                      r"(?:\s+[\w&.'’-]+){0,3})\s*,?$")


def _written_by(page: Page, sites: tuple[str, ...]) -> list[str]:
    """A "Written by Jane Roe" / "Geschrieben von Jane Roe" line anywhere on the page, outside
    comments (an author box at the end of the text, far below the headline), the label and the
    name in one span or in two; the name two to four capitalised words. The last reader."""
    nodes = page.nodes
    texts = nodes.seg_text
    for number, text in enumerate(texts):
        text = " ".join(text.split())
        if not text or len(text) > 80 or not _WRITTEN_BY.match(text) \
                or not (text[0].isupper() and nodes.seg_break[number]):
            continue  # a line of its own, not "... from the book X written by Y" in a sentence
        candidate = _WRITTEN_BY.sub("", text, count=1)
        if not candidate and number + 1 < len(texts):
            candidate = " ".join(texts[number + 1].split())
        candidate = _SENTENCE_END.sub("", candidate)  # "Posted by Alon Zakai."
        if _in_comment(nodes.elements[nodes.seg_owner[number]]):
            continue
        names, _ = clean_authors([candidate], ())
        names = [n for n in names if full_name(n) and not _OUTLET.search(n)]
        if names:
            return names
    return []


def name_written_out(page: Page, login: str, sites: tuple[str, ...]) -> list[str]:
    """The full name the page writes for a declared login of a first and a family name joined
    by ``._-``: the first "Christian P. Stadtfeld" in the page's text for "christian.stadtfeld"
    (a middle initial may stand between); [] if none.

    Only logins: a first name alone ("Nils", "Venteur", "Clay") read out the same way was a
    brand's name as often as a person's ("Venteur Growth", "Clay Global", "Kaspersky
    Premium"): trafilatura_eval 3 up, 2 down, wcxb_dev 1 up, 6 down."""
    parts = [p for p in re.split(r"[._-]+", login) if p]
    if len(parts) != 2 or not all(p.isalpha() and len(p) > 1 for p in parts):
        return []
    pattern = re.compile(r"(?<!\w)(?i:" + re.escape(parts[0]) + r")" + _MIDDLE +
                         r"(?i:" + re.escape(parts[1]) + r")(?!\w)")
    for text in page.nodes.seg_text:
        match = pattern.search(text)
        if match is None:
            continue
        name = " ".join(match.group(0).split())
        if full_name(name) and not is_outlet(name, sites):
            return [name]
    return []


#: Between a first name and the family name: spaces, or a middle initial ("Christian P.").
_MIDDLE = r"(?:\s+[A-ZÀ-ÖØ-Þ]\.)?\s+"


#: A full stop ending a line after a word of two letters or more (not an initial's "C.").
_SENTENCE_END = re.compile(r"(?<=\w{2})\.$")


def _in_furniture(element) -> bool:
    """Whether ``element`` is in a comment or a ``<nav>``, ``<aside>`` or ``<footer>``."""
    return _in_comment(element) or any(a.tag in _FURNITURE_TAGS for a in element.iterancestors())


def _outside_story(element) -> bool:
    """Whether ``element`` sits in a comment, a ``<nav>``, ``<aside>`` or ``<footer>``, or a
    block named a sidebar (:data:`_SIDEBAR_WORDS`) beside the story: none of its ancestors is
    one of :data:`_STORY_TAGS` (an author card in the story's own ``<aside>``, a tag list in
    the article's ``<footer>`` stay), and ``<body>``'s own class words ("comments-page" on a
    thread's page) mark the page, not a block."""
    furniture = False
    for ancestor in element.iterancestors():
        if ancestor.tag in _STORY_TAGS:
            return False
        if ancestor.tag == "body":
            return furniture
        if not furniture:  # the class and id read once for both marks
            furniture = (ancestor.tag in _FURNITURE_TAGS
                         or _comment_marks(marks := _class_and_id(ancestor))
                         or _sidebar_marks(marks))
    return furniture


#: A block's class or id word (whole, case-folded) that names a sidebar for
#: :func:`_outside_story`, as the ``<aside>`` tag does: yahoo.com's ``<div id="Aside">`` holds
#: a follow box marked "author" ("Katie Couric") before the story's byline. Every page of
#: trafilatura_eval, wcxb_dev, readability_testpages, gne, htmldate_eval, aeb, big9,
#: cleanportaleval and news_article_vs_nonarticle: readability_testpages 57 -> 58 of 76 (yahoo-2),
#: no other page's authors changed. Whole words only: "has-sidebar" and "content-sidebar" name
#: the wrapper of the story and its sidebar both.
_SIDEBAR_WORDS = frozenset({"aside", "sidebar"})


def _sidebar_marks(marks: str) -> bool:
    """Whether ``marks`` (:func:`_class_and_id`) holds one of :data:`_SIDEBAR_WORDS` as a word."""
    return not _SIDEBAR_WORDS.isdisjoint(marks.split())


def _class_and_id(element) -> str:
    """``element``'s class and id, lower-cased, a space between."""
    return f"{element.get('class') or ''} {element.get('id') or ''}".lower()


#: The story's containers for :func:`_outside_story`. An author-marked element in a sidebar's
#: recent posts (`<aside>`) or a latest-comments list before the article's author box was read
#: as the byline; passing over those blocks where no story container holds them, every page
#: with a gold author: trafilatura_eval 428 -> 429 of 538 (youhadmeatgardening.com), wcxb_dev
#: 634 -> 635 of 739 (dpconline.org), readability_testpages and gne unchanged. With ``<body>``
#: read as a block too, wcxb_dev lost a reddit thread (``<body class="comments-page">``) and a
#: ranking whose ``<article>`` sits in a "commenting" section: 634 (+1 -1); stopping at the
#: first container instead of asking for any passed over toptal.com's author card, in an
#: ``<aside>`` inside ``<main>`` (a page without a gold author).
_STORY_TAGS = frozenset({"article", "main"})


def _in_comment(element) -> bool:
    return any(_comment_marked(ancestor) for ancestor in element.iterancestors())


def _comment_marked(element) -> bool:
    """Whether ``element``'s class or id marks a comment, a reply or a reply form."""
    return _comment_marks(_class_and_id(element))


def _comment_marks(marks: str) -> bool:
    """Whether ``marks`` (:func:`_class_and_id`) marks a comment, a reply or a reply form."""
    return "comment" in marks or "respond" in marks or "reply" in marks


#: The strong byline labels: "Written by", "Geschrieben von", "Verfasst von", "Rédigé par",
#: "Posted by", "Article by", "Text von", "Von:" (with its colon: a "von" alone starts
#: sentences), a forum's "Started by". "Posted" to "Von:": trafilatura_eval 406 -> 407,
#: wcxb_dev 626 -> 628 of the pages with a gold author; "Started by": wcxb_dev +1; none lost
#: (docs/evaluation.md, "Authors, fifth round").
_WRITTEN_BY = re.compile(r"(?i)^(?:(?:written|authored|geschrieben|verfasst|rédigé|escrito|posted|"
                         r"article|text|started)\s+(?:by|von|par|por)\b|von\s*:)\s*:?\s*")


#: A byline's label in a text segment of its own, the name in the next: "Autor:", "Verfasst
#: von:", "Written by", "Auteur(s) :".
_LABEL_SEGMENT = re.compile(
    r"(?i)^(?:(?:written|posted|published|verfasst|geschrieben|erstellt|eingestellt|"
    r"gespeichert)\s+(?:by|von)|autor(?:in|en)?|authors?|auteurs?(?:\s*\(s\))?|"
    r"verfasser(?:in)?)\s*:?$")


def _headline_segment(page: Page, title: str | None = None,
                      tags: frozenset[str] | None = None) -> int:
    """The first text segment after the page's headline: the first heading (``<h1>`` to
    ``<h3>``, or of ``tags``) that reads as ``title`` (the title the page's fields chose), else
    the first ``<h1>`` (0 without one).

    The first ``<h1>`` is often no headline: a donation box's, a logo's; some pages set the
    headline in an ``<h2>`` and have no ``<h1>`` at all.

    Kept in ``page.memo`` per title: the dateline and byline readers ask two or three times a
    page, and each answer walks the rows."""
    key = ("headline_segment", title, tags)
    found = page.memo.get(key)
    if found is None:
        found = page.memo[key] = _find_headline_segment(page, title, tags)
    return found


def _find_headline_segment(page: Page, title: str | None,
                           tags: frozenset[str] | None = None) -> int:
    """:func:`_headline_segment` read afresh, over the page's heading rows (``tags`` are
    headings: every other row passes the loop untouched)."""
    return _headline_among(page, title, tags, heading_rows(page))


def _headline_among(page: Page, title: str | None, tags: frozenset[str] | None,
                    rows: Iterable[int]) -> int:
    """:func:`_find_headline_segment` over ``rows`` (every row of the table gives the same)."""
    tags = tags or _HEADLINE_TAGS
    nodes = page.nodes
    first = None
    wanted = _fold_key(title) if title else ""
    for row in rows:
        tag = nodes.tag[row]
        if tag == "h1" and first is None:
            first = int(nodes.seg_hi[row])
            if not wanted:
                break
        if wanted and tag in tags and _fold_key(nodes.inner_text(row)) == wanted:
            return int(nodes.seg_hi[row])
    return first or 0


_HEADLINE_TAGS = frozenset({"h1", "h2", "h3"})
#: The headings :func:`headline_dateline` takes for the headline where one reads as the page's
#: title (else the first ``<h1>``): ``<h1>`` only (with ``<h2>`` and ``<h3>`` too, every page
#: with a gold date: wcxb_dev lost 2 pages, see :func:`headline_dateline`).
DATELINE_HEADINGS = frozenset({"h1"})


def _fold_key(text: str) -> str:
    """Letters and digits only, case-folded: a heading and the title chosen from it compare
    equal whatever the spaces, quotes and dashes."""
    return re.sub(r"[\W_]+", "", text.casefold())


def cjk_byline(page: Page, sites: tuple[str, ...], title: str | None = None,
               headline: bool = False) -> list[str]:
    """The name of a Chinese "作者：" / "责任编辑：" line in the body's first
    ``MAX_BYLINE_SCAN`` characters; ``headline``: first in as many after the headline (a
    portal's page holds 30 000 characters of menus before the article, its editor line
    after the text), and "文" only as a label of its own, not the last character of a name
    in the headline ("王文：中美贸易...").

    Kept in ``page.memo`` per arguments (a new list per call), and so is the body's opening
    text: the byline readers end with this search on every page where nothing else named an
    author, once for the chain and once as the page model was trained (0.3-0.7 ms a search,
    the body's text read whole)."""
    key = ("cjk_byline", tuple(sites), title if headline else None, headline)
    found = page.memo.get(key)
    if found is None:
        found = page.memo[key] = tuple(_find_cjk_byline(page, sites, title, headline))
    return list(found)


def _find_cjk_byline(page: Page, sites: tuple[str, ...], title: str | None,
                     headline: bool) -> list[str]:
    """:func:`cjk_byline` read afresh."""
    if headline:
        # the segments one a line: a name's own span ends at its line
        start = _headline_segment(page, title)
        after = "\n".join(page.nodes.seg_text[start:start + MAX_CJK_SEGMENTS])[:MAX_BYLINE_SCAN]
        match = _CJK_LABELLED.search(after) or _CJK_LABELLED.search(_body_opening(page))
    else:
        match = _CJK_BYLINE.search(_body_opening(page))
    return clean_authors([match.group(1)], sites)[0] if match else []


def _body_opening(page: Page) -> str:
    """The body's first ``MAX_BYLINE_SCAN`` characters of text (``text_content()``), kept in
    ``page.memo``."""
    text = page.memo.get("body_opening")
    if text is None:
        text = page.memo["body_opening"] = page.body.text_content()[:MAX_BYLINE_SCAN]
    return text


#: Text segments after the headline searched for a Chinese byline (the article and its editor
#: line; MAX_BYLINE_SCAN characters at most).
MAX_CJK_SEGMENTS = 2_000
#: "文" is a label only after a character that is not a Chinese one; the test follows the "文"
#: (``文(?<![...]文)``, the same matches as a lookbehind before it) so that every alternative
#: starts with a fixed character and the search skips in C to where one is: 0.51 -> 0.09 ms a
#: search of a cx_163 page's opening 20 000 characters.
_CJK_LABELLED = re.compile(r"(?:作者|记者|撰文|文(?<![\u4e00-\u9fff]文)|编辑|责任编辑|责编)\s*[:：/]\s*"
                           + _CJK_ROLE +
                           r"([\u4e00-\u9fff·]{2,5}(?:[ 、，,][\u4e00-\u9fff·]{2,5}){0,3})")


def _marked(words: tuple[str, ...], page: Page, skip: tuple[str, ...] = _SKIP_WORDS,
            joiner: str = " ", within: tuple[tuple[str, str], ...] = (),
            furniture: bool = True):
    """Texts of the elements whose class or id holds one of ``words`` (read from the node table:
    an XPath ``contains(@class, ...)`` over the tree costs 8-10 ms on a big page), their text
    segments joined by ``joiner``. ``within``: (word, longer) pairs; a row whose only word is
    ``word`` inside ``longer`` ("source" in "resources") is not marked. ``furniture``: False
    passes over the elements in a sidebar, menu, footer or comment (:func:`_outside_story`)."""
    nodes, seen = page.nodes, 0
    marks = name_marks(page)
    # the rows whose lower-cased "class id" holds one of ``words`` and none of ``skip``, found
    # by str.find over all rows at once (a substring test per row and word cost ~0.5 ms a
    # page, paid up to three times)
    named = marks.containing(words) - marks.containing(skip)
    for word, longer in within:
        named -= marks.containing((longer,)) - marks.containing(
            tuple(w for w in words if w != word))
    for row in (marks.rows[k] for k in sorted(named)):
        if nodes.tag[row] in ("body", "html", "article", "main"):
            continue
        seen += 1
        if seen > MAX_MARKED:
            return
        lo, hi = int(nodes.seg_lo[row]), int(nodes.seg_hi[row])
        if hi - lo > MAX_MARKED_SEGMENTS:
            continue
        if not furniture and _outside_story(nodes.elements[row]):
            continue
        yield joiner.join(" ".join(t.split()) for t in nodes.seg_text[lo:hi] if t.strip())
