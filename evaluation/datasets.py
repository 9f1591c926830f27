"""Evaluation datasets: a folder with ``gold.jsonl`` and ``pages/``, and the sibling-page rule.

The layout is the one of ``../shared/data/README.md``: one JSON object per line with ``id``,
``file`` (relative to the folder), ``url``, ``group``, ``lang``, ``page_type``, ``title``,
``date``, ``author``, ``body``, ``with``, ``without``, ``records``, ``quality``; a field the set
lacks is null.

Page ids are the datasets' own, made unique when a set repeats one (``news_article_vs_nonarticle``
truncates its ids, so 344 lines carry 34 ids): a repeated id gets ``@`` and the page's file
appended, so predictions and timings, which are keyed by id, never collide.

Sibling rule (for methods that compare a page with a same-template page): among the *other* pages
of the same non-null ``group``, keep those with a compatible gold ``page_type`` (the same type;
for a ``list`` page a ``list`` or ``nonarticle`` page; any page when the type is unknown) and take
the nearest in file order (smallest distance of positions in ``gold.jsonl``; on a tie the
earlier one). No group or no compatible page means no sibling.

CleanEval gold (``cleanportaleval``) is written in the CleanEval annotation format: a first line
``URL: ...``, a ``<p>``, ``<h>`` or ``<l>`` marker opening each paragraph, heading or list item,
HTML character references (``&#8217;``, ``&rsquo;``) and, for a page without an article, a comment.
Scored as it is, the markers and the URL become ``\\w+`` tokens (``p``, ``URL``, ``http``, ``8217``)
that no extractor can output. :func:`normalise_cleaneval` removes them once, when the gold is
loaded, for every tool alike; a body is treated so only when it has the format's signature (a first
line ``URL: http...``), so other sets are untouched. A page whose gold is only that line (no
article) gets an empty body.
"""

from __future__ import annotations

import html
import json
import logging
import re
import math
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import lxml.etree
import lxml.html

logger = logging.getLogger(__name__)

_CLEANEVAL_URL = re.compile(r"\A\s*URL: https?://[^\n]*(?:\n|\Z)")
_CLEANEVAL_MARKUP = re.compile(r"<(?:p|h|l|/p)>|<!--.*?-->", re.S)

#: One site in this many is held out of training (``newscrawl train``) and scored by
#: ``newscrawl eval --held-out``.
VALIDATION_BUCKETS = 5

SECTIONS = ("body", "snippets", "title", "date", "author", "page_type", "records")


@dataclass(frozen=True, slots=True)
class GoldPage:
    """One line of ``gold.jsonl`` and where its bytes live."""

    id: str
    path: Path
    gold: dict = field(repr=False)
    position: int = 0

    @property
    def lang(self) -> str:
        return self.gold.get("lang") or "unknown"

    @property
    def quality(self) -> str:
        return self.gold.get("quality") or "gold"

    @property
    def url(self) -> str | None:
        return self.gold.get("url") or None

    def read_bytes(self) -> bytes:
        return self.path.read_bytes()

    def base_url(self) -> str | None:
        """The gold URL, else the page's own ``<base href>``, canonical link or ``og:url``."""
        return self.url or page_base_url(self.read_bytes())


@dataclass(frozen=True, slots=True)
class Dataset:
    """A named list of gold pages (the folder's name is the dataset's name)."""

    name: str
    root: Path
    pages: tuple[GoldPage, ...]
    limit: int | None = None
    only: str | None = None  # score only the pages with gold for this section
    held_out: bool = False  # score only the pages of the sites learned models never trained on

    def evaluated(self) -> tuple[GoldPage, ...]:
        """The pages to score: all (or those with gold for ``only``; with ``held_out``, only those
        of :func:`is_validation` sites), or ``limit`` of them evenly spaced through the file.

        Evenly spaced rather than the first N so a limited run still covers the set's sites,
        languages and page types; deterministic. Siblings are still chosen among all pages.
        """
        pages = self.pages if self.only is None else tuple(
            p for p in self.pages if has_gold(p.gold, self.only))
        if self.held_out:
            pages = tuple(p for p in pages if is_validation(site_of(p.gold)))
        if self.limit is None or self.limit >= len(pages):
            return pages
        n, k = len(pages), max(0, self.limit)
        return tuple(pages[i * n // k] for i in range(k))

    def sections(self) -> frozenset[str]:
        """The metric sections some page of this dataset has gold for."""
        return frozenset(s for s in SECTIONS if any(has_gold(p.gold, s) for p in self.evaluated()))

    def sibling_of(self, page: GoldPage, types: tuple[str, ...] | None = None) -> GoldPage | None:
        """The sibling page chosen by the module's rule (of one of ``types`` if given), or None."""
        return choose_sibling(self.pages, page, types)


def page_base_url(html: bytes) -> str | None:
    """An absolute URL the page declares for itself, for resolving relative links.

    >>> page_base_url(b'<html><head><link rel="canonical" href="https://s.com/x"></head></html>')
    'https://s.com/x'
    """
    try:
        root = lxml.html.document_fromstring(html)
    except (ValueError, lxml.etree.ParserError):
        return None
    for xpath in ("//base/@href", "//link[@rel='canonical']/@href",
                  "//meta[@property='og:url']/@content"):
        for value in root.xpath(xpath):
            if str(value).strip().startswith(("http://", "https://")):
                return str(value).strip()
    return None


def site_of(gold: dict) -> str:
    """The site a page belongs to, for the split: gold ``site``, else the URL's host, else the
    group's site, else the page id (a page of its own).

    >>> site_of({"url": "https://www.example.com/a"}), site_of({"group": "bbc.co.uk@2009"})
    ('example.com', 'bbc.co.uk')
    """
    site = gold.get("site") or urlsplit(gold.get("url") or "").hostname \
        or (gold.get("group") or "").partition("@")[0] or f"page:{gold.get('id')}"
    site = str(site).lower()
    return site[4:] if site.startswith("www.") else site


def is_validation(site: str) -> bool:
    """Whether ``site`` is held out of every learned model's training (``newscrawl train``): one
    site in :data:`VALIDATION_BUCKETS`, by CRC-32 of its name, so a site's template is never on
    both sides and the split is the same on every machine."""
    return zlib.crc32(site.encode("utf-8")) % VALIDATION_BUCKETS == 0


def has_gold(gold: dict, section: str) -> bool:
    """Whether one gold line carries a value for a metric section."""
    if section == "snippets":
        return bool(gold.get("with") or gold.get("without"))
    value = gold.get(section)
    if isinstance(value, float) and math.isnan(value):
        return False
    return value not in (None, "", [])


def load_dataset(folder: str | os.PathLike[str], limit: int | None = None,
                 only: str | None = None, held_out: bool = False) -> Dataset:
    """Read ``folder/gold.jsonl``; ``limit`` scores only N pages, ``only`` only the pages with
    gold for that section, ``held_out`` only the validation sites (see :meth:`Dataset.evaluated`).

    Raises ValueError naming the folder when it is not in the dataset layout.
    """
    root = Path(folder).expanduser()
    gold_file = root / "gold.jsonl"
    if not gold_file.is_file():
        raise ValueError(f"{root}: not a dataset folder (no gold.jsonl); see docs/evaluation.md")
    pages: list[GoldPage] = []
    with gold_file.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                gold = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{gold_file}:{number}: invalid JSON ({exc.msg})") from exc
            if isinstance(gold.get("body"), str) and is_cleaneval(gold["body"]):
                gold["body"] = normalise_cleaneval(gold["body"])
            pages.append(GoldPage(str(gold["id"]), root / gold["file"], gold, len(pages)))
    if only is not None and only not in SECTIONS:
        raise ValueError(f"unknown section {only!r}; sections: {', '.join(SECTIONS)}")
    return Dataset(root.name, root, _unique_ids(pages), limit, only, held_out)


def _unique_ids(pages: list[GoldPage]) -> tuple[GoldPage, ...]:
    """The pages, a repeated id suffixed with ``@file`` (see the module docstring).

    >>> ps = [GoldPage("a", Path("p/1.html"), {"file": "p/1.html"}, 0),
    ...       GoldPage("a", Path("p/2.html"), {"file": "p/2.html"}, 1)]
    >>> [p.id for p in _unique_ids(ps)]
    ['a@p/1.html', 'a@p/2.html']
    """
    seen: dict[str, int] = {}
    for page in pages:
        seen[page.id] = seen.get(page.id, 0) + 1
    return tuple(GoldPage(f"{p.id}@{p.gold['file']}", p.path, p.gold, p.position)
                 if seen[p.id] > 1 else p for p in pages)


def is_cleaneval(body: str) -> bool:
    """Whether a gold body is in the CleanEval annotation format (see the module doc).

    >>> is_cleaneval("\\nURL: http://a.com/x\\n<p>Text"), is_cleaneval("<p>Text")
    (True, False)
    >>> is_cleaneval("URL: x")
    False
    """
    return bool(_CLEANEVAL_URL.match(body))


def normalise_cleaneval(body: str) -> str:
    """The text of a CleanEval gold body: no ``URL:`` line, no ``<p>``/``<h>``/``<l>`` markers or
    comments, character references decoded; each marked block starts a new line.

    >>> normalise_cleaneval("\\nURL: http://a.com/x\\n<h>Title\\n <p>It&#8217;s\\n here.<p>Next")
    'Title\\nIt’s\\n here.\\nNext'
    """
    text = _CLEANEVAL_URL.sub("", body, count=1)
    text = _CLEANEVAL_MARKUP.sub("\n", text)
    lines = [line.rstrip() for line in html.unescape(text).split("\n")]
    return "\n".join(line for line in lines if line.strip())


def _compatible(target_type: str | None, other_type: str | None) -> bool:
    if target_type is None:
        return True
    if target_type == "list":
        return other_type in ("list", "nonarticle")
    return other_type == target_type


def choose_sibling(pages: tuple[GoldPage, ...] | list[GoldPage], page: GoldPage,
                   types: tuple[str, ...] | None = None) -> GoldPage | None:
    """Nearest other page of the same group with a compatible page type (see module doc), or
    with a gold ``page_type`` in ``types`` when given.

    >>> mk = lambda i, g, t: GoldPage(str(i), Path(f"{i}.html"), {"group": g, "page_type": t}, i)
    >>> ps = [mk(0, "a", "article"), mk(1, "a", "list"), mk(2, "b", "article"),
    ...       mk(3, "a", "article"), mk(4, "a", "nonarticle")]
    >>> choose_sibling(ps, ps[3]).id, choose_sibling(ps, ps[1]).id, choose_sibling(ps, ps[2])
    ('0', '4', None)
    >>> choose_sibling(ps, ps[1], types=("list",)) is None
    True
    """
    group = page.gold.get("group")
    if group is None:
        return None
    kind = page.gold.get("page_type")
    candidates = [p for p in pages if p.position != page.position and p.gold.get("group") == group
                  and (_compatible(kind, p.gold.get("page_type")) if types is None
                       else p.gold.get("page_type") in types)]
    if not candidates:
        return None
    return min(candidates, key=lambda p: (abs(p.position - page.position), p.position))
