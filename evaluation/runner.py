"""Running methods and peers over datasets: predictions, timings, and scores per group.

Pages are the outer loop and tools the inner one, so every tool sees the same pages in the same
conditions (same disk cache, same machine load) and timings are comparable within one run. A tool
that raises on a page gets an empty prediction for it (counted in ``errors``), as a user would.
Scores are grouped per dataset x language (``all`` and each ``lang``) x quality (gold / silver);
with ``by`` (any of ``group``, ``site``, ``year``), also per part of the set: rows whose ``lang``
reads ``group=forbes.com@2005`` (``site`` and ``year`` are the two halves of a ``site@year``
group, or the gold's ``site``), left out of the headline summary and the quality gate.
"""

from __future__ import annotations

import logging
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import lxml.html

from evaluation.datasets import Dataset, GoldPage
from evaluation.methods import MethodSpec
from evaluation.peers import PeerSpec
from evaluation.peertext import decode_for_peers
from evaluation.scoring import score_pages

logger = logging.getLogger(__name__)

PageRun = Callable[[GoldPage, bytes, Dataset], dict]
ERROR_SAMPLES = 3  # errors kept per result row, with the page id, so failures can be looked at


@dataclass(slots=True)
class Tool:
    """Anything that predicts: one of our methods, a peer, or a predictions file."""

    name: str
    kind: str  # "method" | "peer" | "predictions"
    provides: frozenset[str]
    run: PageRun | None
    status: str = "ok"


@dataclass(slots=True)
class ToolRun:
    """What one tool produced on one dataset."""

    predictions: dict[str, dict] = field(default_factory=dict)
    ms: dict[str, float] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def method_tool(spec: MethodSpec) -> Tool:
    def run(page: GoldPage, html: bytes, dataset: Dataset) -> dict:
        sibling = dataset.sibling_of(page, spec.sibling_types) if spec.needs_sibling else None
        return spec.run(html, page.url, sibling.read_bytes() if sibling else None)
    return Tool(spec.name, "method", spec.provides, run)


def peer_tool(spec: PeerSpec) -> Tool:
    if not spec.installed():
        return Tool(spec.name, "peer", spec.provides, None,
                    f"not installed (pip install {spec.pip_name})")
    try:
        peer_run = spec.build()
    except Exception as exc:  # a broken install must be reported, not crash the run
        logger.warning("peer %s failed to load: %r", spec.name, exc)
        return Tool(spec.name, "peer", spec.provides, None, f"failed to load: {exc!r}"[:200])

    def run(page: GoldPage, html: bytes, dataset: Dataset) -> dict:
        text = "" if spec.takes_bytes else decode_for_peers(html)  # timed: part of the peer's work
        return peer_run(html, text, page.url)
    return Tool(spec.name, "peer", spec.provides, run)


def predictions_tool(name: str, by_id: dict[str, dict]) -> Tool:
    def run(page: GoldPage, html: bytes, dataset: Dataset) -> dict:
        return by_id.get(page.id, {})
    provides = frozenset({"body", "title", "date", "author", "page_type", "records"})
    return Tool(name, "predictions", provides, run)


def run_dataset(dataset: Dataset, tools: list[Tool]) -> tuple[dict[str, ToolRun], list[float]]:
    """Run every usable tool on every evaluated page; returns runs and lxml-parse floor times."""
    sections = dataset.sections()
    if "snippets" in sections:  # snippets are looked up in the body
        sections |= {"body"}
    active = [t for t in tools if t.run is not None and t.provides & sections]
    runs = {t.name: ToolRun() for t in active}
    floor: list[float] = []
    pages = dataset.evaluated()
    for number, page in enumerate(pages, 1):
        html = page.read_bytes()
        t0 = time.perf_counter()
        try:
            lxml.html.document_fromstring(html)
        except Exception:  # the floor measures the parse; a page lxml refuses still took time
            pass
        floor.append((time.perf_counter() - t0) * 1e3)
        for tool in active:
            _run_one(tool, page, html, dataset, runs[tool.name])
        if number % 50 == 0:
            logger.info("%s: %d/%d pages", dataset.name, number, len(pages))
    return runs, floor


def _run_one(tool: Tool, page: GoldPage, html: bytes, dataset: Dataset, into: ToolRun) -> None:
    t0 = time.perf_counter()
    try:
        pred = tool.run(page, html, dataset) or {}
    except Exception as exc:  # every library fails on some pages; the page scores as empty
        pred = {}
        into.errors[page.id] = repr(exc)[:200]
    into.ms[page.id] = (time.perf_counter() - t0) * 1e3
    into.predictions[page.id] = pred


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in 0..100), None for no values.

    >>> percentile([5.0, 1.0, 3.0, 2.0, 4.0], 95), percentile([], 50)
    (5.0, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


BREAKDOWNS = ("group", "site", "year")


def part_of(page: GoldPage, by: str) -> str | None:
    """The page's part for a breakdown: its gold ``group``, or the site / year of a ``site@year``
    group (the gold's ``site`` when the group has no ``@``).

    >>> from pathlib import Path
    >>> page = GoldPage("1", Path("x"), {"group": "bbc.co.uk@2009"})
    >>> part_of(page, "group"), part_of(page, "site"), part_of(page, "year")
    ('bbc.co.uk@2009', 'bbc.co.uk', '2009')
    """
    group = page.gold.get("group")
    if by == "group":
        return group
    site, at, year = (group or "").partition("@")
    if by == "site":
        return site if at else page.gold.get("site")
    return year if at else None


def groups_of(pages: Iterable[GoldPage], by: Sequence[str] = ()
              ) -> dict[tuple[str, str], list[GoldPage]]:
    """Pages by (lang, quality), ``all`` for every language; one-language sets get ``all`` only.
    For each breakdown in ``by``, also by (``by=part``, quality) for every page that has a part."""
    pages = list(pages)
    out: dict[tuple[str, str], list[GoldPage]] = {}
    langs = sorted({p.lang for p in pages})
    for page in pages:
        out.setdefault(("all", page.quality), []).append(page)
        if len(langs) > 1:
            out.setdefault((page.lang, page.quality), []).append(page)
    for breakdown in by:
        for page in pages:
            if (part := part_of(page, breakdown)) is not None:
                out.setdefault((f"{breakdown}={part}", page.quality), []).append(page)
    return out


def results_for(dataset: Dataset, tools: list[Tool], runs: dict[str, ToolRun],
                by: Sequence[str] = ()) -> list[dict]:
    """One result dict per tool x (lang, quality) group (or one status row for unusable tools)."""
    results = []
    groups = groups_of(dataset.evaluated(), by)
    for tool in tools:
        base = {"dataset": dataset.name, "method": tool.name, "kind": tool.kind}
        if tool.name not in runs:
            status = tool.status if tool.run is None else "nothing to score on this dataset"
            results.append({**base, "lang": "all", "quality": None, "status": status})
            continue
        run = runs[tool.name]
        for (lang, quality), pages in sorted(groups.items(), key=lambda g: ("=" in g[0][0], g[0])):
            row = {**base, "lang": lang, "quality": quality, "status": "ok"}
            row.update(score_pages(pages, run.predictions, tool.provides))
            ms = [run.ms[p.id] for p in pages if p.id in run.ms]
            timed = tool.kind != "predictions"
            row["ms_median"] = round(statistics.median(ms), 2) if ms and timed else None
            row["ms_p95"] = round(percentile(ms, 95), 2) if ms and timed else None
            row.update(_method_notes(pages, run, tool.provides))
            failed = [p.id for p in pages if p.id in run.errors]
            row["errors"] = len(failed)
            if failed:
                row["error_samples"] = {pid: run.errors[pid] for pid in failed[:ERROR_SAMPLES]}
            results.append(row)
    return results


def _method_notes(pages: list[GoldPage], run: ToolRun, provides: frozenset[str]) -> dict:
    """What a method said about its pages beyond the scored keys (see methods.py): outcome counts,
    per-step timing medians, and scores on the coverable pages alone when some were not."""
    preds = [run.predictions.get(p.id) or {} for p in pages]
    notes: dict = {}
    outcomes = Counter(pred["outcome"] for pred in preds if "outcome" in pred)
    if outcomes:
        notes["outcomes"] = dict(outcomes.most_common())
    steps: dict[str, list[float]] = {}
    for pred in preds:
        for step, ms in (pred.get("timings_ms") or {}).items():
            steps.setdefault(step, []).append(ms)
    if steps:
        notes["step_ms_median"] = {k: round(statistics.median(v), 2) for k, v in steps.items()}
    returned = [pred["field_coverage"] for pred in preds if pred.get("field_coverage")]
    if returned:  # share of pages where each article field came back (methods.run_default)
        notes["field_coverage"] = {name: round(sum(r.get(name, False) for r in returned)
                                               / len(returned), 3) for name in returned[0]}
    covered = [p for p, pred in zip(pages, preds, strict=True) if pred.get("coverable", True)]
    if len(covered) < len(pages):
        notes["coverable_pages"] = len(covered)
        scores = score_pages(covered, run.predictions, provides) if covered else {}
        notes["coverable"] = {k: v for k, v in scores.items() if k != "pages"}
    return notes


def evaluate(datasets: list[Dataset], tools: list[Tool], by: Sequence[str] = ()) -> dict:
    """The whole evaluation: ``{"results", "parse_floor_ms_median", "datasets"}``; ``by`` adds
    per-part rows (see the module doc)."""
    results: list[dict] = []
    floor: list[float] = []
    described: dict[str, dict] = {}
    for dataset in datasets:
        logger.info("evaluating %s (%d pages)", dataset.name, len(dataset.evaluated()))
        runs, dataset_floor = run_dataset(dataset, tools)
        floor.extend(dataset_floor)
        results.extend(results_for(dataset, tools, runs, by))
        described[dataset.name] = {
            "pages": len(dataset.evaluated()), "path": str(dataset.root),
            "parse_floor_ms_median": round(statistics.median(dataset_floor), 2)
            if dataset_floor else None}
    return {
        "results": results,
        "parse_floor_ms_median": round(statistics.median(floor), 2) if floor else None,
        "datasets": described,
    }
