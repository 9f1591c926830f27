"""DWSIE's page stage: the page type from the classified nodes, by a learned rule over page aggregates.

Paper 002's rule (:func:`extractors.dwsie.page_type_of`: a content node → article, else a list
subtree → list, else other) reads one bit per class. On wcxb_dev it cannot tell an article from a
product, service, forum or documentation page (all have a content node) and loses every list page
whose list nodes the network half-recognises. This stage keeps the network and replaces the two
bits by :data:`AGGREGATES` of the same classification (the highest ``cont`` and ``LN``
probabilities, the list subtrees' size and share of the page's text, the content node's share) plus
the page's own declarations (:data:`extractors.dwsie.PAGE_SIGNALS`), read by a multinomial logistic
regression trained by ``newscrawl train dwsie`` on the training sites. ``article`` wins when its
probability reaches ``article_threshold`` (chosen for article recall: a typed list loses its
body), else the likelier of list and other. Both rules are measured side by side (docs).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["AGGREGATES", "PAGE_TYPES", "PageRule", "page_aggregates"]

PAGE_TYPES = ("article", "list", "other")
AGGREGATES = ("top_cont", "top_LN", "list_items", "lists", "list_text_share", "content_share",
              "page_IL", "page_links", "og_article", "published_meta", "ld_article",
              "ld_not_article", "time_elements", "author_marks")


def page_aggregates(table: np.ndarray, proba: np.ndarray, nodes, lists: tuple) -> np.ndarray:
    """The :data:`AGGREGATES` of one classified page (``table``: its unscaled feature rows,
    :func:`extractors.dwsie.page_features`; ``nodes``: anything with ``end``)."""
    from extractors.dwsie import FEATURES, PAGE_SIGNALS

    il = table[:, FEATURES.index("IL")]
    page_il = max(float(il[0]), 1.0) if len(il) else 1.0
    items = [row for _parent, rows in lists for row in rows]
    best = int(np.argmax(proba[:, 1])) if len(proba) else 0
    signals = table[0, len(FEATURES) - len(PAGE_SIGNALS):] if len(table) else np.zeros(6)
    return np.array([
        float(proba[:, 1].max()) if len(proba) else 0.0,
        float(proba[:, 0].max()) if len(proba) else 0.0,
        np.log1p(max((len(rows) for _p, rows in lists), default=0)),
        np.log1p(len(lists)),
        float(il[items].sum()) / page_il if items else 0.0,
        float(il[best]) / page_il if len(il) else 0.0,
        np.log1p(page_il),
        np.log1p(table[0, FEATURES.index("links")]) if len(table) else 0.0,
        *signals[:4], np.log1p(signals[4]), np.log1p(signals[5]),
    ])


@dataclass(frozen=True, slots=True)
class PageRule:
    """Min-max bounds, the logistic regression's weights (rows: :data:`PAGE_TYPES`), the article
    threshold."""

    low: np.ndarray
    span: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    article_threshold: float

    def probabilities(self, aggregates: np.ndarray) -> np.ndarray:
        x = np.clip((np.atleast_2d(aggregates) - self.low) / self.span, 0.0, 1.0)
        z = x @ self.coef.T + self.intercept
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def page_types(self, aggregates: np.ndarray, threshold: float | None = None) -> list[str]:
        p = self.probabilities(aggregates)
        cut = self.article_threshold if threshold is None else threshold
        rest = np.where(p[:, 1] >= p[:, 2], "list", "other")
        return [("article" if a >= cut else r) for a, r in zip(p[:, 0].tolist(), rest.tolist())]

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"page_low": self.low, "page_span": self.span, "page_coef": self.coef,
                "page_intercept": self.intercept}

    @classmethod
    def from_arrays(cls, arrays: dict, threshold: float) -> PageRule | None:
        if "page_coef" not in arrays:
            return None
        return cls(arrays["page_low"], arrays["page_span"], arrays["page_coef"],
                   arrays["page_intercept"], threshold)
