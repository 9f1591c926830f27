"""DWSIE's extraction (paper 002, 2.2): list records from the list nodes, the article's ``doc``, and
the paper's JSON shape ``{url, page_type, titles, doc}`` (the service's ``extract_pageinfo``).

List pages: every list subtree found by :func:`extractors.dwsie.classify_nodes`, every list node of
it, read by :func:`extractors.listrecords.build_record` (title, absolute URL, date, authors: the same
reading as PSNT's records). Combined with PSNT (paper 004) as :func:`combined_records` says: PSNT's
wrapper where it holds, DWSIE's list nodes where there is no sibling or induction fails.

Article pages: ``cont`` is the chain's body (:func:`extractors.extract` on the same parse),
``title``, ``date`` and ``au`` are the fields issue's values (metadata first, then the text rules),
``column`` / ``main_img`` / ``keywords`` the item's ``section`` / ``main_image`` / ``keywords``;
``main_img`` falls back to the first image of the content node's subtree, as the paper reads it. The mapping to the item's fields is in docs/evaluation.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin

from extractors.dwsie import NodeClasses, NodeModel, classify_nodes
from extractors.listrecords import Record, base_url, build_record
from extractors.page import Page

__all__ = ["PageInfo", "combined_records", "dwsie_records", "page_info", "paper_shape"]


def dwsie_records(page: Page, classes: NodeClasses) -> list[Record]:
    """One record per list node of every list subtree (largest subtree first), deduplicated by URL."""
    nodes, base = page.nodes, base_url(page)
    records: list[Record] = []
    seen: set[str] = set()
    for _parent, items in classes.lists:
        for row in items:
            end = int(nodes.end[row])
            links = [r for r in range(row, end + 1) if nodes.tag[r] == "a"]
            if not links:
                continue
            record = build_record(page, (row, end), (int(nodes.seg_lo[row]), int(nodes.seg_hi[row])),
                                  links, base)
            if record is not None and record.title and record.url not in seen:
                seen.add(record.url)
                records.append(record)
    return records


def combined_records(page: Page, classes: NodeClasses, sibling: Page | None) -> tuple[list[Record], str]:
    """PSNT's records when a wrapper induced with ``sibling`` finds some, else DWSIE's list nodes,
    else PSNT's wrapper induced from the page alone (the crawl's single-page fallback); the records
    and which method gave them (``psnt`` / ``dwsie`` / ``psnt_single`` / ``none``)."""
    if sibling is not None:
        records = _psnt(page, sibling)
        if records:
            return records, "psnt"
    records = dwsie_records(page, classes)
    if records:
        return records, "dwsie"
    records = _psnt(page, None)
    return records, "psnt_single" if records else "none"


def _psnt(page: Page, sibling: Page | None) -> list[Record]:
    from extractors.psnt import apply_wrapper, induce_wrapper

    induced = induce_wrapper(page, sibling)
    if induced.wrapper is None:
        return []
    return list(apply_wrapper(induced.wrapper, page).records)


@dataclass(slots=True)
class PageInfo:
    """The page type, the list records and the article's fields of one page."""

    url: str | None
    page_type: str
    records: list[Record]
    records_by: str
    doc: dict | None


def page_info(document: bytes | str, model: NodeModel, url: str | None = None,
              sibling: bytes | str | None = None, article: bool = True) -> PageInfo:
    """Classify ``document``'s nodes and extract what its page type calls for; ``article`` False
    skips the article chain (``detect_pagetype`` needs only the type)."""
    from extractors import extract
    from extractors.page import parse_page

    page = parse_page(document, url=url)
    classes = classify_nodes(page, model)
    other = None
    if sibling is not None and classes.page_type in ("list", "article"):
        try:
            other = parse_page(sibling)
        except ValueError:
            other = None
    records, by = ([], "none")
    if classes.page_type == "list":
        records, by = combined_records(page, classes, other)
    doc = None
    if article and classes.page_type == "article":
        found = extract(page, sibling=other).to_dict()
        image = found.get("image") or _first_image(page, classes.content)
        doc = {"title": found.get("title"), "column": found.get("section"),
               "au": ", ".join(found.get("authors") or []) or None,
               "date": found.get("published"), "main_img": image,
               "cont": found.get("body"), "keywords": ", ".join(found.get("keywords") or []) or None}
    return PageInfo(url, classes.page_type, records, by, doc)


def _first_image(page: Page, content: int | None) -> str | None:
    """Paper 002's ``main_img`` where the page declares none: the first image of the content
    node's subtree, resolved against the page's base URL."""
    if content is None:
        return None
    for img in page.nodes.elements[content].iter("img"):
        src = (img.get("src") or "").strip()
        if src and not src.startswith("data:"):
            base = base_url(page)
            return urljoin(base, src) if base else src
    return None


#: Paper 002's page-type names (``CP`` content page, ``LP`` list page, ``Unknown``).
PAPER_TYPES = {"article": "CP", "list": "LP", "other": "Unknown"}


def paper_shape(info: PageInfo) -> dict:
    """``{url, page_type, titles: [{title, href, au, date}], doc}`` as paper 002, 2.3 prints it
    (without ``page``, the page's source, which the caller already has)."""
    return {"url": info.url, "page_type": PAPER_TYPES[info.page_type],
            "titles": [{"title": r.title, "href": r.url, "au": ", ".join(r.authors) or None,
                        "date": r.date} for r in info.records],
            "doc": info.doc}
