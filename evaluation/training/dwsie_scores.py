"""Validation of ``newscrawl train dwsie``: page types by the paper's rule and by the page rule,
node-class scores, the threshold choices and the printed tables (all on :class:`PageRows` of
:mod:`evaluation.training.dwsie`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from extractors.dwsie import CLASSES, MIN_LIST_NODES, NodeModel, list_subtrees, page_type_of
from extractors.dwsie_pagetype import page_aggregates
from evaluation.datasets import is_validation

if TYPE_CHECKING:
    from evaluation.training.dwsie import PageRows

__all__ = ["Decisions", "choose_threshold", "decide", "evaluate", "page_type_table", "print_scores"]

#: Candidate thresholds on P(cont) for the paper's page-type rule.
THRESHOLDS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98)


class _Rows:
    """What :func:`extractors.dwsie.list_subtrees` reads of a node table."""

    def __init__(self, parent: np.ndarray, end: np.ndarray) -> None:
        self.parent, self.end = parent, end

    def __len__(self) -> int:
        return len(self.parent)


@dataclass(slots=True)
class Decisions:
    """Per page: the highest P(cont), whether a list subtree was found, the page aggregates."""

    top_cont: np.ndarray
    has_list: np.ndarray
    aggregates: np.ndarray

    def page_types(self, threshold: float) -> list[str]:
        return [page_type_of(0 if c >= threshold else None, (1,) if lst else ())
                for c, lst in zip(self.top_cont.tolist(), self.has_list.tolist())]


def decide(model: NodeModel, pages: list[PageRows]) -> Decisions:
    top, lists, aggregates = [], [], []
    for page in pages:
        proba = model.probabilities(page.table)
        rows = _Rows(page.parent, page.end)
        found = list_subtrees(rows, proba, MIN_LIST_NODES)
        top.append(float(proba[:, 1].max()) if len(proba) else 0.0)
        lists.append(bool(found))
        aggregates.append(page_aggregates(page.table, proba, rows, found))
    return Decisions(np.asarray(top), np.asarray(lists, dtype=bool), np.vstack(aggregates))


def page_type_table(pages: list[PageRows], predicted: list[str]) -> dict:
    """Accuracy (listmetrics' rule: ``nonarticle`` is right as list or other), article recall and
    the confusion counts gold → predicted."""
    from evaluation.listmetrics import page_type_correct

    right = [page_type_correct(p, g.page_type) for g, p in zip(pages, predicted)]
    articles = [p == "article" for g, p in zip(pages, predicted) if g.page_type == "article"]
    confusion: dict[str, Counter] = {}
    for g, p in zip(pages, predicted):
        confusion.setdefault(g.page_type, Counter())[p] += 1
    return {"accuracy": round(float(np.mean(right)), 4) if right else None, "pages": len(right),
            "article_recall": round(float(np.mean(articles)), 4) if articles else None,
            "confusion": {g: dict(sorted(c.items())) for g, c in sorted(confusion.items())}}


def choose_threshold(model: NodeModel, pages: list[PageRows]) -> float:
    """The value of :data:`THRESHOLDS` with the best page-type accuracy on ``pages`` (training
    sites only), article recall breaking ties, then the lower value."""
    decisions = decide(model, pages)
    best = max(THRESHOLDS, key=lambda t: (
        page_type_table(pages, decisions.page_types(t))["accuracy"] or 0.0,
        page_type_table(pages, decisions.page_types(t))["article_recall"] or 0.0, -t))
    return float(best)


def node_scores(model: NodeModel, pages: list[PageRows]) -> dict:
    """Precision, recall, F1 per class (arg-max) over the sampled rows of ``pages``."""
    truth, guess = [], []
    for page in pages:
        if len(page.picks):
            truth.append(page.labels)
            guess.append(np.argmax(model.probabilities(page.table[page.picks]), axis=1))
    if not truth:
        return {}
    t, g = np.concatenate(truth), np.concatenate(guess)
    out = {}
    for k, name in enumerate(CLASSES):
        tp, pp, ap = int(((t == k) & (g == k)).sum()), int((g == k).sum()), int((t == k).sum())
        p, r = (tp / pp if pp else 0.0), (tp / ap if ap else 0.0)
        out[name] = {"precision": round(p, 4), "recall": round(r, 4),
                     "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "support": ap}
    return out


def evaluate(model: NodeModel, pages: list[PageRows]) -> dict:
    held = [p for p in pages if is_validation(p.site)]
    decisions = decide(model, held)
    out = {"nodes": node_scores(model, held)}
    rules = {"page_type_paper_rule": decisions.page_types(model.cont_threshold)}
    if model.page_rule is not None:
        rules["page_type"] = model.page_rule.page_types(decisions.aggregates)
    for key, predicted in rules.items():
        per_set = {name: page_type_table([p for p in held if p.dataset == name],
                                         [t for p, t in zip(held, predicted) if p.dataset == name])
                   for name in sorted({p.dataset for p in held})}
        out[key] = {"all": page_type_table(held, predicted), **per_set}
    return out


def print_scores(label: str, scores: dict) -> None:
    print(f"\n{label}: node classes on the validation sites (sampled rows, arg-max)")
    print("| class | precision | recall | F1 | rows |\n|---|---|---|---|---|")
    for name, s in scores["nodes"].items():
        print(f"| {name} | {s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} | {s['support']} |")
    for key in ("page_type_paper_rule", "page_type"):
        if key not in scores:
            continue
        print(f"{label}: page type on the validation sites, {key.replace('_', ' ')}")
        print("| set | accuracy | article recall | pages | confusion (gold: predicted) |\n"
              "|---|---|---|---|---|")
        for name, s in scores[key].items():
            recall = "-" if s["article_recall"] is None else f"{s['article_recall']:.3f}"
            print(f"| {name} | {s['accuracy']:.3f} | {recall} | {s['pages']} | {s['confusion']} |")
