"""Scoring one group of pages: every metric section the gold and the tool both have."""

from __future__ import annotations

from collections.abc import Sequence

from evaluation import fieldmetrics, listmetrics, metrics
from evaluation.datasets import GoldPage, has_gold

CJK_LANGS = frozenset({"zh", "ja", "ko"})
FIELD_SECTIONS = {"title": ("title",), "date": ("date", "date_day"), "author": ("author",)}


def _text(value: object) -> str:
    if isinstance(value, list):
        return "\n".join(str(v) for v in value if v)
    return "" if value is None else str(value)


def score_pages(pages: Sequence[GoldPage], preds: dict[str, dict], provides: frozenset[str]
                ) -> dict:
    """Sections for ``pages`` (those with gold for a section), keyed as in the JSON output.

    A section is scored when the tool ``provides`` it and its predictions carry the key on some
    page: a chain that does not return dates yet gets no date score rather than a zero.
    """
    out: dict = {"pages": len(pages)}
    returned = {key for p in pages for key in (preds.get(p.id) or {})}
    provides = provides & returned

    def with_gold(section: str) -> list[GoldPage]:
        return [p for p in pages if has_gold(p.gold, section)] if section in provides else []

    def pred(page: GoldPage) -> dict:
        return preds.get(page.id) or {}

    if body_pages := with_gold("body"):
        counts = [metrics.shingle_match(p.gold["body"], _text(pred(p).get("body")))
                  for p in body_pages]
        out["body"] = metrics.body_scores(counts)
        cjk_pages = [p for p in body_pages if p.lang in CJK_LANGS]
        if cjk_pages:
            cjk = [metrics.shingle_match(p.gold["body"], _text(pred(p).get("body")), cjk=True)
                   for p in cjk_pages]
            out["body_cjk"] = {**metrics.body_scores(cjk),
                               "variant": "CJK-aware: each CJK character is one token"}
    if "body" in provides and (snippet_pages := [p for p in pages if has_gold(p.gold, "snippets")]):
        out["snippets"] = metrics.snippet_scores(
            metrics.snippet_counts(_text(pred(p).get("body")), p.gold.get("with") or [],
                                   p.gold.get("without") or []) for p in snippet_pages)
    fields = {}
    for section, keys in FIELD_SECTIONS.items():
        if section_pages := with_gold(section):
            for key in keys:
                fields[key] = fieldmetrics.field_accuracy(
                    ((pred(p).get(section), p.gold[section]) for p in section_pages), key)
    if fields:
        out["fields"] = fields
    if type_pages := with_gold("page_type"):
        out["page_type"] = listmetrics.page_type_scores(
            (pred(p).get("page_type"), p.gold["page_type"]) for p in type_pages)
    if record_pages := with_gold("records"):
        pairs = [(pred(p).get("records") or [], p.gold["records"], p.base_url())
                 for p in record_pages]
        out["records"] = listmetrics.record_scores(listmetrics.record_counts(*x) for x in pairs)
        fields = listmetrics.record_field_scores(listmetrics.record_field_counts(*x) for x in pairs)
        # like the page fields: a tool whose records never carry a date (author) gets no score
        returned = {key for records, _, _ in pairs for rec in records for key in rec}
        if not returned & {"published", "date"}:
            fields = {k: v for k, v in fields.items() if not k.startswith("date")}
        if not returned & {"authors", "author"}:
            fields = {k: v for k, v in fields.items() if not k.startswith("author")}
        out["records"].update(fields)
    return out
