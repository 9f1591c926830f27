"""DWSIE (paper 002): node classes list node / content node / other, and the page type they give.

Every element of the node table gets a feature row (:func:`node_features`), is scaled by min-max
bounds fitted on the training data and run through a small neural network (weights exported from
scikit-learn's ``MLPClassifier`` by ``newscrawl train dwsie``, applied here in numpy). The page type
follows the paper's rule (algorithms.md section 3): a content node makes the page an article, else
a list subtree (a parent with :data:`MIN_LIST_NODES` or more list-node children) makes it a list,
else it is ``other``.

Features. The paper's five, per element: ``IL`` (information length: words of the subtree's text,
a CJK character counting as one word; counted per text segment of the node table, so
``<b>a</b>b`` is two words), ``depth``, ``SC`` (element children), ``mean_IL`` and
``var_IL`` (mean and variance of the children's ``IL``). :data:`EXTRA_FEATURES` are ours, kept
because they raise the validation scores (the trainer prints both sets side by side): link share,
share of the page's text, links, paragraphs, the children's mean link share, how uniform the
children's tags are, the siblings', and a few tag indicators. Counts enter the network as
``log1p`` (``IL`` and friends span five orders of magnitude; the paper's raw values are kept for
the paper-only model).

>>> from extractors.page import parse_page
>>> page = parse_page("<html><body><div><p>Rain fell on the town all day.</p>"
...                   "<p>大雨</p></div></body></html>")
>>> table = node_features(page.nodes)
>>> table[:, :5].tolist()  # body, div, p, p: IL, depth, SC, mean_IL, var_IL
[[9.0, 0.0, 1.0, 9.0, 0.0], [9.0, 1.0, 2.0, 4.5, 6.25], [7.0, 2.0, 0.0, 0.0, 0.0], [2.0, 2.0, 0.0, 0.0, 0.0]]
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from extractors.dwsie_pagetype import PageRule, page_aggregates
from extractors.modelio import load_model
from extractors.nodetable import NodeTable, _subtree_sum
from extractors.page import Page

__all__ = ["CLASSES", "FEATURES", "MODEL_NAME", "NodeClasses", "NodeModel", "classify_nodes",
           "default_node_model", "load_node_model", "node_features", "page_features", "page_type_of"]

MODEL_NAME = "dwsie"
#: Output classes of the node network, in column order (paper 002, figure 2).
CLASSES = ("LN", "cont", "other")
PAPER_FEATURES = ("IL", "depth", "SC", "mean_IL", "var_IL")
_TAG_FLAGS = ("a", "li", "ul|ol", "p", "div", "article|section|main", "table|tbody|tr|td",
              "h1|h2|h3|h4|h5|h6", "nav|header|footer|aside")
EXTRA_FEATURES = ("link_share", "page_share", "links", "paragraphs", "child_link_share",
                  "child_tag_uniformity", "siblings", "sibling_tag_share", "own_IL",
                  *(f"tag:{t}" for t in _TAG_FLAGS))
#: Page-level signals, the same on every row of a page: what the page declares about itself. The
#: paper's rule types every page with a content node as an article; wcxb_dev's ``other`` pages
#: (products, services, forums, documentation) have one too, and only these tell them apart.
PAGE_SIGNALS = ("page:og_article", "page:published_meta", "page:ld_article", "page:ld_not_article",
                "page:time_elements", "page:author_marks")
FEATURES = PAPER_FEATURES + EXTRA_FEATURES + PAGE_SIGNALS
#: Columns passed through ``log1p`` before scaling in the extended model (counts).
LOG_COLUMNS = ("IL", "SC", "mean_IL", "var_IL", "links", "paragraphs", "siblings", "own_IL",
               "page:time_elements", "page:author_marks")
#: A node is a content node when the network gives ``cont`` at least this probability. Paper 002
#: takes the arg-max; this is the trainer's choice on the *training* sites (the value with the best
#: page-type accuracy there, ties to the lower), written to the card and read from it.
DEFAULT_CONT_THRESHOLD = 0.5
#: List-node children a parent needs to be a list subtree (paper 002 gives no number; a list of
#: one or two items is not told apart from a heading and a teaser). Calibrated with the threshold.
MIN_LIST_NODES = 3
_PUBLISHED_KEYS = frozenset(("article:published_time", "datepublished", "pubdate", "publishdate",
                             "dc.date", "dc.date.issued", "sailthru.date", "parsely-pub-date",
                             "og:published_time", "article.published"))
_LD_ARTICLE = re.compile(r'"@type"\s*:\s*\[?[^\]]*?"(?:News|Blog|Report|Tech|Scholarly)?'
                         r'(?:Article|BlogPosting|LiveBlogPosting)"')
_LD_NOT_ARTICLE = re.compile(r'"@type"\s*:\s*\[?[^\]]*?"(?:Product|QAPage|FAQPage|'
                             r'DiscussionForumPosting|SoftwareApplication|Course|Service|Offer|'
                             r'CollectionPage|ItemList|SearchResultsPage)"')
_AUTHOR_MARK = re.compile(r"author|byline", re.IGNORECASE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_WORDS = re.compile(r"[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")


def information_length(text: str) -> int:
    """``IL`` of a text: its words, a CJK character counting as one (paper 002, 2.1).

    >>> information_length("Rain in Köln, 北京 2024")
    6
    """
    return len(_CJK.findall(text)) + len(_WORDS.findall(text))


def page_features(page: Page) -> np.ndarray:
    """:func:`node_features` of the page's table, its :func:`page_signals` on every row."""
    table = node_features(page.nodes)
    table[:, len(FEATURES) - len(PAGE_SIGNALS):] = page_signals(page)
    return table


def page_signals(page: Page) -> np.ndarray:
    """The values of :data:`PAGE_SIGNALS`: og:type article, a published-date meta, JSON-LD typed
    as an article or as something else, ``<time>`` elements and author/byline-marked elements."""
    og = published = False
    for meta in page.root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        og |= key == "og:type" and "article" in (meta.get("content") or "").lower()
        published |= key in _PUBLISHED_KEYS
    ld = "\n".join(page.ld_json)
    nodes = page.nodes
    times = sum(1 for tag in nodes.tag if tag == "time")
    marks = sum(1 for c, i in zip(nodes.classes, nodes.ident) if _AUTHOR_MARK.search(c + " " + i))
    return np.array([og, published, bool(_LD_ARTICLE.search(ld)),
                     bool(_LD_NOT_ARTICLE.search(ld)), times, marks], dtype=np.float64)


def node_features(nodes: NodeTable) -> np.ndarray:
    """A float64 ``(rows, len(FEATURES))`` table, unscaled, in the order of :data:`FEATURES`
    (the page signals left 0: :func:`page_features` fills them)."""
    n = len(nodes)
    seg_il = np.fromiter(map(information_length, nodes.seg_text), dtype=np.float64,
                         count=len(nodes.seg_text))
    il = _segment_sum(seg_il, nodes)
    link_il = _segment_sum(seg_il * nodes.seg_in_link, nodes)
    has_parent = nodes.parent >= 0
    parent = nodes.parent[has_parent]
    sc = nodes.n_children.astype(np.float64)
    safe_sc = np.maximum(sc, 1.0)
    mean_il = np.bincount(parent, weights=il[has_parent], minlength=n) / safe_sc
    var_il = np.bincount(parent, weights=il[has_parent] ** 2, minlength=n) / safe_sc - mean_il ** 2
    link_share = np.divide(link_il, il, out=np.zeros(n), where=il > 0)
    page_share = il / il[0] if n and il[0] > 0 else np.zeros(n)
    tags = np.asarray(nodes.tag, dtype=object)
    is_p = (tags == "p").astype(np.float64)
    paragraphs = _subtree_sum(is_p, nodes.end)
    child_link = np.bincount(parent, weights=link_share[has_parent], minlength=n) / safe_sc
    tag_ids = np.unique(tags.astype(str), return_inverse=True)[1].ravel()
    same_tag = _same_tag_counts(nodes.parent, tag_ids)
    mode = np.zeros(n)
    np.maximum.at(mode, parent, same_tag[has_parent])
    uniformity = mode / safe_sc
    siblings = np.zeros(n)
    siblings[has_parent] = sc[parent]
    sibling_share = np.zeros(n)
    sibling_share[has_parent] = same_tag[has_parent] / safe_sc[parent]
    own_il = np.bincount(nodes.seg_owner, weights=seg_il, minlength=n) if len(seg_il) else np.zeros(n)
    flags = [np.isin(tags, group.split("|")).astype(np.float64) for group in _TAG_FLAGS]
    columns = [il, nodes.depth.astype(np.float64), sc, mean_il, np.maximum(var_il, 0.0),
               link_share, page_share, nodes.links.astype(np.float64), paragraphs, child_link,
               uniformity, siblings, sibling_share, own_il, *flags,
               *(np.zeros(n) for _ in PAGE_SIGNALS)]
    return np.column_stack(columns) if n else np.zeros((0, len(FEATURES)))


def _segment_sum(values: np.ndarray, nodes: NodeTable) -> np.ndarray:
    csum = np.concatenate(([0.0], np.cumsum(values)))
    return csum[nodes.seg_hi] - csum[nodes.seg_lo]


def _same_tag_counts(parent: np.ndarray, tag_ids: np.ndarray) -> np.ndarray:
    """Per row: how many children of its parent (itself included) share its tag (0 for the root)."""
    key = (parent.astype(np.int64) + 1) * (int(tag_ids.max(initial=0)) + 1) + tag_ids
    _, inverse, counts = np.unique(key, return_inverse=True, return_counts=True)
    out = counts[inverse.ravel()].astype(np.float64)
    out[parent < 0] = 0.0
    return out


@functools.cache
def _blas_controller():
    """threadpoolctl's view of the BLAS libraries numpy loaded (made once: it reads the
    process's loaded libraries)."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


def _one_blas_thread():
    """A context in which numpy's BLAS (OpenBLAS here) runs on one thread, the thread count
    before it restored after.

    The network's products (a page's rows x 29 features, then 32 and 16 units) are large enough
    for OpenBLAS to split them over its threads (one per core), and on a machine whose cores
    are taken by other processes (the crawl's workers, the service's pool: each a process of
    its own, one page at a time) its threads wait for one another: :meth:`NodeModel.probabilities`
    in CPU, alternated per page, best of 3, mean over big9's / aeb's / cx_163's / wcxb_dev's
    first 80 pages (load 6.5-7): 0.226 -> 0.241 / 0.258 -> 0.227 / 2.83 -> 0.45 / 2.66 -> 0.44
    ms (median 0.22 -> 0.24, 0.19 -> 0.21, 0.60 -> 0.46, 0.29 -> 0.32: the switch costs
    ~0.015 ms); :func:`extractors.pageinfo.page_info` (the network on every page) 38.6 -> 23.8
    ms on cx_163's median page. The probabilities are bit for bit the same on all 314 pages
    (OpenBLAS's threaded product divides the output between its threads). Per call, not
    for the process: other numpy code in the process keeps its threads. Two threads of one
    process in this context at once may leave BLAS at one thread after them, which changes no
    result either."""
    return _blas_controller().limit(limits=1, user_api="blas")


@dataclass(frozen=True, slots=True)
class NodeModel:
    """The node network: which features, their transform and min-max bounds, the layers."""

    features: tuple[str, ...]
    log_columns: tuple[str, ...]
    low: np.ndarray
    span: np.ndarray
    weights: tuple[np.ndarray, ...]
    biases: tuple[np.ndarray, ...]
    cont_threshold: float = DEFAULT_CONT_THRESHOLD
    min_list_nodes: int = MIN_LIST_NODES
    #: The learned page stage (:mod:`extractors.dwsie_pagetype`); None: the paper's rule.
    page_rule: PageRule | None = None

    def columns(self, table: np.ndarray) -> np.ndarray:
        """The model's columns of ``table``, ``log1p`` where listed (before scaling)."""
        x = table[:, [FEATURES.index(name) for name in self.features]].copy()
        for k, name in enumerate(self.features):
            if name in self.log_columns:
                x[:, k] = np.log1p(np.maximum(x[:, k], 0.0))
        return x

    def design(self, table: np.ndarray) -> np.ndarray:
        """The network's input: :meth:`columns` scaled by the training data's min-max bounds and
        clipped to [0, 1], the range seen in training."""
        return np.clip((self.columns(table) - self.low) / self.span, 0.0, 1.0)

    def probabilities(self, table: np.ndarray) -> np.ndarray:
        """``(rows, 3)`` class probabilities in the order of :data:`CLASSES` (ReLU hidden layers,
        softmax output: what ``MLPClassifier.predict_proba`` computes). The matrix products run
        on one BLAS thread (:func:`_one_blas_thread`)."""
        h = self.design(table)
        with _one_blas_thread():
            for w, b in zip(self.weights[:-1], self.biases[:-1]):
                h = np.maximum(h @ w + b, 0.0)
            z = h @ self.weights[-1] + self.biases[-1]
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(axis=1, keepdims=True)

    def to_arrays(self) -> dict[str, np.ndarray]:
        arrays = {"low": self.low, "span": self.span}
        for k, (w, b) in enumerate(zip(self.weights, self.biases)):
            arrays[f"w{k}"], arrays[f"b{k}"] = w, b
        if self.page_rule is not None:
            arrays.update(self.page_rule.to_arrays())
        return arrays

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], card: dict) -> NodeModel:
        layers = len([k for k in arrays if k.startswith("w")])
        decision = card.get("decision", {})
        return cls(tuple(card["features"]), tuple(card.get("log_columns", ())),
                   arrays["low"], arrays["span"],
                   tuple(arrays[f"w{k}"] for k in range(layers)),
                   tuple(arrays[f"b{k}"] for k in range(layers)),
                   float(decision.get("cont_threshold", DEFAULT_CONT_THRESHOLD)),
                   int(decision.get("min_list_nodes", MIN_LIST_NODES)),
                   PageRule.from_arrays(arrays, float(decision.get("article_threshold", 0.5))))


def load_node_model(folder: str | Path | None = None) -> NodeModel:
    """The node network saved in ``folder`` (None: the one shipped in the package).
    Raises :class:`extractors.modelio.ModelError` naming the file when it is missing or broken."""
    loaded = load_model(folder, MODEL_NAME)
    return NodeModel.from_arrays(loaded.arrays, loaded.card)


@functools.cache
def default_node_model() -> NodeModel:
    """The shipped node network, loaded once per process (as :func:`extractors.svm_fields.default_model`)."""
    return load_node_model(None)


@dataclass(frozen=True, slots=True)
class NodeClasses:
    """The classified page: per-row probabilities, content node, list subtrees, page type."""

    probabilities: np.ndarray        # (rows, 3), columns as CLASSES
    content: int | None              # the most probable content node, if any passes the threshold
    lists: tuple[tuple[int, tuple[int, ...]], ...]  # (parent row, its list-node children)
    page_type: str                   # article / list / other: the page rule's, else the paper's
    paper_page_type: str             # the paper's rule (content node, else list subtree)


def classify_nodes(page: Page, model: NodeModel) -> NodeClasses:
    """Run the network over every row; the page type by the model's page rule (the paper's rule
    when it has none), the paper's rule's type beside it."""
    nodes = page.nodes
    if not len(nodes):
        return NodeClasses(np.zeros((0, 3)), None, (), "other", "other")
    table = page_features(page)
    proba = model.probabilities(table)
    cont = proba[:, 1]
    best = int(np.argmax(cont))
    content = best if cont[best] >= model.cont_threshold else None
    lists = list_subtrees(nodes, proba, model.min_list_nodes)
    paper = page_type_of(content, lists)
    kind = paper
    if model.page_rule is not None:
        kind = model.page_rule.page_types(page_aggregates(table, proba, nodes, lists))[0]
    return NodeClasses(proba, content, lists, kind, paper)


def list_subtrees(nodes: NodeTable, proba: np.ndarray, min_nodes: int
                  ) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Parents with at least ``min_nodes`` children classified ``LN`` (arg-max), largest first;
    a list nested in another list's node is dropped (its items belong to that record)."""
    is_ln = (np.argmax(proba, axis=1) == 0) & (nodes.parent >= 0)
    rows = np.flatnonzero(is_ln)
    parents = nodes.parent[rows]
    counts = np.bincount(parents, minlength=len(nodes)) if len(rows) else np.zeros(len(nodes), int)
    found = []
    for parent in np.flatnonzero(counts >= min_nodes).tolist():
        found.append((parent, tuple(rows[parents == parent].tolist())))
    kept = [(p, items) for p, items in found
            if not any(q != p and any(i < p <= nodes.end[i] for i in others)
                       for q, others in found)]
    return tuple(sorted(kept, key=lambda entry: -len(entry[1])))


def page_type_of(content: int | None, lists: tuple) -> str:
    """Paper 002, 2.1: a content node → ``article``; else a list subtree → ``list``; else
    ``other`` (the paper's ``Unknown``)."""
    if content is not None:
        return "article"
    return "list" if lists else "other"
