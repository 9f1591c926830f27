"""JSON-LD of a page, read safely: bounded size and nesting, broken JSON repaired where it can.

The scripts come from :attr:`extractors.page.Page.ld_json` (kept at parse time, so no second
parse). Each is refused when over ``MAX_SCRIPT_CHARS`` or nested deeper than ``MAX_DEPTH`` (the depth
is counted on the brackets before ``json.loads`` runs, so a 10 000-deep document never reaches the
decoder's recursion); invalid JSON is retried after the usual publisher slips (HTML comments or
CDATA around it, trailing commas, raw control characters, several objects one after the other), and
as a last resort the few keys we need are read with a pattern from the raw text (``salvaged``).

Why by hand and not ``extruct``: extruct's JSON-LD extractor wants the script elements, which our
cleaned tree no longer has, and re-parsing the page for it breaks the one-parse rule; what it adds
(a ``json.loads`` per script plus a lenient fallback) is what this module does, with the bounds
extruct does not have (measured: see docs/evaluation.md, "Fields").
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["ARTICLE_TYPES", "LdResult", "article_objects", "page_jsonld", "read_jsonld"]

#: Longest script read: real NewsArticle JSON-LD is 1-20 kB (largest seen in the dev sets ~200 kB,
#: recipe pages with every step); anything longer is refused, not parsed.
MAX_SCRIPT_CHARS = 500_000
#: Deepest nesting read: real JSON-LD nests 2-8 levels (@graph > Article > author > address);
#: 64 leaves room and stays far below the decoder's recursion limit.
MAX_DEPTH = 64
#: Objects visited per page when flattening @graph / nested values (bounds a wide document).
MAX_OBJECTS = 2_000
#: Schema.org types whose object describes the page's article.
ARTICLE_TYPES = frozenset({
    "article", "newsarticle", "reportagenewsarticle", "analysisnewsarticle", "opinionnewsarticle",
    "backgroundnewsarticle", "reviewnewsarticle", "askpublicnewsarticle", "blogposting",
    "socialmediaposting", "liveblogposting", "scholarlyarticle", "techarticle", "report",
    "posting", "discussionforumposting", "medicalscholarlyarticle", "satiricalarticle",
})
#: Types that describe the page itself: their dates and names are a fallback for an article's.
PAGE_TYPES = frozenset({"webpage", "itempage", "collectionpage", "aboutpage", "profilepage",
                        "medicalwebpage", "qapage", "faqpage", "recipe", "videoobject", "event"})

_BRACKETS = re.compile(r"[\[\]{}]")
_TRAILING_COMMA = re.compile(r",\s*([\]}])")
_WRAPPERS = re.compile(r"^\s*(?:<!--|<!\[CDATA\[|//\s*<!\[CDATA\[)|(?:-->|\]\]>|//\s*\]\]>)\s*$")
_SALVAGE = re.compile(
    r'"(?P<key>datePublished|dateCreated|dateModified|headline|inLanguage)"\s*:\s*"(?P<value>'
    r'[^"\\]{1,300})"')
_SALVAGE_AUTHOR = re.compile(
    r'"author"\s*:\s*(?:\[\s*)?\{[^{}]{0,300}?"name"\s*:\s*"([^"\\]{1,120})"')


@dataclass(slots=True)
class LdResult:
    """The objects read from a page's JSON-LD, and why any script was skipped."""

    objects: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    salvaged: dict[str, list[str]] = field(default_factory=dict)


def page_jsonld(page) -> LdResult:
    """:func:`read_jsonld` of ``page.ld_json``, parsed once per page (kept in ``page.memo``; the
    metadata and page-type steps both read it; callers do not change the result)."""
    found = page.memo.get("jsonld")
    if found is None:
        found = page.memo["jsonld"] = read_jsonld(page.ld_json)
    return found


def read_jsonld(scripts: tuple[str, ...] | list[str]) -> LdResult:
    """Every JSON object of ``scripts`` (``@graph`` members and array items flattened), bounded.

    >>> r = read_jsonld(['{"@graph": [{"@type": "NewsArticle", "headline": "Rain",}]}', "[[[["])
    >>> [o.get("headline") for o in r.objects], r.problems
    (['Rain'], ['invalid JSON'])
    >>> read_jsonld(["[" * 10_000]).problems
    ['nested deeper than 64']
    """
    result = LdResult()
    for text in scripts:
        data, problem = _load(text)
        if problem is not None:
            result.problems.append(problem)
            if problem == "invalid JSON":
                _salvage(text, result.salvaged)
            continue
        for obj in _objects(data):
            result.objects.append(obj)
            if len(result.objects) >= MAX_OBJECTS:
                result.problems.append(f"more than {MAX_OBJECTS} objects")
                return result
    return result


def article_objects(objects: list[dict]) -> tuple[list[dict], list[dict]]:
    """(article objects, page objects) among ``objects``, each in document order."""
    articles, pages = [], []
    for obj in objects:
        types = type_names(obj)
        if types & ARTICLE_TYPES:
            articles.append(obj)
        elif types & PAGE_TYPES:
            pages.append(obj)
    return articles, pages


def type_names(obj: dict) -> set[str]:
    """The object's ``@type`` names, lower-cased, without a schema.org prefix.

    >>> sorted(type_names({"@type": ["https://schema.org/NewsArticle", "Thing"]}))
    ['newsarticle', 'thing']
    """
    value = obj.get("@type")
    values = value if isinstance(value, list) else [value]
    return {v.rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower() for v in values if isinstance(v, str)}


def _load(text: str) -> tuple[object, str | None]:
    if len(text) > MAX_SCRIPT_CHARS:
        return None, f"script over {MAX_SCRIPT_CHARS} characters"
    if _depth(text) > MAX_DEPTH:
        return None, f"nested deeper than {MAX_DEPTH}"
    text = _WRAPPERS.sub("", text.strip())
    for candidate in (text, _TRAILING_COMMA.sub(r"\1", text)):
        try:
            return json.loads(candidate, strict=False), None
        except ValueError:
            pass
    several = _several(text)
    if several is not None:
        return several, None
    return None, "invalid JSON"


def _depth(text: str) -> int:
    """Bracket depth, strings ignored (brackets in strings only overcount: the safe side)."""
    if text.count("{") + text.count("[") <= MAX_DEPTH:
        return 0
    depth = deepest = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _several(text: str) -> list | None:
    """Objects written one after the other without an enclosing array."""
    decoder, found, at = json.JSONDecoder(strict=False), [], 0
    while at < len(text):
        while at < len(text) and text[at] in " \t\r\n,;":
            at += 1
        if at >= len(text):
            break
        try:
            obj, at = decoder.raw_decode(text, at)
        except ValueError:
            return None
        found.append(obj)
    return found if len(found) > 1 else None


def _salvage(text: str, into: dict[str, list[str]]) -> None:
    for match in _SALVAGE.finditer(text[:MAX_SCRIPT_CHARS]):
        into.setdefault(match.group("key"), []).append(match.group("value"))
    for match in _SALVAGE_AUTHOR.finditer(text[:MAX_SCRIPT_CHARS]):
        into.setdefault("author", []).append(match.group(1))


def _objects(data: object) -> Iterator[dict]:
    """Dicts of ``data``: the top level, array items and ``@graph`` members (not deeper values:
    an article's author object is read through the article)."""
    stack, seen = [data], 0
    while stack and seen < MAX_OBJECTS:
        item = stack.pop(0)
        seen += 1
        if isinstance(item, list):
            stack[:0] = item[:MAX_OBJECTS]
        elif isinstance(item, dict):
            graph = item.get("@graph")
            if isinstance(graph, (list, dict)):
                stack[:0] = graph if isinstance(graph, list) else [graph]
            if "@type" in item:
                yield item
            main = item.get("mainEntity")
            if isinstance(main, dict) and "@type" in main:
                stack.insert(0, main)
