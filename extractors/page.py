"""One page, parsed once: decoding, repair into a tree, the cleaning rules of paper 000, the node table.

Cleaning (algorithms.md section 1, paper 000 section 2.1): the parser repairs malformed markup into a
well-formed tree and decodes entities; comments and processing instructions are dropped by the parser;
the subtrees of ``NOISE_TAGS`` are removed (their tails kept), except ``noscript`` on a page that
has almost no text outside it (:data:`NOSCRIPT_FALLBACK_CHARS`). Elements whose subtree holds no text are not
removed from the tree: they carry no characters, so every text measure already ignores them, and keeping
them saves a pass.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate, compress, count
from operator import add

from urllib.parse import urlsplit

from lxml import etree, html

from extractors.decoding import decode_html
from extractors.errors import (
    BadURL,
    DocumentTooLarge,
    EmptyDocument,
    MalformedDocument,
    MarkupTooComplex,
    TooDeep,
    TooManyElements,
)
from extractors.markup_limits import (
    MAX_ATTRIBUTES_PER_ELEMENT,
    MAX_MARKUP_TAGS,
    attribute_overflow,
    depth_exceeded,
    markup_overflow,
)
from extractors.nodetable import NodeTable, build_node_table

__all__ = ["DEFAULT_MAX_BYTES", "HEADING_TAGS", "MEDIA_FALLBACK_TAGS", "NOISE_TAGS", "NameMarks",
           "Page", "RowNames", "check_url", "heading_rows", "link_hrefs", "name_marks",
           "parse_page", "row_names"]

#: Paper 000's list of subtrees that never hold article text, plus ``noscript``, ``template`` and
#: ``svg`` (markup that is code or graphics, not text, on modern pages), MathML's
#: ``annotation``/``annotation-xml`` (a formula's TeX or other source beside the formula itself;
#: ``math`` is kept, its text is the formula: readability_testpages' mathjax page F1 0.32 -> 0.97,
#: 0.9349 -> 0.9394 for the set, no other page of aeb, wcxb_dev or trafilatura_eval changed,
#: 2026-11-27), and ruby
#: annotations ``rt``/``rp`` (the reading of a Japanese or Chinese word printed above it: kept,
#: "子こども" doubles every annotated word of the text), and ``noembed`` (the fallback of an
#: embedded plugin, which libxml2 reads as raw text: an advertisement's markup, 2 000 characters
#: of a click URL in a latimes.com story of big9, stood in the body as words; 4 big9 pages up).
NOISE_TAGS = ("script", "style", "select", "option", "iframe", "textarea", "object", "input",
              "noscript", "template", "svg", "button", "rt", "rp", "noembed", "annotation",
              "annotation-xml")
#: Media elements whose text a browser that plays them never shows: the fallback for one that
#: cannot ("Your browser does not support the video tag.", ten times on one wcxb_dev page), removed
#: as :data:`NOISE_TAGS` are. Every page of the nine body sets (2026-11-27): wcxb_dev 0.8622 ->
#: 0.8623 (12 pages up, 1 down: airtable.com's marketing page, whose walk took a smaller region
#: without the three lines), gne 0.9144 -> 0.9158 (CJK 0.9829 -> 0.9834), the seven others
#: unchanged on every page. A call of their own: lxml's ``strip_elements`` with these two names
#: among the seventeen above took 0.05 -> 0.12-0.17 ms a big9 page, alone after them 0.003 ms more.
MEDIA_FALLBACK_TAGS = ("video", "audio")
#: JSON-LD scripts kept per page: news pages carry 1-6; a page with more is padding them.
MAX_LD_SCRIPTS = 20
#: A page whose body keeps fewer non-link characters than this without its ``noscript`` blocks is
#: read again with them: some sites serve the whole text there for clients without scripts
#: (Discourse forums: 12 of wcxb_dev's 29 empty outputs). 200 characters is less than any gold
#: body of the dev sets that is not empty.
NOSCRIPT_FALLBACK_CHARS = 200
#: A ``button`` holding more text than this is a button the page left open (libxml2 does not close
#: a ``<button>`` at the next one as browsers do, so everything after it becomes its content): its
#: tag is dropped and its content kept, instead of removing the rest of the page with it. Button
#: labels are a few words; wcxb_dev's dotdash pages (southernliving, investopedia, health.com,
#: treehugger) lost their whole story to a header menu button (four wcxb_dev pages from F1 0 to
#: 0.95-1.0; see :data:`extractors.boilerplate.INLINE_EXEMPT_TAGS` for the figures).
MAX_BUTTON_CHARS = 300
#: Bodies above this size are refused (a crawl setting overrides it).
DEFAULT_MAX_BYTES = 10_000_000


@dataclass(slots=True)
class Page:
    """A parsed page. Extractors read ``root`` and ``nodes``; none of them mutates the tree."""

    root: etree._Element
    body: etree._Element
    nodes: NodeTable
    url: str | None
    encoding: str
    encoding_source: str
    timings: dict[str, float] = field(default_factory=dict)
    #: The texts of the page's ``<script type="application/ld+json">`` elements, kept before the
    #: cleaning rules drop every script (read by :mod:`extractors.metadata`; at most
    #: ``MAX_LD_SCRIPTS``, each as found).
    ld_json: tuple[str, ...] = ()
    #: What several steps read from the page, computed once by the first (the JSON-LD objects,
    #: the markup facts of :func:`extractors.boilerplate.page_markup`): keyed by name; the
    #: page itself is never changed, so an entry stays right for the page's life.
    memo: dict = field(default_factory=dict, repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class RowNames:
    """The rows of a node table with an ``id`` or a ``class`` (document order) and each one's
    ``f"{id} {class}"``: the one pass over every row's id and class that both per-page name
    structures read, :class:`NameMarks` (lowered) and :class:`extractors.boilerplate.NameWords`
    (split into words), where each made its own (:func:`row_names`)."""

    rows: list[int]
    texts: list[str]


def row_names(nodes: NodeTable) -> RowNames:
    """The :class:`RowNames` of ``nodes``, found in C: ``id + class`` is empty exactly for the
    rows with neither, so ``compress`` over it keeps the named rows, and their texts are the
    kept ids and classes joined by a space. One pass where the two structures made a Python
    test of every row each (``enumerate`` plus ``if c or i``, and the ``"id class"`` of every
    row): with :class:`NameWords`' per-row list filled from them, 0.086 -> 0.058 ms a page
    (big9's first 80 pages), 0.085 -> 0.063 (aeb's), 0.18 -> 0.12 (cx_163), median, warm."""
    kept = list(map(add, nodes.ident, nodes.classes))
    return RowNames(list(compress(count(), kept)),
                    list(map(" ".join, zip(compress(nodes.ident, kept),
                                           compress(nodes.classes, kept)))))


@dataclass(frozen=True, slots=True)
class NameMarks:
    """The rows of a page with a ``class`` or ``id``, and ``f"{id} {class}".lower()`` of each,
    joined by NUL (no class or id holds one) so that ``str.find`` finds the rows naming a word
    without a test per row: read by the byline, dateline and page-type steps, built once per page
    (:func:`name_marks`)."""

    rows: list[int]
    lowered: list[str]
    joined: str
    starts: list[int]  # where each row's text starts in ``joined``
    #: :meth:`containing`'s answers by words, kept for the page's next ask (the byline and
    #: dateline readers ask for the same words three or four times a page).
    _found: dict = field(default_factory=dict, repr=False, compare=False)

    def containing(self, words: tuple[str, ...]) -> frozenset[int]:
        """Indices into ``rows`` whose text holds one of ``words`` (``any(w in text ...)``): one
        C search per word and per row holding it (a word holds no NUL, so never spans two)."""
        found = self._found.get(words)
        if found is None:
            found = self._found[words] = frozenset(self._containing(words))
        return found

    def _containing(self, words: tuple[str, ...]) -> set[int]:
        found: set[int] = set()
        joined, starts = self.joined, self.starts
        for word in words:
            at = joined.find(word)
            while at >= 0:
                k = bisect_right(starts, at) - 1
                found.add(k)
                if k + 1 == len(starts):
                    break
                at = joined.find(word, starts[k + 1])
        return found


def name_marks(page: Page) -> NameMarks:
    """The page's :class:`NameMarks`, kept in ``page.memo``: its rows and texts are those the
    page's markup read for its :class:`extractors.boilerplate.NameWords` (:func:`row_names`,
    the attenuation step reads them first), read again only where there is no markup yet.

    The id comes first, as in the markup's names, where the old text put the class first: no
    word :meth:`NameMarks.containing` is asked for and no page-type pattern read over
    ``lowered`` holds a space, so none matches across the two, and each part sits between the
    same kinds of characters either way (a space, a NUL or an end: no word character), so
    every row matches the same words and patterns."""
    marks = page.memo.get("name_marks")
    if marks is None:
        markup = page.memo.get("markup")
        names = markup.names if markup is not None else None
        shared = names.row_names if names is not None else row_names(page.nodes)
        rows, texts = shared.rows, shared.texts
        joined = "\x00".join(texts)
        # one lower() for all: NUL is neither cased nor case-ignorable, so it changes no letter's
        # lower case; a value holding a NUL itself is lowered on its own
        if joined.count("\x00") == max(len(texts) - 1, 0):
            lowered = joined.lower().split("\x00") if texts else []
        else:
            lowered = [t.lower() for t in texts]
        starts = list(accumulate((len(t) + 1 for t in lowered[:-1]), initial=0)) if lowered else []
        marks = page.memo["name_marks"] = NameMarks(rows, lowered, "\x00".join(lowered), starts)
    return marks


#: The tags :func:`heading_rows` lists.
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def heading_rows(page: Page) -> list[int]:
    """The rows of the page's headings (:data:`HEADING_TAGS`), in document order, found once a
    page in the node table's tags (kept in ``page.memo``): the title step reads its ``<h1>`` and
    ``<h2>`` elements from them, and the byline and dateline readers look for the headline among
    them, where each walked the tree (``body.iter("h1")``, twice, and ``body.iter("h2")``: the
    elements cold in the cache by then) or tested every row in Python. The rows are those of
    ``page.body``'s walk (the table is built from it), so ``page.nodes.elements[row]`` is the
    element ``body.iter(tag)`` yields, in the same order."""
    rows = page.memo.get("heading_rows")
    if rows is None:
        tags = page.nodes.tag
        rows = page.memo["heading_rows"] = list(compress(count(), map(HEADING_TAGS.__contains__,
                                                                      tags)))
    return rows


def link_hrefs(page: Page) -> tuple[list[int], list[str]]:
    """The rows of the page's ``<a>`` elements, in document order, and the ``href`` of each
    (``""`` when absent), as the node table's walk read them (:attr:`NodeTable.link_rows`): the
    author-link and page-type steps both read them."""
    return page.nodes.link_rows, page.nodes.link_href


def check_url(url: str | None) -> None:
    """Raise :class:`BadURL` when ``url`` is not one ``urllib`` can split.

    >>> check_url("https://s.org/a"), check_url(None)
    (None, None)
    >>> check_url("http://[::1/a")
    Traceback (most recent call last):
    extractors.errors.BadURL: the URL 'http://[::1/a' cannot be read: Invalid IPv6 URL
    """
    if url is None:
        return
    try:
        urlsplit(url)
    except ValueError as error:
        raise BadURL(f"the URL {url[:200]!r} cannot be read: {error}") from None


def parse_page(document: bytes | str, url: str | None = None, content_type: str | None = None,
               max_bytes: int = DEFAULT_MAX_BYTES) -> Page:
    """Decode (bytes only), parse, clean and tabulate ``document``.

    Raises a :class:`extractors.errors.BadInput` subclass for empty, binary, undecodable, oversized
    or unparseable input, for a ``url`` that does not split (``bad_url``), and for hostile markup
    (:mod:`extractors.markup_limits`): too many tags (``too_many_elements``), an element with too
    many attributes (``too_many_attributes``), nesting past the parser's limit (``too_deep``).
    """
    check_url(url)
    size = len(document)
    if size > max_bytes:
        raise DocumentTooLarge(f"the body has {size} bytes, over the limit of {max_bytes}")
    t0 = time.perf_counter()
    utf8 = None
    if isinstance(document, bytes):
        decoded = decode_html(document, content_type)
        text, encoding, source = decoded.text, decoded.encoding, decoded.source
        utf8 = _same_utf8(document, decoded)
    else:
        text, encoding, source = document, "unicode", "given"
        if not text.strip():
            raise EmptyDocument("the document is empty")
    t1 = time.perf_counter()
    root, body, ld_json = _parse(text, utf8=utf8)
    t2 = time.perf_counter()
    nodes = build_node_table(body)
    if nodes.nonlink_text[0] < NOSCRIPT_FALLBACK_CHARS and "<noscript" in text.lower():
        root, body, ld_json = _parse(text, keep_noscript=True, utf8=utf8)
        nodes = build_node_table(body)
    t3 = time.perf_counter()
    timings = {"decode": (t1 - t0) * 1e3, "parse": (t2 - t1) * 1e3, "table": (t3 - t2) * 1e3}
    return Page(root, body, nodes, url, encoding, source, timings, ld_json)


def _element_classes() -> etree.ElementNamespaceClassLookup:
    """lxml.html's element classes (``HtmlElement``, and ``FormElement``... for the tags it
    names), chosen in C: ``lxml.html.HTMLParser`` chooses them with a Python method called
    for every element the node table and later steps touch (0.3-0.4 ms a page)."""
    lookup = etree.ElementNamespaceClassLookup(etree.ElementDefaultClassLookup(
        element=html.HtmlElement, comment=html.HtmlComment, pi=html.HtmlProcessingInstruction,
        entity=html.HtmlEntity))
    by_tag = lookup.get_namespace(None)
    # the parser lower-cases tag names, as lxml.html's lookup does before reading its mapping
    for tag, cls in _TAG_CLASSES.items():
        by_tag[tag] = cls
    return lookup


#: The tags lxml.html gives a class of their own, named from lxml.html's public classes (its
#: own mapping is a private attribute); ``tests/extractors/test_page.py`` checks that a parsed
#: page's elements get the classes ``lxml.html.fromstring`` gives them.
_TAG_CLASSES = {"form": html.FormElement, "textarea": html.TextareaElement,
                "select": html.SelectElement, "input": html.InputElement,
                "label": html.LabelElement}


_ELEMENT_CLASSES = _element_classes()


def _parser() -> etree.HTMLParser:
    # collect_ids=False: libxml2 keeps no hash table of the ``id`` attributes, which only XPath's
    # ``id()`` reads (nothing here or in htmldate calls it); the same tree
    parser = etree.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True,
                              remove_blank_text=False, huge_tree=True, collect_ids=False)
    parser.set_element_class_lookup(_ELEMENT_CLASSES)
    return parser


def _same_utf8(document: bytes, decoded) -> bytes | None:
    """``document`` itself when it is what ``decoded.text.encode("utf-8")`` would give: decoded
    as UTF-8 (no byte-order mark cut off) without a single replacement character, so every
    byte was valid UTF-8 and the text encodes back to the same bytes. The parser then reads
    the page's own bytes instead of a new copy (0.1 ms a page of big9's, whose pages are
    mostly UTF-8; a literal U+FFFD in the page just takes the encoding path)."""
    if decoded.encoding == "utf-8" and decoded.source != "bom" and "\ufffd" not in decoded.text:
        return document
    return None


def _parse(text: str, keep_noscript: bool = False, utf8: bytes | None = None
           ) -> tuple[etree._Element, etree._Element, tuple[str, ...]]:
    # Parsing UTF-8 bytes with a fixed encoding sidesteps lxml's refusal of str input that carries
    # an XML encoding declaration, and any meta charset that contradicts our decoding. ``utf8``:
    # ``text`` encoded already (see _same_utf8).
    tags = markup_overflow(text)
    if tags is not None:  # C loops over the whole tree hold the GIL: refuse before parsing
        raise TooManyElements(f"the markup has {tags} tags, over the limit of {MAX_MARKUP_TAGS}")
    attributes = attribute_overflow(text)
    if attributes is not None:  # parse time grows with the square of an element's attributes
        raise MarkupTooComplex(f"an element has {attributes} or more attributes, over the limit of "
                               f"{MAX_ATTRIBUTES_PER_ELEMENT}")
    parser = _parser()
    try:
        root = html.document_fromstring(
            text.encode("utf-8", "replace") if utf8 is None else utf8, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        raise MalformedDocument(f"the markup cannot be parsed: {exc}") from exc
    if depth_exceeded(parser):  # libxml2 stopped there, silently dropping the rest
        raise TooDeep("the markup nests deeper than the parser's limit (2 048 elements)")
    if root is None:
        raise MalformedDocument("the markup holds no element")
    if root.getnext() is not None:
        _rejoin_after_the_end(root)
    ld_json = tuple(_ld_json_texts(root))
    noise = [t for t in NOISE_TAGS if t != "noscript"] if keep_noscript else NOISE_TAGS
    for button in root.iter("button"):
        if len(button.text_content()) > MAX_BUTTON_CHARS:
            button.tag = "div"  # an unclosed button: keep what it swallowed
    etree.strip_elements(root, *noise, with_tail=False)
    etree.strip_elements(root, *MEDIA_FALLBACK_TAGS, with_tail=False)
    body = root.find("body")
    return root, (root if body is None else body), ld_json


def _rejoin_after_the_end(root: etree._Element) -> None:
    """Move into the body what libxml2 left outside the document element.

    A stray ``</html>`` ends libxml2's document: an advertisement's own HTML document pasted
    inside the page (``<html><head>...</head><body>...</body></html>``), as on forbes.com's
    pages of 2004 (big9), and everything after it, the story included, becomes further top-level
    elements, which neither ``root.find("body")`` nor an iteration of the root reaches (the
    story was lost, F1 0). An HTML5 parser, as every browser has, ignores those end tags and
    keeps the rest in the body: this does the same, in document order, leaving out the trailing
    documents' ``head`` (an advertisement's title and scripts are no content of the page).
    Written by hand: lxml's parser has no option for it, and an HTML5 parser (``html5lib``)
    would be a second parser of every page for the few that need it."""
    body = root.find("body")
    if body is None:
        body = etree.SubElement(root, "body")
    trailing = [e for e in root.itersiblings() if isinstance(e.tag, str)]
    for element in trailing:
        parts = list(element) if element.tag == "html" else [element]
        if element.tag == "html":
            _append_text(body, element.text)
        for part in parts:
            if part.tag == "head":
                continue
            if part.tag == "body":
                _append_text(body, part.text)
                for child in list(part):
                    body.append(child)
                _append_text(body, part.tail)
            else:
                body.append(part)


def _append_text(parent: etree._Element, text: str | None) -> None:
    """Append ``text`` after ``parent``'s last child (its tail) or to its own text."""
    if not text:
        return
    if len(parent):
        last = parent[-1]
        last.tail = (last.tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def _ld_json_texts(root: etree._Element) -> list[str]:
    found = []
    for script in root.iter("script"):
        if "ld+json" in (script.get("type") or "").lower() and script.text:
            found.append(script.text)
            if len(found) == MAX_LD_SCRIPTS:
                break
    return found
