"""The article's headline, chosen among the titles a page declares and its headings.

Declared titles: JSON-LD ``headline``, microdata ``headline``, ``og:title``, ``twitter:title``,
Dublin Core's and Parse.ly's meta titles, ``<title>``. A heading (``<h1>``, else the first
``<h2>``s) whose text one of them contains is the headline with the site name already gone; a
heading that is only the site's name or a part of it (the logo ``<h1>`` of WordPress-style
themes, "Minecraft News" for "Minecraft Update News") is never the headline. Without such a
heading, the first declared title loses its site-name and section parts ("Headline - Section |
Site", "Site: Headline"), unless another declared title repeats it before a site part (then the
page has cut it already); a heading loses a trailing site name too ("Headline | Site"). The
site's names are what the metadata calls it and what its host spells (a Wayback Machine copy's:
the archived host's; a page read without its address: its canonical link's). A heading's text
leaves out its kicker (by class, or before a separator the page hides) and a leading date; a
title's classic-WordPress "Blog Archive" part and what precedes it are the blog's.

On a page that declares itself an article (JSON-LD ``Article`` types, ``og:type`` article), its
one visible ``<h1>`` that is no link is the headline even where the declared titles say something
else (an SEO title, an older or shorter wording), unless it is the declared title after an
unmarked kicker of more than one word: the visible headline is what trafilatura_eval's and wcxb_dev's
gold record (2026-11-26, every page with a gold title: trafilatura_eval 722 -> 739 of 845,
wcxb_dev 1 165 -> 1 200 of 1 497; 27 wcxb_dev pages lost where the gold is the declared title).
Where it has several visible ``<h1>``s (a newsletter box's, teasers'), the one of them that
shares the most words with the declared headline, at least half of them, is that headline.
Pages that do not say they are articles (landing, product, docs pages) keep the declared title:
taking their ``<h1>`` too would gain 11 trafilatura_eval and 57 wcxb_dev pages but lose 66
wcxb_dev and 23 readability_testpages pages, whose gold is the declared title there; their one
``<h1>`` is taken only where the declared title shares no word with the URL's path and the
``<h1>`` spells a good part of it (:data:`MIN_PATH_SHARE`), or where the ``<h1>`` is the
declared title with a later year (an updated headline beside a stale meta title).

The choice is hand-written, not learned: a ranker trained over the same candidates (declared
titles whole and cut, the headings, this rule's answer; ``evaluation/title_ranker.py``) did not
beat it on the sites the models never train on without losing pages on another set
(docs/evaluation.md, "Titles: a learned candidate ranker (2026-11-27)"): what the rule leaves is
the gold taking the ``<h1>`` and the declared title by turns, which no page feature tells apart.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from urllib.parse import unquote, urlsplit

from extractors.metadata import Metadata
from extractors.page import Page, heading_rows
from extractors.urls import absolute_http

__all__ = ["choose_title", "domain_names", "is_article_like", "site_names", "strip_site_name",
           "words"]

#: Separators between headline and site name in ``<title>``; "::" only with a space beside it
#: ("Blog :: Post"), for "tokio::runtime" is a name; a bare "-" between a CJK headline's closing
#: character and a CJK site name ("...英雄的城！-新华网"), which Chinese titles write without spaces
#: (seen on xinhuanet, hexun, banyuetan, sina pages; trafilatura_eval 746 -> 747 of 845 pages).
_TITLE_SPLIT = re.compile(r"\s+[|\-–—:·»«/]\s+|\s*[|｜]\s*|\s+[-–—]\s*|\s*－\s*|_|\s+::\s*|\s*::\s+"
                          r"|(?<=[\u3000-\u30ff\u4e00-\u9fff\uff01-\uff60])-(?=[\u4e00-\u9fff])")
_SPACES = re.compile(r"\s+")
#: Classes of a heading's kicker (the label above or before the headline) and of the hidden
#: separators after it.
_KICKER = re.compile(r"kicker|dachzeile|overline|topline|roofline|eyebrow|supertitle|"
                     r"spitzmarke|visually-hidden|sr-only|ts-colon", re.I)
#: Parts of a heading that are not its headline: kicker and subtitle classes (the label above and
#: the line below the headline), screen-reader text, a forum thread's prefix label, a docs page's
#: permalink; and the tags of a date, byline or subtitle set small, and of scripts and icons.
#: "label" also with a word before it ("topic-label": freiheit.org's "100. Geburtstag" before the
#: headline; trafilatura_eval 754 -> 755 of 845, the other sets unchanged).
_NOT_HEADLINE = re.compile(_KICKER.pattern + r"|subtitle|sub-title|subheadline|subline|toptitle|"
                           r"headerlink|visuallyhidden|element-invisible|screen-reader|"
                           r"(?<![\w-])(?:[a-z]+-)?label(?![\w-])", re.I)
_NOT_HEADLINE_TAGS = frozenset({"small", "time", "script", "style", "noscript", "button", "svg",
                                "sup"})
#: Marks left at a heading's edges when a part is cut ("Kicker: Headline", "Headline ¶").
_EDGE_MARKS = " :-–—|·•¶"
#: Classes of headings only screen readers see (the page's title repeated, the site's name).
_HIDDEN = re.compile(r"screen-reader|sr-only|visually-hidden|visuallyhidden|element-invisible|"
                     r"(?<![\w-])hidden(?![\w-])", re.I)
#: Declared titles that name no article: the page's heading is taken instead.
GENERIC_TITLES = frozenset({"home", "homepage", "startseite", "index", "accueil", "inicio",
                            "untitled", "untitled document"})
#: Title parts of the classic WordPress theme's "Blog » Blog Archive » Post title": what comes
#: before them is the blog's, what follows the post's (trafilatura_eval 751 -> 752 of 845, the
#: other sets unchanged; three of its pages have such titles).
ARCHIVE_LABELS = frozenset({"blog archive", "blog archiv"})
#: Classes of a heading's child that the page hides (a separator only screen readers or nobody
#: see: tagesanzeiger's "ContentHead_hiddendash", energiezukunft's "invisible" ": ").
_INVISIBLE = re.compile(r"(?<![\w-])(?:invisible|hidden)(?![\w-])|hiddendash", re.I)
#: Text that is only a separator (":", "–", "|"...).
_SEPARATOR_ONLY = re.compile(r"^[\s:|\-–—·•/]+$")
#: A title or heading part that is only a date ("23.01.2022 - Headline"): no part of the headline.
_DATE_PART = re.compile(r"^(?:\d{1,2}\.\d{1,2}\.\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{4})$")
#: A declared title ending in a separator with nothing after it ("National Rail Enquiries -"):
#: the template left the headline part empty.
_BLANK_END = re.compile(r"\s[|\-–—:·»]\s*$")
#: Host labels that never name a site.
_HOST_WORDS = frozenset({"www", "www2", "amp", "mobile", "blog", "blogs", "news", "wordpress",
                         "blogspot", "archive", "web", "home", "online", "info", "site"})
#: A Wayback Machine address before the archived page's own ("https://web.archive.org/web/2014.../
#: http://www.time4talks.com/..."): the site is the archived page's host, not archive.org's
#: (trafilatura_eval has 21 such pages; 745 -> 746 of 845, the others unchanged).
_WAYBACK = re.compile(r"^(?:https?://)?web\.archive\.org/web/\d+[a-z_]*/", re.I)
#: Headings shorter than this are section labels, not headlines.
MIN_HEADLINE_CHARS = 4
#: A title part of at most this many words that holds a site name (of at least MIN_SITE_CHARS
#: characters) is the site's name with a word or two around it.
MAX_SITE_WORDS = 4
MIN_SITE_CHARS = 5
#: Words an ``<h1>`` may put before the declared title and still be the headline ("The Best Home
#: Security Cameras of 2026" for og:title "Best Home Security Cameras of 2026", "2025 Software
#: Development Price Guide..."): a longer lead is a kicker. Measured 2026-11-27, pages right of
#: wcxb_dev's 1 497: 0 words (before) 1 206, 1 word 1 209 (3 gained, 1 lost), 2 words the same,
#: 3 words 1 208 (trafilatura_eval one more page); the others unchanged.
MAX_LEAD_WORDS = 1
#: Share of the declared headline's characters an ``<h2>`` inside it must have to be taken for it
#: (a shorter one is a section heading that repeats its first words: "Enchufla" in "Enchufla
#: Figuren", "Marietta Electricians" in "Marietta Electricians Costs & Prices"). Measured
#: 2026-11-27, pages right: 1/2 (before) trafilatura_eval 747, wcxb_dev 1 209; 0.6 and 2/3
#: 748, 1 210; 3/4 and 0.85 749, 1 209 (one wcxb_dev page lost: "Gaming" for "Gaming Monitors").
MIN_H2_SHARE = 2 / 3
#: On a page that does not declare itself an article, its one visible ``<h1>`` replaces a chosen
#: title that shares no word with the URL's path when the h1 holds more than this share of the
#: path's words. 2026-11-27, pages right: trafilatura_eval 748 -> 749, wcxb_dev 1 210 -> 1 214
#: (three of the four on Reddit), no page lost on any set; any share (0): trafilatura_eval +1 -1;
#: half: 748, 1 213 (rheinruhronline's "Essen-Westviertel" is 1/3 of its path). The wider test (the h1 covering a
#: quarter more of the path than the title) gains more (wcxb_dev +14 -4) but loses
#: fields_snippets' title floor (docs/evaluation.md, 2026-11-27, "Titles: site parts").
MIN_PATH_SHARE = 0.25
#: Words a later declared title needs to be taken because the ``<h1>`` holds it
#: (:func:`_title_in_h1`). 2026-11-27, pages right: trafilatura_eval 760 -> 761 of 845 (be.ch),
#: the other sets unchanged, with 1 or 2; at 1 one more page changes to another wrong title
#: (minusl.de's "Joghurt" inside "Unsere MinusL Joghurts" for a product's og:title).
MIN_CONFIRMED_WORDS = 2
#: Share of the declared headline's words the best of several ``<h1>``s must hold to be taken
#: for an article's one (:func:`_matching_h1`). Measured 2026-11-27, pages right (every page
#: with a gold title): 0.5 wcxb_dev 1 217 -> 1 219, trafilatura_eval 761 -> 762, no page lost
#: on any set; a third: the same gains and one wcxb_dev page lost (a landing page's "Intelligent
#: analytics services"); three quarters: no page changes.
MIN_SHARED_WORDS = 0.5
#: URL path words that say nothing of the page.
_PATH_NOISE = frozenset({"html", "htm", "php", "aspx", "www", "index"})
#: Headings looked at: the first few ``<h1>`` (pages with a logo ``<h1>`` have 2-3).
MAX_HEADINGS = 5


def choose_title(page: Page, meta: Metadata) -> tuple[str | None, str | None]:
    """(headline, source) where source is ``jsonld``, ``opengraph``, ``meta``, ``microdata`` or
    ``text`` (a heading)."""
    declared = declared_titles(meta)
    url = page.url or _declared_url(meta)
    host_names = domain_names(url)
    sites = site_names(meta) | host_names
    headings = _headings(page, sites)
    stripped = _headline_of(declared, sites)
    stripped = _first_part_in_h1(declared, stripped, headings, sites)
    heading = _pick_heading(headings, stripped, [title for title, _ in declared], host_names)
    article = is_article_like(meta)
    lone = _lone_h1(page, sites, stripped if article else "") if article or url else None
    # The <h1> wins over a heading the declared titles chose, when that is an <h1> or an <h2> the
    # <h1> holds (a section heading repeating the headline's first words, "Zitronenkuchen vom
    # Blech" under "Saftiger Zitronenkuchen vom Blech: einfach köstlich!"; 2026-11-27:
    # trafilatura_eval 750 -> 751, wcxb_dev 1 214 -> 1 215; the fourth round's "any <h2>" lost 4
    # trafilatura_eval pages).
    if article and lone and lone != heading and \
            (heading is None or heading in _h1_texts(headings) or _fold(heading) in _fold(lone)) \
            and _not_a_frame_of(lone, stripped):
        return _without_site_end(lone, sites), "text"
    title, source = _rule_pick(heading, headings, declared, stripped, host_names, sites)
    if not article and title and lone and lone != title and (
            _url_names_only(lone, title, url) or _newer_year(lone, title)):
        return _without_site_end(lone, sites), "text"  # the title is no name of this page
    return title, source


def _declared_url(meta: Metadata) -> str | None:
    """The address a page read without its own gives itself (``link rel=canonical``, else
    ``og:url``; absolute http(s) only), so that its host still names the site: a saved page, as
    every readability_testpages page is (2026-11-27: 91 -> 92 of its 127 pages, blogspot's
    "Silicon Exposed" logo ``<h1>`` no longer taken for the headline; the other sets give every
    page its address and are unchanged)."""
    for href in (*meta.links.get("canonical", ()), *meta.meta.get("og:url", ())):
        url, _ = absolute_http(href, None)
        if url:
            return url
    return None


def _rule_pick(heading: str | None, headings: list[tuple[str, str]],
               declared: list[tuple[str, str]], stripped: str, host_names: set[str],
               sites: set[str]) -> tuple[str | None, str | None]:
    """(title, source) by the heading and declared-title rules of :func:`choose_title`."""
    if heading:
        return _without_site_end(heading, sites), "text"
    if declared and headings and (_key(stripped) in host_names or _key(stripped) in GENERIC_TITLES
                                  or _blank_headline(declared[0][0], stripped, host_names)):
        return headings[0][1], "text"  # "Home", or the site's name alone: the page's heading says more
    confirmed = _title_in_h1(declared, stripped, headings, sites)
    if confirmed:
        return confirmed
    if declared:
        return stripped, declared[0][1]
    return (headings[0][1], "text") if headings else (None, None)


def words(text: str) -> list[str]:
    """Lower-cased words of ``text``, accents dropped, to compare a title with the URL's path.

    >>> words("Wärmepumpe im Altbau?")
    ['warmepumpe', 'im', 'altbau']
    """
    folded = unicodedata.normalize("NFKD", text.casefold())
    return re.findall(r"[^\W_]+", "".join(c for c in folded if not unicodedata.combining(c)))


def _url_names_only(h1: str, title: str, url: str) -> bool:
    """Whether the URL's path (of at least two words besides :data:`_PATH_NOISE`) shares no word
    with ``title`` and more than :data:`MIN_PATH_SHARE` of its words with the ``<h1>``: a title
    that names nothing of the page's address is the site's tagline ("Reddit - The heart of the
    internet" on /r/cooking/comments/.../enameled_cast_iron_pan_and_metal/) or another page's
    ("Ausflugtipps Niederrhein und Ruhrgebiet" on .../essenwestviertel.htm)."""
    path = set(words(unquote(urlsplit(_WAYBACK.sub("", url)).path))) - _PATH_NOISE
    if len(path) < 2 or set(words(title)) & path:
        return False
    return len(set(words(h1)) & path) > len(path) * MIN_PATH_SHARE


#: A year in a title or heading ("... to Watch in 2025"), for :func:`_newer_year`.
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def _newer_year(h1: str, title: str) -> bool:
    """Whether the ``<h1>`` is ``title`` with a later year in it ("7 Mental Health Trends to
    Watch in 2025" for og:title "... in 2024", "Guide to filing your taxes in 2025"): the page
    updated its visible headline and left the declared title behind. A page that does not
    declare itself an article keeps its declared title otherwise; an article takes its one
    ``<h1>`` anyway. 2026-11-27, every page with a gold title: wcxb_dev 1 215 -> 1 217 (two
    sites), no page of any set lost; no other page has such an ``<h1>``."""
    old, new = _YEAR.findall(title), _YEAR.findall(h1)
    return bool(old) and len(old) == len(new) and new > old and \
        words(_YEAR.sub(" ", h1)) == words(_YEAR.sub(" ", title))


def _headline_of(declared: list[tuple[str, str]], sites: set[str]) -> str:
    """The first declared title less its site part (:func:`strip_site_name`); whole when another
    declared title is it followed by a separator and more ("Korsetts - Shops, Designer" as
    og:title, "Korsetts - Shops, Designer | Pinup Fashion" as ``<title>``): the page has already
    cut its site part there, and what a separator parts inside it is the headline's own
    (2026-11-27: trafilatura_eval 746 -> 747, readability_testpages 90 -> 91, wcxb_dev 1 206
    either way: one page gained, one lost where the gold is the <h1> "Shelving furniture").
    Likewise where another declared title is a site part and then it (:data:`_SITE_BEFORE`:
    "Weinlachgummi´s Naschtüte: [Rezi] Love is War - Sehnsucht von R. K. Lilley";
    trafilatura_eval 757 -> 758 of 845, the other sets unchanged)."""
    if not declared:
        return ""
    first = declared[0][0]
    for other, _ in declared[1:]:
        if len(other) > len(first) and other.startswith(first) and \
                _TITLE_SPLIT.match(other, len(first)) and _one_headline(first):
            return first
        if len(other) > len(first) and other.endswith(first) and \
                _SITE_BEFORE.search(other, 0, len(other) - len(first)) and _one_headline(first):
            return first
    return strip_site_name(first, sites)


#: A site part before a headline: a separator, or a colon after the blog's name ("Weinlachgummi´s
#: Naschtüte: [Rezi] Love is War - ..."), at the end of the text before the headline.
_SITE_BEFORE = re.compile(r"(?:" + _TITLE_SPLIT.pattern + r"|:\s+)$")


def _first_part_in_h1(declared: list[tuple[str, str]], stripped: str,
                      headings: list[tuple[str, str]], sites: set[str]) -> str:
    """``stripped``, or the first part of the first declared title where the page's ``<h1>`` is
    that part and :func:`strip_site_name` took a longer later one for the headline (its guess at
    "Site | Headline"): the ``<h1>`` says the first part is the headline and the later one its
    subtitle ("Vom Boden aus gedacht - Ann Cotten verwebt in ... : literaturkritik.de"). Not where
    the part names the site or the title is a blog's "Blog » Blog Archive » Post" (the ``<h1>``
    is the blog's name there). trafilatura_eval 755 -> 756 of 845, the other sets unchanged."""
    if not declared:
        return stripped
    parts = _parts(declared[0][0])
    if len(parts) < 2 or stripped == parts[0] or _names_site(parts[0], sites) or \
            any(_key(p) in ARCHIVE_LABELS for p in parts):
        return stripped
    first = _fold(parts[0])
    return parts[0] if any(_fold(t) == first for t in _h1_texts(headings)) else stripped


def _blank_headline(title: str, stripped: str, hosts: set[str]) -> bool:
    """Whether ``title`` ends in a bare separator and what is left spells the host ("National
    Rail Enquiries -" on nationalrail.co.uk): the site's name, its headline part left empty by
    the template. trafilatura_eval 758 -> 759 of 845, the other sets unchanged (the site's name
    spelled loosely without the empty part, :func:`_spells_host` on any title of at most
    :data:`MAX_SITE_WORDS` words, gained 3 and 2 pages but lost 1 trafilatura_eval and 9
    wcxb_dev home pages, whose gold is the site's name)."""
    return bool(_BLANK_END.search(title)) and _spells_host(stripped, hosts)


def _title_in_h1(declared: list[tuple[str, str]], stripped: str,
                 headings: list[tuple[str, str]], sites: set[str]) -> tuple[str, str] | None:
    """(title, source) of a later declared title, less its site part, that the page's ``<h1>``
    holds where the first one (``stripped``) is in no ``<h1>``: an og:title naming the section
    ("Medienmitteilungen") beside a ``<title>`` that the visible headline repeats after its
    kicker. The title must have :data:`MIN_CONFIRMED_WORDS` words. None when there is none."""
    h1s = [_fold(t) for t in _h1_texts(headings)]
    if not h1s or any(_fold(stripped) in h for h in h1s):
        return None
    for other, source in declared[1:]:
        cut = strip_site_name(other, sites)
        if len(cut.split()) >= MIN_CONFIRMED_WORDS and any(_fold(cut) in h for h in h1s):
            return cut, source
    return None


def _one_headline(title: str) -> bool:
    """Whether ``title``'s separators are all dashes (a headline's own: "Kicker – Headline",
    "Headline – subtitle"); a "|" parts a product from its category or a page from its site
    ("Black Edition | Meal Replacement Protein Powder", "Best High School Tutors | Bold.org")."""
    return all(sep.strip() in _DASHES for sep in _TITLE_SPLIT.findall(title))


#: Separators that part a headline's own pieces rather than a site or section.
_DASHES = frozenset({"-", "–", "—"})


def declared_titles(meta: Metadata) -> list[tuple[str, str]]:
    """[(title, source)] in order of trust."""
    return [(title, _SOURCE_OF_KIND[kind]) for title, kind in _declared(meta)]


#: The field source (``extraction.sources``) of each kind of declared title.
_SOURCE_OF_KIND = {"jsonld": "jsonld", "microdata": "microdata", "opengraph": "opengraph",
                   "twitter": "meta", "meta_title": "meta", "title_tag": "meta"}


#: Meta titles other than og:title and twitter:title: Dublin Core's (``DC.title`` as a name,
#: ``dc:title`` as an RDFa property) and Parse.ly's, read after those two and before
#: ``<title>`` (where Readability.js reads them too, it reads Dublin Core's first). Measured
#: 2026-11-27, every page with a gold title: readability_testpages 92 -> 95 of 127 (ietf.org's
#: "remoteStorage" for "draft-dejong-remotestorage-04 - remoteStorage", a page with only
#: ``parsely-title``, one whose ``dc:title`` is the headline beside a placeholder ``<title>``),
#: trafilatura_eval (39 pages with a Dublin Core title), wcxb_dev (12) and gne unchanged; read
#: first, before og:title, readability_testpages gains 2 more (test pages that give every kind
#: a different title) and wcxb_dev loses a page ("Latest News" for "Startup and Technology News").
OTHER_TITLE_KEYS = ("dc:title", "dc.title", "dcterms.title", "dcterm:title", "parsely-title")


def _declared(meta: Metadata) -> list[tuple[str, str]]:
    """[(title, kind)] in order of trust, kind a key of :data:`_SOURCE_OF_KIND`."""
    found: list[tuple[str, str]] = []
    for obj in meta.ld_articles:
        for key in ("headline", "name"):
            if isinstance(obj.get(key), str):
                found.append((obj[key], "jsonld"))
                break
    for value in meta.ld_salvaged.get("headline", ()):
        found.append((value, "jsonld"))
    for value in meta.microdata.get("headline", ()):
        found.append((value, "microdata"))
    for key, kind in (("og:title", "opengraph"), ("twitter:title", "twitter"),
                      *((key, "meta_title") for key in OTHER_TITLE_KEYS)):
        found += [(v, kind) for v in meta.meta.get(key, ())]
    if meta.title_tag:
        found.append((meta.title_tag, "title_tag"))
    return [(t, k) for t, k in ((_clean(html.unescape(t)), k) for t, k in found) if t]


def site_names(meta: Metadata) -> set[str]:
    """Normalised names the site calls itself (og:site_name, application-name, the publisher)."""
    names = [*meta.meta.get("og:site_name", ()), *meta.meta.get("application-name", ()),
             *meta.meta.get("twitter:site", ())]
    for obj in (*meta.ld_articles, *meta.ld_pages, *meta.ld_other):
        publisher = obj.get("publisher")
        if isinstance(publisher, dict) and isinstance(publisher.get("name"), str):
            names.append(publisher["name"])
        if "website" in str(obj.get("@type", "")).lower() and isinstance(obj.get("name"), str):
            names.append(obj["name"])
    # A "site name" of many words is a headline a template put in the wrong tag.
    return {k for k in (_key(n.lstrip("@")) for n in names) if k and len(k.split()) <= 6}


def strip_site_name(title: str, sites: set[str]) -> str:
    """``title`` without the site's name and section parts.

    >>> strip_site_name("Rain falls - Weather | Daily", {"daily"})
    'Rain falls'
    >>> strip_site_name("Daily: Rain falls all day", {"daily"})
    'Rain falls all day'
    >>> strip_site_name("tokio::runtime - Rust", {"rust"})
    'tokio::runtime'
    """
    head, sep, rest = title.partition(":")
    if sep and rest.strip() and _key(head) in sites:
        title = rest.strip()
    parts = _parts(title)
    labels = [i for i, p in enumerate(parts) if _key(p) in ARCHIVE_LABELS]
    if labels and labels[-1] + 1 < len(parts):
        parts = parts[labels[-1] + 1:]  # "Blog » Blog Archive » Post title"
        if len(parts) == 1:
            return parts[0]
    if len(parts) < 2:
        return title
    kept = [p for p in parts if not _names_site(p, sites)]
    if kept and len(kept) < len(parts):
        parts = kept
        if len(parts) == 1:
            return parts[0]
    longest = max(parts, key=len)
    first = parts[0]
    # "Headline - Section | Site": the first part, unless a later one is much longer (then the
    # page put the site first: "Site | Headline").
    return first if len(first) * 2 >= len(longest) else longest


def domain_names(url: str | None) -> set[str]:
    """Keys of the names a site's host spells: ``seelenradio`` for ``www.seelenradio.de``,
    ``bayrische bembel`` for ``bayrische-bembel.de`` (as :func:`_key` normalises text), so a
    title part "Seelenradio" or a logo heading is known as the site's name though no metadata
    names the site.

    >>> sorted(domain_names("https://www.bayrische-bembel.de/news/504"))
    ['bayrische bembel']
    """
    if not url:
        return set()
    url = _WAYBACK.sub("", url, count=1)
    if "://" not in url:
        url = "http://" + url
    host = urlsplit(url).hostname or ""
    labels = host.split(".")[:-1]  # the top-level domain never names a site
    return {_key(label.replace("-", " ")) for label in labels
            if len(label) >= MIN_HEADLINE_CHARS and label not in _HOST_WORDS}


def is_article_like(meta: Metadata) -> bool:
    """Whether the page declares itself an article (a JSON-LD ``Article`` type, ``og:type``
    ``article``)."""
    return bool(meta.ld_articles) or any(
        v.strip().lower() == "article" for v in meta.meta.get("og:type", ()))


def _lone_h1(page: Page, sites: set[str], stripped: str = "") -> str | None:
    """The text of the page's one visible ``<h1>`` (not the site's name), when it is not a link
    and holds none (a logo or a teaser's heading is one); None when there are none or several.
    Given the declared headline (``stripped``), a page with several such ``<h1>``s has the one
    of its first :data:`MAX_HEADINGS` that shares the most of its words (:func:`_matching_h1`)."""
    found: list[tuple[str, bool]] = []
    for el in _heading_elements(page, "h1"):
        if _HIDDEN.search(el.get("class") or ""):
            continue
        text = _heading_text(el)
        if _too_short_or_site(text, sites):
            continue
        link = _is_link(el)
        if any(text == seen for seen, _ in found):  # the same headline twice (a copy for small
            continue  # screens) is still one (parallels.com; trafilatura_eval 749 -> 750)
        found.append((text, link))
        if not stripped and (link or len(found) > 1):
            return None
        if len(found) == MAX_HEADINGS:
            break
    if len(found) < 2:
        return found[0][0] if found and not found[0][1] else None
    return _matching_h1(found, stripped)


def _matching_h1(found: list[tuple[str, bool]], stripped: str) -> str | None:
    """Among several visible ``<h1>``s (text, is or holds a link), the one that is no link and
    shares the most words with the declared headline, at least :data:`MIN_SHARED_WORDS` of
    them and more than any other ``<h1>``: the article's headline beside a newsletter box's or
    teasers' ``<h1>``s ("21+ Best Movers / Moving Companies in San Francisco (2024)" and
    "Subscribe to SFist - ..." for og:title "Hire Movers from SF's 21+ Best Moving Companies
    (2024)")."""
    core = set(words(stripped))
    if not core:
        return None
    shared = sorted(((len(core & set(words(text))), i) for i, (text, _) in enumerate(found)),
                    reverse=True)
    (best, i), runner_up = shared[0], shared[1][0]
    if found[i][1] or best == runner_up or best < len(core) * MIN_SHARED_WORDS:
        return None
    return found[i][0]


def _is_link(el) -> bool:
    """Whether a heading is or holds a link (a logo's or a teaser's)."""
    return next(el.iterancestors("a"), None) is not None or next(el.iter("a"), None) is not None


def _too_short_or_site(text: str, sites: set[str]) -> bool:
    """Whether a heading's text is too short for a headline or is the site's name (or a proper
    part of it: :func:`_within_site_name`)."""
    return len(text) < MIN_HEADLINE_CHARS or _key(text) in sites or _within_site_name(text, sites)


def _within_site_name(text: str, sites: set[str]) -> bool:
    """Whether the heading's words, two or more, are all words of one of the site's names: the
    blog's name shortened in its logo ``<h1>`` ("Minecraft News" for og:site_name "Minecraft
    Update News" on tumblr, which the article rule took for the headline) or a sidebar's
    ``<h2>`` ("Security Blog" on Google's Online Security Blog). 2026-11-27, every page with a
    gold title: readability_testpages 95 -> 96 of 127; headings dropped on three more pages
    (wcxb_dev "Meal Prep", "Class Central"; trafilatura_eval "Security Blog"), whose titles,
    and every other page's, are unchanged. A proper part only: with the heading's words equal
    to the name's, wcxb_dev loses a home page whose gold is its ``<h1>`` "Wendi Weiner - The
    Writing Guru" (og:site_name "Wendi Weiner - The Writing Guru®")."""
    names = _long_site_names(frozenset(sites))
    if not names:  # most pages: no site name of three words or more
        return False
    found = set(words(text))
    return len(found) >= 2 and any(found < name for name in names)


@functools.lru_cache(maxsize=64)
def _long_site_names(sites: frozenset[str]) -> tuple[frozenset[str], ...]:
    """The word sets of the site's names of three words or more (a proper part of two words or
    more needs three), read once per page rather than once per heading."""
    return tuple(frozenset(found) for found in map(words, sites) if len(found) >= 3)


def _h1_texts(headings: list[tuple[str, str]]) -> list[str]:
    return [text for tag, text in headings if tag == "h1"]


def _not_a_frame_of(h1: str, stripped: str) -> bool:
    """Whether the ``<h1>`` is a headline of its own rather than the declared one framed by a
    kicker or a trailing date, site name or subtitle the markup does not mark
    ("Forderungsausfälle vermeiden Eigentumsvorbehalt: ..."): it does not hold the declared
    title, or it starts with it and goes on (the visible headline's longer form), or it puts at
    most :data:`MAX_LEAD_WORDS` words and no separator before it ("The Best ...", "2025 ..."),
    or goes on past it."""
    h1_key, core = _fold(h1).casefold(), _fold(stripped).casefold()
    if not core or core not in h1_key:
        return True
    prefix = h1_key[:h1_key.index(core)]
    if h1_key[h1_key.index(core) + len(core):].strip():
        # the <h1> goes on past it: a sentence of its own ("Eignet sich eine Wärmepumpe im
        # Altbau?" for "Wärmepumpe im Altbau"), not a frame; trafilatura_eval 755 -> 756
        return True
    return len(prefix.split()) <= MAX_LEAD_WORDS and not _TITLE_SPLIT.search(prefix) and \
        ":" not in prefix


def _pick_heading(headings: list[tuple[str, str]], stripped: str, declared: list[str],
                  hosts: set[str] = frozenset()) -> str | None:
    """The heading that is the headline, judged by the titles the page declares.

    In order: the first ``<h1>`` that is most of ``stripped`` (the declared title without its
    site part); the longest ``<h2>`` that is, with :data:`MIN_H2_SHARE` of its characters (a
    blog's post title under a logo ``<h1>`` the metadata does not name); the first ``<h1>`` any
    declared title holds, unless it is a part of that title beside ``stripped`` that spells the
    host (``hosts``; a blog's name: "Krimiblog-Archiv" in "Krimiblog-Archiv » Post title") or
    is its shorter trailing part; an ``<h2>`` that is most of a
    declared title. "Most" is at least half the characters, so a section label
    ("Quests") inside the title is not the headline. Case matters ("Data science" is a label in
    "Free Data Science..."); quotes and dashes are folded ("„finished“" is '"finished"').
    """
    core = _fold(stripped)
    titles = [_fold(t) for t in declared]

    def most_of(text: str, whole: str) -> bool:
        return text in whole and len(text) * 2 >= len(whole)

    h1 = [text for tag, text in headings if tag == "h1"]
    h2 = [text for tag, text in headings if tag == "h2"]
    for text in h1:
        if most_of(_fold(text), core):
            return text
    in_core = [text for text in h2
               if most_of(_fold(text), core) and len(text) >= len(core) * MIN_H2_SHARE]
    if in_core:
        return max(in_core, key=len)
    for text in h1:
        # an <h1> that is a part of a declared title beside the headline part is the site's name
        # ("Silicon Exposed" in "Silicon Exposed: Open Verilog flow..." where og:title is the
        # headline alone); so is an <h1> that is the title's trailing part and shorter than the
        # headline part, where the host does not spell it ("Rinderleber-Geschnetzeltes... | Liebe
        # geht durch den Magen"; a longer trailing part is the headline after a section label:
        # "Documentation - Creating Types from Types"). 2026-11-27: trafilatura_eval 743 -> 744,
        # wcxb_dev 1 204 -> 1 205; with no length test wcxb_dev gains 2 more but one of them is
        # the section label taken over the <h1> headline.
        folded = _fold(text)
        if any(folded in title and not (core and core in title and folded not in core
                                        and core not in folded
                                        and (_spells_host(text, hosts)
                                             or (_ends_with_part(title, folded)
                                                 and len(folded) < len(core))))
               for title in titles):
            return text
    for text in h2:
        if any(most_of(_fold(text), title) for title in titles):
            return text
    return None


def _parts(title: str) -> list[str]:
    """``title``'s parts between :data:`_TITLE_SPLIT` separators, stripped, empty ones dropped."""
    return [p.strip() for p in _TITLE_SPLIT.split(title) if p and p.strip()]


def _ends_with_part(title: str, part: str) -> bool:
    """Whether ``part`` is the last of ``title``'s separated parts ("Headline | Blog name")."""
    parts = _parts(title)
    return len(parts) > 1 and parts[-1] == part.strip()


def _spells_host(text: str, hosts: set[str]) -> bool:
    """Whether ``text`` spells one of the host's names (:func:`domain_names`), spaces and dots
    aside: "Time 4 talks" on time4talks.com, "Krimiblog-Archiv" on archiv.krimiblog.de.

    >>> _spells_host("Time 4 talks", {"time4talks"}), _spells_host("Webcams", {"nps"})
    (True, False)
    """
    key = re.sub(r"[\W_]+", "", _key(text))
    return any(len(host) >= MIN_SITE_CHARS and (host in key or key in host)
               for host in (re.sub(r"[\W_]+", "", h) for h in hosts)) if key else False


def _headings(page: Page, sites: set[str]) -> list[tuple[str, str]]:
    """(tag, text) of the first visible ``<h1>``s, then of the first ``<h2>``s (a blog's post
    title is often an ``<h2>`` under a logo ``<h1>``), without those that are the site's name."""
    return [(tag, text) for tag, text, _ in _heading_rows(page, sites)]


def _heading_rows(page: Page, sites: set[str], links: bool = False) -> list[tuple[str, str, bool]]:
    """(tag, text, is or holds a link) of :func:`_headings`' headings; the link is looked for
    only with ``links`` (the rule does not need it; ``evaluation.title_ranker`` does). The walk
    stops at the :data:`MAX_HEADINGS`-th kept heading of each tag, so a page of a hundred
    ``<h2>`` teasers does not have the text of each read."""
    rows: list[tuple[str, str, bool]] = []
    for tag in ("h1", "h2"):
        kept = 0
        for el in _heading_elements(page, tag):
            if _HIDDEN.search(el.get("class") or ""):
                continue
            text = _heading_text(el)
            if _too_short_or_site(text, sites):
                continue
            link = links and _is_link(el)
            rows.append((tag, text, link))
            kept += 1
            if kept >= MAX_HEADINGS:
                break
    return rows


def _heading_elements(page: Page, tag: str) -> list:
    """``page.body.iter(tag)`` for a heading ``tag``, read from the node table's heading rows
    (:func:`extractors.page.heading_rows`) instead of a walk of the tree: the title step asked
    for the ``<h1>``s twice and the ``<h2>``s once, each a walk of every element
    (``_heading_rows`` 0.12 -> 0.06 ms a page on big9's first 80, 0.38 -> 0.13 on cx_163's
    pages of ~3 000 elements: median, CPU, in the chain)."""
    nodes = page.nodes
    tags, elements = nodes.tag, nodes.elements
    return [elements[row] for row in heading_rows(page) if tags[row] == tag]


_FOLD = str.maketrans({"’": "'", "‘": "'", "‚": "'", "“": '"', "”": '"', "„": '"', "«": '"',
                       "»": '"', "–": "-", "—": "-", "\u00a0": " "})


def _fold(text: str) -> str:
    """Text with typographic quotes and dashes as ASCII, for comparing titles and headings."""
    return unicodedata.normalize("NFKC", text).translate(_FOLD)


def _heading_text(el) -> str:
    """A heading's headline: the text of its ``itemprop=headline`` part when it has one, else its
    text without the parts that are not the headline (kicker, subtitle, a date or byline in a
    ``<small>`` or ``<time>``, screen-reader text, a thread's prefix label, a "¶" permalink:
    :func:`_kept_text`), with a ``<br>`` read as a space. When what is left is too short to be a
    headline, the whole text."""
    for sub in el.iterdescendants():
        if isinstance(sub.tag, str) and sub.get("itemprop") == "headline":
            el = sub
            break
    start = _after_hidden_separator(el)
    parts: list[str] = [el[start - 1].tail or ""] if start else [el.text or ""]
    _kept_text(el, parts, start)
    rest = _clean("".join(parts)).strip(_EDGE_MARKS)
    return rest if len(rest) >= MIN_HEADLINE_CHARS else _clean(el.text_content())


def _after_hidden_separator(el) -> int:
    """The index of the child after the last child of ``el`` that is a separator the page hides
    (``aria-hidden`` or an :data:`_INVISIBLE` class: "Kicker<span aria-hidden> – </span>
    Headline"), 0 when there is none: what comes before such a separator is a kicker. Seen on
    tagesanzeiger.ch and energiezukunft.eu (trafilatura_eval 752 -> 754 of 845, the other sets
    unchanged)."""
    start = 0
    for i, child in enumerate(el):
        if isinstance(child.tag, str) and i + 1 < len(el) and (
                child.get("aria-hidden") == "true" or _INVISIBLE.search(child.get("class") or "")) \
                and _SEPARATOR_ONLY.match(child.text_content()):
            start = i + 1
    return start


def _kept_text(el, parts: list[str], start: int = 0) -> None:
    """Append to ``parts`` the text inside ``el`` (from its ``start``-th child on) less its
    :data:`_NOT_HEADLINE_TAGS` and :data:`_NOT_HEADLINE` children (their tails kept); ``lxml``'s
    ``text_content`` cannot skip a child, and it joins "Title<br>Subtitle" into "TitleSubtitle"."""
    for child in el[start:]:
        if not isinstance(child.tag, str):  # a comment or processing instruction
            pass
        elif child.tag == "br":
            parts.append(" ")
        elif child.tag not in _NOT_HEADLINE_TAGS and not _NOT_HEADLINE.search(
                child.get("class") or "") and child.text != "¶":
            parts.append(child.text or "")
            _kept_text(child, parts)
        parts.append(child.tail or "")


def _without_site_end(text: str, sites: set[str]) -> str:
    """A heading less a site's name after its last separator ("Vehicle rental News | WRAL"), as
    the declared titles lose theirs (:func:`strip_site_name`). Only the end: a heading that starts
    with a name the host spells names a product or the subject ("Welpen kaufen – Tipps..." on
    welpenkaufen24.de, "Nintendo Switch – OLED Model"; wcxb_dev and trafilatura_eval lose a
    page each when the start is cut too). 2026-11-27: wcxb_dev 1 205 -> 1 207, the others
    unchanged. A leading date part goes too ("23.01.2022 - Dorothea Wierer darf..."; 2026-11-27,
    trafilatura_eval 758 -> 759 of 845, the others unchanged; a version number is no date:
    "2024.4.4 -> 2024.5.0 issue" on wcxb_dev).

    >>> _without_site_end("23.01.2022 - Wierer darf jubeln - Biathlon", {"biathlon"})
    'Wierer darf jubeln'
    >>> _without_site_end("2024.4.4 -> 2024.5.0 issue: stuck", set())
    '2024.4.4 -> 2024.5.0 issue: stuck'
    """
    seps = list(_TITLE_SPLIT.finditer(text))
    if seps and _DATE_PART.match(text[:seps[0].start()].strip()) and \
            len(text[seps[0].end():].strip()) >= MIN_HEADLINE_CHARS:
        text = text[seps[0].end():].strip()  # "23.01.2022 - Headline"
        seps = list(_TITLE_SPLIT.finditer(text))
    if seps and _names_site(text[seps[-1].end():], sites):
        head = text[:seps[-1].start()].strip()
        if len(head) >= MIN_HEADLINE_CHARS:
            return head
    return text


def _names_site(part: str, sites: set[str]) -> bool:
    """Whether a title part is the site's name: one of ``sites``, or a short part holding one
    ("EFC Bayrische Bembel Regensburg" on bayrische-bembel.de)."""
    key = _key(part)
    if key in sites:
        return True
    return len(key.split()) <= MAX_SITE_WORDS and any(
        len(site) >= MIN_SITE_CHARS and site in key for site in sites)


def _clean(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _key(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip(
        " \t\"'“”‘’«»「」『』《》()[]:;,.!?|-–—·")

