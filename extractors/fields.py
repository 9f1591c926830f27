"""An article's fields (title, dates, authors, language, URLs...), structured metadata first.

:func:`extract_fields` reads the page's metadata once (:mod:`extractors.metadata`) and takes each
field from the most trusted source that gives a valid value: JSON-LD, then microdata, OpenGraph and
meta tags, ``<time>`` elements, the URL, and last the visible text (:mod:`extractors.bylines`).
:class:`Fields` records where each value came from (``sources``) and why a value found was refused
or which others disagreed (``notes``); a later step (paper 001's SVM) fills what is still empty
with :meth:`Fields.fill` / :func:`fill_guesses`, marking it ``svm``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field, fields as dc_fields
from datetime import UTC, date, datetime, timedelta
from urllib.parse import urlsplit

import pytz

from extractors import bylines
from extractors.authors import clean_authors, is_site_name
from extractors.boilerplate import furniture_mask, page_markup
from extractors.dates import FoundDate, other_reading, parse_date, url_date
from extractors.language import page_language
from extractors.metadata import Metadata, read_metadata
from extractors.page import Page
from extractors.title import choose_title, site_names
from extractors.urls import ld_strings as _ld_strings
from extractors.urls import page_urls

__all__ = ["FIELD_NAMES", "Fields", "date_from_source", "extract_fields", "extract_title",
           "fill_guesses"]

PUBLISHED_META = (
    "article:published_time", "og:published_time", "og:article:published_time",
    "article.published", "published_time", "datepublished", "article:published",
    "pubdate", "publishdate", "publish-date", "publish_date", "published-date", "publication_date",
    "date", "dc.date.issued", "dcterms.issued", "dc.date.created", "dcterms.created", "dc.date",
    "dcterms.date", "citation_publication_date", "citation_date", "citation_online_date",
    "parsely-pub-date", "sailthru.date", "og:pubdate", "original-publish-date", "displaydate",
    "cxenseparse:recs:publishtime", "rnews:datepublished", "article_date_original",
)
MODIFIED_META = ("article:modified_time", "og:updated_time", "datemodified", "dcterms.modified",
                 "dc.date.modified", "last-modified", "sailthru.lastmodified", "article:modified")
#: Meta keys declaring the author, in the order they are trusted. The Shareaholic share plugin's
#: ``shareaholic:article_author_name`` (WordPress) comes last: on the 4 sites of the sets that
#: write it, it is the gold author on all 3 that have one, and on wolfgangmichal.de nothing
#: else names him (trafilatura_eval 423 -> 424 of 538; no other meta key with "author" in its
#: name names a missed gold author; docs/evaluation.md, "Authors, tenth round").
AUTHOR_META = ("citation_author", "author", "article:author", "parsely-author", "sailthru.author",
               "dc.creator", "dc:creator",
               "dcterms.creator", "byl", "og:article:author", "article.author",
               "cxenseparse:author", "dc.contributor", "shareaholic:article_author_name")
_LD_AUTHOR_KEYS = ("author", "creator")
#: Twitter card labels (``twitter:labelN`` beside ``twitter:dataN``, which Yoast SEO and other
#: publishing tools write for link previews) that name the author in ``twitter:dataN``.
TWITTER_AUTHOR_LABELS = frozenset({"written by", "author", "by", "autor", "autorin",
                                   "geschrieben von", "verfasst von", "écrit par", "auteur",
                                   "escrito por", "scritto da", "autore", "geschreven door"})
#: Names read from a Chinese byline (one reporter or editor line).
MAX_CJK_BYLINE = 4
#: Date strings read per field (a page lists a few; a page listing hundreds is not helped by them).
MAX_DATE_CANDIDATES = 20
#: Sources of a declared date, which a date the page shows may overrule (``_shown_date``).
DECLARED_SOURCES = frozenset({"jsonld", "microdata", "opengraph", "meta"})
#: Dates no metadata declares: a ``<time>`` element's, or one read from the page's text. A line
#: of the page that labels a date its publication overrules them (``bylines.labelled_date``:
#: every page with a gold date, trafilatura_eval 663 -> 665, htmldate_eval 925 -> 928, none
#: lost; docs/evaluation.md, "Dates, ninth round"); declared dates it does not (werkzeugforum.de's
#: "veröffentlicht am Januar 20" under JSON-LD's right 26th, "Publicado el 03/05/2022" read
#: either way).
UNDECLARED_SOURCES = frozenset({"time", "text"})
#: How far apart two candidates may be and still be one publication moment in two zones (the
#: widest UTC offsets are -12 h and +14 h).
LOCAL_WINDOW = timedelta(hours=14)
#: A word of a site's name, as :func:`_people_beside_the_site` compares them.
_WORD = re.compile(r"\w{3,}")


#: A title longer than this is refused, not cut (a hostile page's 5 MB ``og:title`` was the
#: item's title): the longest gold title of the twelve sets has 257 characters.
MAX_TITLE_CHARS = 1_000
#: ... and any other text field longer than this (a description, a URL: a ``data:`` image).
MAX_FIELD_CHARS = 10_000
#: Items kept of a list field (keywords; authors are bounded by their own rule).
MAX_FIELD_ITEMS = 100


@dataclass(slots=True)
class Fields:
    """The article fields; ``sources[name]`` says where each non-empty one came from."""

    title: str | None = None
    published: str | None = None
    published_raw: str | None = None
    modified: str | None = None
    authors: list[str] = field(default_factory=list)
    language: str | None = None
    canonical_url: str | None = None
    description: str | None = None
    image: str | None = None
    section: str | None = None
    keywords: list[str] = field(default_factory=list)
    site_name: str | None = None
    sources: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    #: Whether a person's name was found by the author rules the page model was trained with
    #: (a declared value that is a person's name, a byline in the text other than a link to
    #: an author's page), whatever ``authors`` holds: the page model's ``has_authors`` reads
    #: this. Teams, site names and author links on list pages and threads ("ABC News", a
    #: Reddit poster's "u/..." link) made it type 9 news_article_vs_nonarticle and
    #: gerapy_listdetail pages as articles (docs/evaluation.md, "Authors, fourth round").
    person_named: bool = False

    def fill(self, name: str, value: object, source: str) -> bool:
        """Set field ``name`` to ``value`` from ``source`` if it is still empty; True if set.

        >>> f = Fields(title="Rain"); f.fill("title", "Snow", "svm"), f.fill("section", "Wx", "svm")
        (False, True)
        >>> f.sources
        {'section': 'svm'}
        """
        if name not in FIELD_NAMES or getattr(self, name) or not value:
            return False
        limit = MAX_TITLE_CHARS if name == "title" else MAX_FIELD_CHARS
        if isinstance(value, str) and len(value) > limit:
            self.note(name, f"a value of {len(value)} characters from {source} refused (over "
                      f"{limit})")
            return False
        if isinstance(value, list):
            value = value[:MAX_FIELD_ITEMS]
        setattr(self, name, value)
        self.sources[name] = source
        return True

    def note(self, name: str, text: str) -> None:
        """Add a reason about field ``name`` (refused values, disagreeing sources)."""
        self.notes[name] = f"{self.notes[name]}; {text}" if name in self.notes else text

    def values(self) -> dict[str, object]:
        """The fields by name (not ``sources``/``notes``)."""
        return {name: getattr(self, name) for name in FIELD_NAMES}


FIELD_NAMES = tuple(f.name for f in dc_fields(Fields)
                    if f.name not in ("sources", "notes", "person_named"))


def extract_fields(page: Page, text: str = "", fetched_at: datetime | None = None) -> Fields:
    """Every field of ``page`` (``text``: its main text, for the language check and bylines;
    ``fetched_at``: aware, anchors relative dates and the future check)."""
    meta = read_metadata(page)
    out = Fields()
    if meta.ld_problems:
        out.note("jsonld", "; ".join(dict.fromkeys(meta.ld_problems)))
    sites = site_names(meta)
    out.fill(*_pair("title", choose_title(page, meta)))
    _language(out, meta, text)
    langs = (out.language.split("-")[0],) if out.language else ()
    _dates(out, page, meta, fetched_at, langs)
    _authors(out, page, meta, tuple(sites), langs[0] if langs else None, text)
    page_urls(out, page, meta)
    _texts(out, meta)
    return out


def extract_title(page: Page) -> str | None:
    """The article's headline, or ``None`` when the page declares none."""
    return choose_title(page, read_metadata(page))[0]


def fill_guesses(fields: Fields, guesses: dict[str, str | None], source: str = "svm",
                 fetched_at: datetime | None = None) -> None:
    """Fill empty ``fields`` from text guesses (``title``, ``date``/``published``, ``author``/
    ``authors``), reading dates and names as the metadata ones are."""
    for name, guess in guesses.items():
        if not guess:
            continue
        if name in ("date", "published"):
            found, why = parse_date(guess, fetched_at)
            if found is not None and fields.fill("published", found.iso(), source):
                fields.published_raw = guess
            elif why:
                fields.note("published", f"{source}: {why}")
        elif name in ("author", "authors"):
            names, _ = clean_authors(guess if isinstance(guess, list) else [guess])
            fields.fill("authors", names, source)
        else:
            fields.fill(name, guess, source)


def date_from_source(fields: Fields, page: Page, source: bytes | str,
                     fetched_at: datetime | None = None) -> bool:
    """Fill an empty ``published`` from the page's source as fetched (its scripts and comments,
    which the parsed tree no longer holds: :func:`extractors.bylines.htmldate_source`); True if
    filled. ``extract()`` calls it for pages it types ``article`` only, after typing them: the
    page model reads whether a page has a date, and dates found so on list pages made it type
    list_pairs pages wrong (the quality gate's page type, 0.70 against its floor 0.78)."""
    if fields.published:
        return False
    found = bylines.htmldate_source(page, source, fetched_at)
    if found is None or not fields.fill("published", found.iso(), "text"):
        return False
    fields.published_raw = found.raw
    return True


def _pair(name: str, value_source: tuple[object, str | None]) -> tuple[str, object, str]:
    return name, value_source[0], value_source[1] or ""


def _candidates_published(page: Page, meta: Metadata) -> list[tuple[str, str]]:
    """(raw date, source) in order of trust."""
    found: list[tuple[str, str]] = []
    # article:published_time first: where it and JSON-LD disagree it is more often right
    # (day accuracy, JSON-LD first -> og first: trafilatura_eval 0.847 -> 0.854, htmldate_eval
    # 0.878 -> 0.881, wcxb_dev 0.843 either way; readability_testpages loses 1 of 33 pages)
    og = [(v, "opengraph") for key in PUBLISHED_META[:2] for v in meta.meta.get(key, ())]
    ld = [(v, "jsonld") for obj in meta.ld_articles
          for v in _ld_strings(obj, "datePublished", "dateCreated")]
    # ... unless it is the very moment JSON-LD gives as the modification: the CMS wrote the last
    # edit's time into article:published_time (readability_testpages' schema-org page)
    ld_modified = [v for obj in meta.ld_articles for v in _ld_strings(obj, "dateModified")]
    if og and ld and _same_moment(og[0][0], ld_modified) and not _same_moment(ld[0][0],
                                                                                ld_modified):
        found += ld + og
    else:
        found += og + ld
    found += [(v, "jsonld") for v in meta.ld_salvaged.get("datePublished", ())]
    found += [(v, "microdata") for v in meta.microdata.get("datePublished", ())]
    for key in PUBLISHED_META[2:]:
        source = "opengraph" if key.startswith("og:") or key.startswith("article:") else "meta"
        found += [(v, source) for v in meta.meta.get(key, ())]
    # a <time> beside the article (an <aside>, a related-posts list) dates another story
    found += [(t.value or t.text, "time") for t in meta.times
              if t.role == "published" and not t.aside]
    found += [(t.value or t.text, "time") for t in meta.times
              if not t.role and t.value and not t.aside]
    found += [(v, "microdata") for v in meta.microdata.get("page:datePublished", ())]
    for obj in (*meta.ld_pages, *meta.ld_other):  # a HowTo's, a Product's date: the page's
        found += [(v, "jsonld") for v in _ld_strings(obj, "datePublished", "dateCreated")]
    return found


#: How far apart two timestamps may be and still be one moment written twice: medium.com's
#: ``article:published_time`` ``21:17:43.462Z`` is its JSON-LD ``dateModified`` ``21:17:43.643Z``,
#: saved by the CMS a fraction of a second apart (htmldate_eval: 1 page gained, none lost; the
#: exact string match before caught readability_testpages' one page).
SAME_MOMENT = timedelta(seconds=60)

#: Metadata keys that say "date" and nothing more, not which one: CMSs (TYPO3 and others)
#: write the last change there (caritas.de's "Zuletzt geändert am" day, ejwue.de, alpin.de,
#: neues-deutschland.de, umweltbundesamt.de, tagesschau.de). A day the page shows overrules a
#: date declared under these keys alone without htmldate's agreement, which reads the same
#: tag (``_shown_date``; every page with a gold date: trafilatura_eval 657 -> 663 pages right,
#: htmldate_eval 919 -> 925, wcxb_dev 708 -> 709, +15 -1 on three sets, the one lost
#: deutschlandfunk.de's header clock, in two sets; docs/evaluation.md, "Dates, eighth round").
GENERIC_DATE_META = ("date", "dc.date", "dcterms.date")


def _same_moment(raw: str, others: list[str]) -> bool:
    """Whether ``raw`` is one of ``others``: the same string, or a timestamp within
    ``SAME_MOMENT`` of one (both with a time of day and, when one gives a UTC offset, both)."""
    if raw.strip() in {other.strip() for other in others}:
        return True
    found = parse_date(raw)[0]
    if found is None or not found.has_time:
        return False
    for other in others:
        second = parse_date(other)[0]
        if second is None or not second.has_time \
                or (found.when.tzinfo is None) != (second.when.tzinfo is None):
            continue
        if abs(found.when - second.when) <= SAME_MOMENT:
            return True
    return False


def _dates(out: Fields, page: Page, meta: Metadata, fetched_at: datetime | None,
           langs: tuple[str, ...]) -> None:
    zone = site_zone(page.url)
    modified = [(v, "jsonld") for o in meta.ld_articles for v in _ld_strings(o, "dateModified")]
    modified += [(v, "microdata") for v in meta.microdata.get("dateModified", ())]
    modified += [(v, "meta") for k in MODIFIED_META for v in meta.meta.get(k, ())]
    modified += [(t.value or t.text, "time") for t in meta.times if t.role == "modified"]
    found_modified = _first_date(out, "modified", modified, fetched_at, langs, zone)
    if found_modified is not None:
        out.fill("modified", found_modified[0].iso(), found_modified[1])
    valid: list[tuple[FoundDate, str]] = []
    chosen = _first_date(out, "published", _candidates_published(page, meta), fetched_at, langs,
                         zone, valid)
    if chosen is not None and chosen[1] in DECLARED_SOURCES:
        shown = _shown_date(page, chosen, fetched_at, langs, found_modified is not None,
                            _declared_rival(chosen, valid, found_modified),
                            _generic_only(chosen, meta),
                            functools.partial(_stamped_day, meta, found_modified))
        if shown is None and found_modified is None:
            shown = _earlier_dateline(page, chosen, fetched_at, out.title)
        if shown is not None:
            out.note("published", f"the page shows {shown[0].iso()}, not {chosen[1]} "
                                  f"{chosen[0].iso()}")
            chosen = shown
    if chosen is None:
        from_url = url_date(page.url)
        if from_url is not None:
            chosen = (from_url, "url")
        else:
            found = bylines.headline_dateline(page, fetched_at, out.title)
            if found is None:
                found = _htmldate_shown(page, fetched_at, langs)
            if found is None:
                found = bylines.text_date(page, fetched_at, langs)
            chosen = (found, "text") if found is not None else None
    if chosen is not None and chosen[1] == "time":
        under = _time_under_headline(page, chosen, valid, fetched_at, out.title)
        if under is not None:
            out.note("published", f"the <time> under the headline, {under[0].iso()}, not the "
                                  f"first, {chosen[0].iso()}")
            chosen = under
    if chosen is not None and chosen[1] in UNDECLARED_SOURCES:
        labelled = bylines.labelled_date(page, fetched_at)
        if labelled is not None and labelled.day() != chosen[0].day():
            out.note("published", f"the page labels {labelled.iso()} its publication, not "
                                  f"{chosen[1]} {chosen[0].iso()}")
            chosen = labelled, "text"
    if chosen is not None:
        out.fill("published", chosen[0].iso(), chosen[1])
        out.published_raw = chosen[0].raw


def _time_under_headline(page: Page, chosen: tuple[FoundDate, str],
                         valid: list[tuple[FoundDate, str]], fetched_at: datetime | None,
                         title: str | None) -> tuple[FoundDate, str] | None:
    """The ``<time>`` candidate whose day the dateline under the headline shows, where the
    page's first ``<time>`` (``chosen``) gives another day; else None.

    A ``<time>`` taken as the date can be another story's (casact.org declares no date; a
    Drupal "views-field-field-date" list of 2025 items comes before the article's own
    ``<time datetime="2017-03-01">`` "03/01/2017" under its ``<h1>``) or a declared UTC time
    traded by ``_local`` for a ``<time>`` in local time past midnight, where the page shows
    the UTC day (talent.ch's ``+01:00`` ``<time>`` of the 27th, "26" under the headline). A
    dateline read either way round counts by either reading: the ``<time>`` decides which.
    Every page with a gold date: trafilatura_eval and htmldate_eval 1 page gained each
    (talent.ch), wcxb_dev 1 (casact.org), none lost; without the agreement of a ``<time>``
    (the dateline alone overruling the first ``<time>``) 3 pages were lost for 1 gained
    (docs/evaluation.md, "Dates, eleventh round")."""
    under = bylines.headline_dateline(page, fetched_at, title, either_way=True)
    if under is None:
        return None
    swapped = other_reading(under)
    readings = {under.day()} | ({swapped.day()} if swapped is not None else set())
    if chosen[0].day() in readings:
        return None
    return next((c for c in valid if c[1] == "time" and c[0].day() in readings), None)


def _htmldate_shown(page: Page, fetched_at: datetime | None, langs: tuple[str, ...]
                    ) -> FoundDate | None:
    """htmldate's date for a page nothing declares a date on, where the page's text writes its
    day (``bylines.shows_day``) and, if the dateline reader gives another day, writes it outside
    the blocks its strong furniture labels name (``_story_shows``); else the day the dateline
    reader (``bylines.text_date``, date-marked elements and the lines after the headline) finds,
    if any, else htmldate's.

    htmldate also reads attributes and misreads: colours-of-the-soul.alhelm.net's archive list's
    ``<abbr title="9 Apr 2003">`` over the post's "Feb 18 2009", bettycrocker.com's
    ``<meta content="01/01/2004">`` in the body over "Updated June 13, 2019", doom9.org's
    "vBulletin 3.8.11" as 2011-08-03 over the thread's "30th March 2025". Every page with a gold
    date: trafilatura_eval 2 pages gained, wcxb_dev 1, htmldate_eval 2, none lost (where the
    two readers disagree and htmldate's day is shown, 22 pages are right by htmldate, 9 by the
    dateline reader: the fifth round's order stays there; docs/evaluation.md, "Dates, twelfth
    round")."""
    found = bylines.htmldate_fallback(page, fetched_at)
    if found is None:
        return None
    written = bylines.shows_day(page, found.day(), langs)
    shown = bylines.text_date(page, fetched_at, langs, anywhere=False)
    if shown is None or (written and (shown.day() == found.day()
                                      or _story_shows(page, found.day(), langs))):
        return found
    return shown


def _story_shows(page: Page, day: date, langs: tuple[str, ...]) -> bool:
    """Whether ``day`` is written in the page's text outside the blocks its strong furniture
    labels name (comments, sharing, credits: ``boilerplate.furniture_mask`` with no weak
    evidence; a discussion's posts stay, ``extractors.is_thread``).

    htmldate reads the page's dates in its own order, and on a page without metadata it can
    take a reader's comment's (regards.fr's ``abbr.date`` in a ``comment-meta`` block, "Le 11
    septembre 2018", over the story's 30th; autohaus.de's ``comment__date`` of the next day) or
    an "Updated" day in a block of dates (fivebooks.com's ``date-and-credit``: "December 3,
    2025. Updated: December 7, 2025", the gold the first). Where that day is written only in
    such blocks and the dateline reader gives another, the dateline reader's day is taken
    (``_htmldate_shown``). Every page with a gold date: trafilatura_eval 1 page gained,
    htmldate_eval 2, wcxb_dev 1, none lost; with the weak labels too (navigation, menus,
    footers) ditib.de's news menu was passed over as well (+2) but a wiki page's footer "Diese
    Seite wurde zuletzt am 29. Januar 2020" (the gold, in two sets) was lost; counting comments
    and ``<nav>``/``<aside>``/``<footer>`` alone (``bylines._in_furniture``) gained regards.fr
    and autohaus.de only (docs/evaluation.md, "Dates, fourteenth round"). The mask is computed
    only where htmldate's day is written and the dateline reader disagrees (34 pages of the
    2 558 with a gold date). The mask reads the page's markup as the chain read it
    (``page_markup``, kept in ``page.memo``), not afresh: ``read_markup`` costs 0.8-1.6 ms a
    page (docs/evaluation.md, "Speed: a twelfth cut")."""
    from extractors import is_thread  # extractors imports this module

    return bylines.shows_day(page, day, langs,
                             furniture_mask(page.nodes, page_markup(page), max_weak_share=0.0,
                                            thread=is_thread(page)))


def _earlier_dateline(page: Page, declared: tuple[FoundDate, str], fetched_at: datetime | None,
                      title: str | None) -> tuple[FoundDate, str] | None:
    """The day of the dateline under the headline (``bylines.headline_dateline``), where it is
    earlier than the declared publication day; for pages whose metadata declares no
    modification (the caller's test), else None. Not where the URL names the declared day.

    A page that declares one version only and shows an earlier day right under its headline
    was first published then: medium.com's republished post (``article:published_time``
    2024-08-07, "Dec 30, 2013" under the headline), caritas.de's `<meta name="date">` of two
    days later over the press release's "13.10.2021", reuters.com's JSON-LD of the next
    morning (2020-01-20 09:49 UTC) over "January 19, 2020". ``_shown_date`` misses them: its dateline
    reader reads date-marked elements first (caritas.de's marked day is the declared one) and
    wants htmldate to agree, which reads the metadata. The line under the headline is the
    second reader here. Every page with a gold date, replayed on the metadata-dated pages
    whose headline dateline gives another day (64 pages over five sets): trafilatura_eval and
    wcxb_dev 1 page gained each, htmldate_eval 2, none lost. A later day too: pocketpc.ch's
    thread gained in two sets, healthline.com lost (its review's 2025 date under the headline),
    and a later day on a page declaring one version is no update of it (``_shown_date``'s
    ``versions``). Where a modification is declared, the days under the headline are mostly
    the "Updated" day: 35 pages lost over four sets for 13 gained, or 5 lost for none with the
    earlier days alone (abcnews.com's "November 8, 2023, 11:15 PM" beside JSON-LD's UTC 9th;
    docs/evaluation.md, "Dates, twelfth round")."""
    under = bylines.headline_dateline(page, fetched_at, title)
    if under is None or under.day() >= declared[0].day():
        return None
    if _url_names(page, declared[0]):
        return None
    return under, "text"


def _url_names(page: Page, declared: FoundDate) -> bool:
    """Whether the page's URL, written when the story was filed, names ``declared``'s day."""
    in_url = url_date(page.url)
    return in_url is not None and in_url.day() == declared.day()


def _generic_only(chosen: tuple[FoundDate, str], meta: Metadata) -> bool:
    """Whether ``chosen`` comes from a ``GENERIC_DATE_META`` key alone."""
    if chosen[1] != "meta":
        return False
    raw = chosen[0].raw.strip()
    return not any(v.strip() == raw for k in PUBLISHED_META if k not in GENERIC_DATE_META
                   for v in meta.meta.get(k, ()))


def _stamped_day(meta: Metadata, modified: tuple[FoundDate, str] | None) -> date | None:
    """The one day the article's ``<time datetime>`` elements give (none beside it, none marked
    a modification), where it is not the declared modification day; else None (no such element,
    one that does not read, or several days: a thread's, a list's).

    A second reader of the day the page shows, where htmldate, the other, reads the metadata
    and agrees with it: sac-cas.ch's ``<time datetime="2022-01-25">``, uschamber.com's
    "Published <time datetime="2025-08-13">", scripps.org's byline ``<time>`` of 2023-03-20,
    each beside an ``article:published_time`` of the page's making (2022-01-15, 2025-08-08,
    2013-03-11). Without the modification test, "Updated" ``<time>``s that are the declared
    last edit overruled the publication: wcxb_dev 2 pages more gained (their gold the last edit)
    and 5 lost, readability_testpages 1 lost (docs/evaluation.md, "Dates, tenth round")."""
    last_edit = modified[0].day() if modified is not None else None
    days = set()
    for element in meta.times:
        if element.aside or element.role == "modified" or not element.value:
            continue
        found = parse_date(element.value)[0]
        if found is None:
            return None
        days.add(found.day())
        if len(days) > 1:
            return None
    if not days or last_edit in days:
        return None
    return days.pop()


def _declared_rival(chosen: tuple[FoundDate, str], valid: list[tuple[FoundDate, str]],
                    modified: tuple[FoundDate, str] | None) -> tuple[FoundDate, str] | None:
    """The other publication date the metadata declares, where it declares exactly two days
    (``chosen``'s and this one) that are not its declared modification day; else None.

    Several other days are a list's or a thread's (a forum's ``<meta itemprop="datePublished">``
    per post; oetv.at's related stories in microdata); a day that is the declared modification
    is the last edit repeated (vox.com's ``sailthru.date``; denverpost.com's JSON-LD 01:09 UTC,
    the next day, beside its wall-clock 18:09). Without either test, every page with a gold
    date: 15 pages lost on four sets; with both, none (docs/evaluation.md, "Dates, seventh
    round"); a bound on how far apart the two days must be changed no page."""
    last_edit = modified[0].day() if modified is not None else None
    days = {d.day() for d, s in valid if s in DECLARED_SOURCES} - {last_edit}
    if len(days) != 2 or chosen[0].day() not in days:
        return None
    for found, source in valid:
        if source in DECLARED_SOURCES and found.day() in days and found.day() != chosen[0].day():
            return found, source
    return None


def _shown_date(page: Page, declared: tuple[FoundDate, str], fetched_at: datetime | None,
                langs: tuple[str, ...], versions: bool = True,
                rival: tuple[FoundDate, str] | None = None,
                generic: bool = False, stamped: Callable[[], date | None] | None = None
                ) -> tuple[FoundDate, str] | None:
    """The day the page shows, where it is not the day its metadata declares and two readers
    of the page agree on it: our dateline reader (``bylines.text_date``: a date-marked element
    or the line after the headline, not any date in the body) and htmldate.

    Metadata is often the first version's date (an evergreen page republished, a CMS's
    creation date) while the page shows the date its readers and the gold of every dev set
    take. One reader alone is no match for the metadata (it misreads a comment's or a related
    story's date); both agreeing is: day accuracy htmldate_eval 0.901 -> 0.905,
    trafilatura_eval 0.868 -> 0.883, wcxb_dev 0.866 -> 0.896, readability_testpages 0.939 ->
    0.879 (54 pages gained, 17 lost over the four; docs/evaluation.md "Dates, fourth round").
    htmldate (20-70 ms) runs only where the dateline disagrees, about one metadata-dated page in
    eight.

    ``versions``: whether the metadata declares a modification date too. Where it declares
    none, it knows of one version only, and a later day on the page is no update of it (a
    newsletter box's, another story's date): only an earlier day, the first publication of a
    page the metadata dates by its republication, overrules it then (htmldate_eval 3 pages
    gained, trafilatura_eval 1, none lost; docs/evaluation.md, "Dates, fifth round"). Nor
    does a shown day overrule a declared day that the URL names too (inquirer.com's
    ``/2020/07/18/`` story showing "July 19, 2020"), or one its numbers name read the other way
    round (blockrenovation.com's "09.10.2024", month first, beside JSON-LD's 2024-09-10:
    wcxb_dev 1 page gained, none lost).

    ``rival``: the other publication day the metadata declares (``_declared_rival``). Where the
    metadata disagrees with itself so and the page shows the rival's day, the rival is the
    publication: two readers agree on it without htmldate (medium.com's
    ``article:published_time`` 2015-12-11 beside JSON-LD's ``datePublished`` 2015-10-15 and
    "Oct 15, 2015" under the headline; docs/evaluation.md, "Dates, seventh round").

    ``generic``: the declared date comes from ``GENERIC_DATE_META`` keys alone (``date``,
    ``dc.date``), often the last change: the day the page shows is taken then without htmldate,
    which reads that very tag, and whether it is earlier or later, unless the URL names the
    declared day (npr.org's ``/2022/11/09/`` beside "Updated November 11, 2022").

    ``stamped``: reads the one day the page's ``<time datetime>`` elements give
    (``_stamped_day``; called only where a shown day is in question). A shown day that is it is
    taken without htmldate, earlier or later (every page with a gold date: trafilatura_eval 665
    -> 666, wcxb_dev 711 -> 713, htmldate_eval 929 -> 930, none lost; requiring each ``<time>``
    to give a day alone, no time of day, changed no page; docs/evaluation.md, "Dates, tenth
    round")."""
    shown = bylines.text_date(page, fetched_at, langs, anywhere=False)
    if shown is None or shown.day() == declared[0].day():
        return None
    swapped = other_reading(shown)
    if swapped is not None and swapped.day() == declared[0].day():
        return None  # "09.10.2024" read the other way round is the declared 10 September
    if rival is not None and rival[0].day() == shown.day():
        return rival
    if _url_names(page, declared[0]):
        return None  # the URL names the declared day too
    if generic or (stamped is not None and shown.day() == stamped()):
        return shown, "text"
    if not versions and shown.day() > declared[0].day():
        return None
    second = bylines.htmldate_fallback(page, fetched_at)
    if second is None or second.day() != shown.day():
        return None
    return shown, "text"


def _first_date(out: Fields, name: str, candidates: list[tuple[str, str]],
                fetched_at: datetime | None, langs: tuple[str, ...], zone: str | None = None,
                valid: list[tuple[FoundDate, str]] | None = None
                ) -> tuple[FoundDate, str] | None:
    """The first candidate that reads as a valid date (in the page's own zone when another
    candidate gives the same moment with it, else in ``zone``, the site's zone, when it is a UTC
    time); refusals and disagreements noted. ``valid``, when given, receives every candidate
    that read as a date, in order."""
    valid = [] if valid is None else valid
    refused = []
    for raw, source in candidates[:MAX_DATE_CANDIDATES]:
        found, why = parse_date(raw, fetched_at, langs)
        if found is not None:
            valid.append((found, source))
        elif why not in ("empty", "no date"):
            refused.append(f"{source} {raw!r}: {why}")
    if refused:
        out.note(name, "refused " + ", ".join(refused[:3]))
    if not valid:
        return None
    valid[0] = _confirmed_reading(valid[0], valid[1:])
    chosen = _local(valid[0], valid[1:])
    if chosen is valid[0] and zone is not None:
        chosen = _in_zone(chosen, zone)
    others = [f"{s} {d.iso()}" for d, s in valid[1:] if d.day() != chosen[0].day()]
    if others:
        out.note(name, "other dates: " + ", ".join(dict.fromkeys(others[:3])))
    return chosen


def _confirmed_reading(chosen: tuple[FoundDate, str], others: list[tuple[FoundDate, str]]
                       ) -> tuple[FoundDate, str]:
    """``chosen``, or its day and month exchanged where its string reads either way ("02-12-2025")
    and another candidate of the page gives that other day (playfultones.com's ``<time>``
    "02-12-2025" beside "2025-12-02")."""
    other = other_reading(chosen[0])
    if other is not None and any(d.day() == other.day() for d, _ in others) \
            and not any(d.day() == chosen[0].day() for d, _ in others):
        return other, chosen[1]
    return chosen


def _local(chosen: tuple[FoundDate, str], others: list[tuple[FoundDate, str]]
           ) -> tuple[FoundDate, str]:
    """``chosen``, or the same moment as another source writes it in the site's zone.

    A timestamp in UTC (or without a zone) names the wrong day for readers of a site west or
    east of Greenwich when it is near midnight; when another candidate carries a non-zero UTC
    offset and lies within ``LOCAL_WINDOW`` of it, that one is the same publication written in
    the site's zone. (On trafilatura_eval, 31 of 726 dated pages had the UTC day where the
    gold has the local one.)"""
    date, _ = chosen
    if not date.has_time or _offset(date) not in (None, 0):
        return chosen
    for other, source in others:
        if not other.has_time or _offset(other) == 0:
            continue
        if _offset(other) is None:  # a wall-clock time: local if it differs by whole hours
            if date.when.tzinfo is None:
                continue
            gap = abs(other.when - date.when.replace(tzinfo=None))
            if gap <= LOCAL_WINDOW and gap.total_seconds() % 1800 == 0 and gap:
                return other, source
            continue
        gap = abs(other.when - (date.when if date.when.tzinfo else
                                date.when.replace(tzinfo=other.when.tzinfo)))
        if gap <= LOCAL_WINDOW:
            return other, source
    return chosen


def _in_zone(chosen: tuple[FoundDate, str], zone: str) -> tuple[FoundDate, str]:
    """A UTC time (``Z``, ``+00:00``) as the same moment in ``zone``; other dates unchanged."""
    date, source = chosen
    if not date.has_time or _offset(date) != 0:
        return chosen
    return FoundDate(date.when.astimezone(pytz.timezone(zone)), True, date.raw), source


def site_zone(url: str | None) -> str | None:
    """The time zone of the country of the page's country-code domain (``.de``, ``.com.ar``),
    when that country has one offset all year round everywhere in it (``pytz.country_timezones``,
    from the tz database's zone.tab). None for ``.com`` and the other generic domains, for the
    country-code domains sold worldwide (``.io``, ``.tv``, ...) and for countries spanning several
    offsets (US, Brazil, Russia, Spain with the Canaries...).

    Why: pages write their timestamps in UTC as often as in local time, and a story published at
    00:30 in Berlin is dated the day before in UTC. Measured (all pages with a gold date): on
    trafilatura_eval 4 dates became right and 1 wrong (628 -> 631 of 728), on htmldate_eval 2 and
    1 (892 -> 893 of 995), no change on wcxb_dev, readability_testpages, gne. The region of
    ``og:locale`` / ``<html lang>`` was tried as a second source and left out: as many dates
    became wrong as right (``es_LA`` is Facebook's "Latin America", not Laos; an ``en-GB``
    site dated its stories in UTC).

    >>> site_zone("https://www.tagesschau.de/x"), site_zone("https://a.com/")
    ('Europe/Berlin', None)
    >>> site_zone("https://x.com.ar/n"), site_zone("https://x.us/n")
    ('America/Argentina/Buenos_Aires', None)
    """
    host = (urlsplit(url).hostname or "") if url else ""
    tld = host.rsplit(".", 1)[-1] if "." in host else ""
    if len(tld) != 2 or tld in WORLDWIDE_TLDS:
        return None
    return _country_zone("gb" if tld == "uk" else tld)


#: Country-code domains sold to anyone (a ``.io`` page says nothing of where its readers live).
WORLDWIDE_TLDS = frozenset("io tv me ai fm ly to cc ws gg co la am nu tk ml ga cf gq sh ac "
                           "is im so st vc ag gs".split())


@functools.lru_cache(maxsize=512)
def _country_zone(country: str) -> str | None:
    zones = pytz.country_timezones.get(country.upper()) if len(country) == 2 else None
    if not zones:
        return None
    moments = (datetime(2021, 1, 15, 12, tzinfo=UTC), datetime(2021, 7, 15, 12, tzinfo=UTC))
    offsets = {tuple(m.astimezone(pytz.timezone(z)).utcoffset() for m in moments) for z in zones}
    return zones[0] if len(offsets) == 1 else None


def _offset(date: FoundDate) -> int | None:
    delta = date.when.utcoffset()
    return None if delta is None else int(delta.total_seconds())


def _twitter_labelled(meta: Metadata, labels: frozenset[str]) -> list[str]:
    """The ``twitter:dataN`` values whose ``twitter:labelN`` is one of ``labels`` (lower-cased,
    a trailing colon dropped): ``<meta name="twitter:label1" content="Written by">`` then
    ``<meta name="twitter:data1" content="Jane Roe">``."""
    found = []
    for n in range(1, 5):
        label = meta.meta.get(f"twitter:label{n}")
        data = meta.meta.get(f"twitter:data{n}")
        if label and data and label[0].strip().rstrip(":").strip().lower() in labels:
            found.append(data[0])
    return found


def _authors(out: Fields, page: Page, meta: Metadata, sites: tuple[str, ...],
             lang: str | None, text: str = "") -> None:
    tiers: list[tuple[list[str], str]] = []
    if lang in ("zh", "ja"):  # their meta author is the portal's name ("网易"); bylines first
        tiers.append((bylines.cjk_byline(page, sites, out.title, headline=True)[:MAX_CJK_BYLINE],
                       "text"))
        if _portal_declared(meta):  # else the declared author before the other text readers
            tiers.append((bylines.text_authors(page, sites, lang, title=out.title)
                          [:MAX_CJK_BYLINE], "text"))
    nodes = _ld_nodes(meta)
    for obj in meta.ld_articles:
        tiers.append((_ld_people(obj, nodes), "jsonld"))
    tiers.append((meta.ld_salvaged.get("author", []), "jsonld"))
    # the first only: further itemprop=author are a forum's or a comment thread's posters
    tiers.append((meta.micro_authors[:1], "microdata"))
    for key in AUTHOR_META:
        values = meta.meta.get(key, [])
        if key == "citation_author":  # "Roy, Aniruddha": family name first
            values = [" ".join(reversed(v.split(",", 1))).strip() for v in values]
        tiers.append((values, "opengraph" if ":" in key else "meta"))
    tiers.append((meta.rel_authors, "meta"))
    tiers.append((_twitter_labelled(meta, TWITTER_AUTHOR_LABELS), "meta"))
    refused: list[str] = []
    fallback: tuple[list[str], str] | None = None
    # a forum thread's starter as its header names him first: the first itemprop=author of a
    # stored page that is not the thread's first is a reply's poster (not a tier the page
    # model's person_named reads)
    for values, source in [(bylines.thread_starter(page, sites), "text"), *tiers]:
        if not values:
            continue
        names, why = clean_authors(values, sites, declared=True)
        refused += why
        own = [n for n in names if not is_site_name(n, sites)]
        if own:  # "Rob Picheta, CNN": the person, not the outlet beside them
            spelled = _spelled_out(own, tiers, page, sites, lang)
            if spelled is not None:
                out.note("authors", f"{source} {own!r} is a user name: its name as written")
                own, source = spelled
            shown = bylines.person_over_outlet(own, page, sites, lang, out.title)
            if shown:
                out.note("authors", f"{source} {own!r} names the publisher: the byline's person")
                own, source = shown, "text"
            elif not _is_thread(meta) and (
                    shown := _fuller_byline(own, page, sites, out.title)):
                out.note("authors", f"{source} {own!r} is a login or initials: the byline's name")
                own, source = shown, "text"
            out.fill("authors", own, source)
            break
        if names and fallback is None:
            fallback = (names, source)
    else:
        if fallback is not None:
            # the page declares the site itself as the author: the byline's people where the
            # page shows some (see _people_beside_the_site), else a labelled name in the text
            # ("Written by:" / "Julie Mollins" under "By The Planetary Press"), else the site
            shown = _people_beside_the_site(
                bylines.text_authors(page, sites, lang, title=out.title), (*sites, *fallback[0])
            ) or bylines.labelled_person(page, (*sites, *fallback[0]))
            if shown:
                out.note("authors", f"{fallback[1]} {fallback[0]!r} names the site: the byline")
                out.fill("authors", shown, "text")
            else:
                out.fill("authors", fallback[0], fallback[1])
        elif not out.fill("authors", bylines.text_authors(page, sites, lang, title=out.title),
                          "text") and not out.fill("authors", bylines.signature(page, text, sites),
                                                   "text") and not out.fill(
                "authors", bylines.post_author_comment(page, sites), "text") and not out.fill(
                "authors", bylines.credit_line(text, sites), "text") and not out.fill(
                "authors", bylines.press_contact(page, sites), "text"):
            # an Organization JSON-LD names as the author, where the page shows no byline
            orgs = [n for obj in meta.ld_articles for n in _ld_people(obj, nodes, True)]
            out.fill("authors", clean_authors(orgs, sites, declared=True)[0], "jsonld")
    if refused:
        out.note("authors", "refused: " + ", ".join(dict.fromkeys(refused)))
    # what the page model's rules saw: a person declared, else a byline but for author links
    out.person_named = any(clean_authors(v, sites)[0] for v, _ in tiers if v) or bool(
        bylines.text_authors(page, sites, lang, as_trained=True))


def _portal_declared(meta: Metadata) -> bool:
    """Whether a Chinese or Japanese page declares no author of its own: no ``meta
    name=author``, or one its ``<title>`` holds (the portal's name that brands every title, "网易"
    in "..._网易财经"). Where it declares another (光明网's "肖春芳"), that name comes before the
    text readers other than the labelled "作者：" line, which took a "来源：" (source) box's outlet
    for the author. Pages with a Chinese or Japanese gold author (gne, readability_testpages,
    trafilatura_eval: 23), before -> after: 18 -> 19 right (readability_testpages' gmw page); cx_163's
    pages, whose source boxes name the outlet, keep it (the portal's "网易" is in their titles)."""
    declared = [v.strip() for v in meta.meta.get("author", []) if v.strip()]
    return not declared or all(v in (meta.title_tag or "") for v in declared)


def _people_beside_the_site(shown: list[str], site_names: tuple[str, ...]) -> list[str]:
    """The byline's names where a page declares only the site as its author ("USA TODAY",
    "British Heart Foundation" as JSON-LD's author, "Brian Truitt" in the byline); none when a
    name shares a word of three letters or more with the site's names ("BBC Capital" beside
    "BBC News": the outlet's desk, not a person). Every page with a gold author, before
    (the site's name whenever it was declared) -> after: wcxb_dev 616 -> 618 of 739 (3 up:
    bhf.org.uk, usatoday.com, onetreeplanted.org; 1 down: wral.com, whose gold is the station
    where the byline names a CNN reporter), trafilatura_eval 400 -> 403 of 538 (lopinion.fr,
    elcolombiano.com, makronom.de), readability_testpages and gne unchanged (the BBC page kept
    by the shared-word test)."""
    words = {w for name in site_names for w in _WORD.findall(name.casefold())}
    if any(words.intersection(_WORD.findall(name.casefold())) for name in shown):
        return []
    return shown


def _fuller_byline(names: list[str], page: Page, sites: tuple[str, ...], title: str | None
                   ) -> list[str]:
    """The byline's full names where every declared name is a login or initials
    ("wordpressadmin", "link78", "CC7567", "PP", "AFP"), or a first name alone that the byline
    writes out ("Todd" beside "Todd Bates"); else [].

    CMSs fill JSON-LD's, microdata's or ``meta name=author`` from the account ("link78",
    "andrew.keaveney") or a short form ("PP", "AFP") while the page prints the author's name,
    which the gold takes. Every page with a gold author, before -> after: readability_testpages
    52 -> 54 of 76, trafilatura_eval 404 -> 406 of 538 (3 up; 1 down, eltiempo.com, whose gold
    is the dateline "MEDELLÍN"), wcxb_dev 624 -> 626 of 739 (3 up; 1 down, a digitalpoint forum
    thread not recognised as one), gne unchanged (docs/evaluation.md, "Authors, fifth round").
    The byline is :func:`bylines.plain_byline`: other readers' names overruled logins with a
    theme's name or a tag list on pages without a gold author.

    A declared name holding a space is no login, and the answer is then [] whatever the byline
    says: it is returned before the byline is read (0.10 ms a page on aeb's 53 pages that ask)."""
    if any(" " in name.strip() for name in names):
        return []
    return _byline_for_names(bylines.plain_byline(page, sites, title), names, page, sites)


def _byline_for_names(found: list[str], names: list[str], page: Page, sites: tuple[str, ...]
                      ) -> list[str]:
    """``_fuller_byline``'s answer once the byline ``found`` is read: its names where every
    declared name is a login or a first name it writes; where it names nobody, a lone declared
    name written out in the page; else []."""
    if not found:
        if len(names) == 1 and " " not in names[0].strip():
            return bylines.name_written_out(page, names[0].strip(), sites)
        return []
    firsts = {n.split()[0].casefold() for n in found}
    for name in names:
        if " " in name.strip() or not (_LOGIN.search(name) or name.casefold() in firsts):
            return []
    return found


def _is_thread(meta: Metadata) -> bool:
    """Whether the page is a forum thread: JSON-LD's ``DiscussionForumPosting`` / ``QAPage``, or
    posts by :data:`THREAD_POSTERS` or more people marked ``itemprop=author``. A thread's
    declared first poster is the author as the gold of wcxb_dev takes it, user name and all."""
    types = " ".join(str(o.get("@type")) for o in (*meta.ld_articles, *meta.ld_pages,
                                                    *meta.ld_other)).lower()
    return "discussion" in types or "qapage" in types or \
        len(set(meta.micro_authors)) >= THREAD_POSTERS


#: Distinct ``itemprop=author`` names that make a page a thread of posts (a byline names 1-2;
#: a repeated agency, "AFP" twice, is one).
THREAD_POSTERS = 3
#: A declared name that is a CMS login or initials, not a name as written: lower case, joined
#: by ``._-``, with digits or an inner capital ("wordpressadmin", "andrew.keaveney", "link78",
#: "KatieS"), or two or three capitals ("PP", "AFP").
_LOGIN = re.compile(r"^(?:[^A-Z]*|.*[._\d-].*|.+[A-Z].*|[A-Z]{2,3})$")


def _spelled_out(names: list[str], tiers: list[tuple[list[str], str]], page: Page,
                 sites: tuple[str, ...], lang: str | None) -> tuple[list[str], str] | None:
    """The names written out ("Arian Schlichenmayer", "Gàbor Muniér") where the declared ones
    are user names of the same letters ("arianschlichenmayer", "gabor_munier",
    "edilson.la.rosa"), from another declared source or the page's byline; None if no source
    spells them so. CMSs fill JSON-LD's or ``article:author``'s name from the login while the
    page prints the person's name, which the gold takes."""
    if not all(is_handle(n) for n in names):
        return None
    wanted = {_letters(n) for n in names}
    for values, source in tiers:
        found, _ = clean_authors(values, sites, declared=True)
        if found and not any(is_handle(n) for n in found) \
                and {_letters(n) for n in found} == wanted:
            return found, source
    found = bylines.text_authors(page, sites, lang)
    if found and {_letters(n) for n in found} == wanted:
        return found, "text"
    return None


def is_handle(name: str) -> bool:
    """A user name, not a name as written: one word, lower case or joined by ``._-``.

    >>> is_handle("edilson.la.rosa"), is_handle("gabor_munier"), is_handle("Jane Roe")
    (True, True, False)
    """
    return " " not in name.strip() and (name.islower() or any(c in name for c in "._-"))


def _letters(name: str) -> str:
    """The name's letters, accents and case folded: "Gàbor Muniér" -> "gabormunier"."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if c.isalnum() and not unicodedata.combining(c))


def _ld_nodes(meta: Metadata) -> dict[str, dict]:
    """The page's JSON-LD objects by ``@id``: a ``@graph`` (Yoast SEO's, most WordPress sites)
    names the author as ``{"@id": ".../#/schema/person/..."}`` and describes the person in
    another member of the graph."""
    return {obj["@id"]: obj for obj in (*meta.ld_articles, *meta.ld_pages, *meta.ld_other)
            if isinstance(obj.get("@id"), str)}


def _ld_people(obj: dict, nodes: dict[str, dict] | None = None, organizations: bool = False
               ) -> list[str]:
    """The names of ``obj``'s authors (persons only; ``organizations``: the organisations
    only), following ``@id`` references into ``nodes`` (see :func:`_ld_nodes`)."""
    names: list[str] = []
    for key in _LD_AUTHOR_KEYS:
        value = obj.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and "name" not in item and nodes:
                item = nodes.get(item.get("@id"), item)
            if isinstance(item, str):
                if not organizations:
                    names.append(item)
            elif isinstance(item, dict) and organizations == (
                    "organization" in str(item.get("@type")).lower()):
                name = item.get("name")
                if isinstance(name, str):
                    names.append(name)
                elif isinstance(item.get("givenName"), str):
                    names.append(f"{item['givenName']} {item.get('familyName') or ''}".strip())
        if names:
            break
    return names


def _language(out: Fields, meta: Metadata, text: str) -> None:
    declared = [(meta.html_lang or "", "meta")]
    declared += [(v, "meta") for v in meta.meta.get("content-language", ())]
    declared += [(v, "jsonld") for o in meta.ld_articles for v in _ld_strings(o, "inLanguage")]
    declared += [(v, "opengraph") for v in meta.meta.get("og:locale", ())]
    tag, source, note = page_language(declared, text)
    out.fill("language", tag, source or "")
    if note:
        out.note("language", note)


def _texts(out: Fields, meta: Metadata) -> None:
    ld = meta.ld_articles
    pick = meta.first_meta
    for name, ld_keys, keys in (
            ("description", ("description",), ("og:description", "description",
                                                "twitter:description", "dc.description")),
            ("section", ("articleSection",), ("article:section", "parsely-section", "section",
                                              "sailthru.section", "category"))):
        values = [v for o in ld for v in _ld_strings(o, *ld_keys)]
        if values:
            out.fill(name, " ".join(values[0].split()), "jsonld")
        elif found := pick(*keys):
            out.fill(name, " ".join(found[0].split()),
                     "opengraph" if ":" in found[1] and found[1] != "twitter:description"
                     else "meta")
    _keywords(out, meta)
    names = [(v, "opengraph") for v in meta.meta.get("og:site_name", ())]
    names += [(p["name"], "jsonld") for o in ld if isinstance(p := o.get("publisher"), dict)
              and isinstance(p.get("name"), str)]
    names += [(v, "meta") for v in meta.meta.get("application-name", ())]
    for value, source in names:
        if out.fill("site_name", " ".join(value.split()), source):
            break


def _keywords(out: Fields, meta: Metadata) -> None:
    tiers = [([v for o in meta.ld_articles for v in _ld_strings(o, "keywords")], "jsonld"),
             (meta.meta.get("article:tag", []), "opengraph"),
             (meta.meta.get("news_keywords", []) + meta.meta.get("keywords", []), "meta"),
             (meta.meta.get("parsely-tags", []) + meta.meta.get("sailthru.tags", []), "meta")]
    for values, source in tiers:
        words = [w.strip() for v in values for w in v.replace("，", ",").split(",")]
        words = list(dict.fromkeys(w for w in words if w and len(w) <= 80))[:30]
        if out.fill("keywords", words, source):
            return
