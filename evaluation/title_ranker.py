"""A learned ranker over title candidates, measured against the hand rule of
:mod:`extractors.title` (issue 9; docs/evaluation.md, "Titles: a learned candidate ranker").

This is an experiment, not a shipped model: on the sites the models never train on
(:func:`evaluation.datasets.is_validation`) no variant beat the hand rule on every set, so the
chain keeps the rule. The module stays so the figures can be rebuilt::

    python -m evaluation.title_ranker trafilatura_eval wcxb_dev readability_testpages gne

For each page with a gold title, every candidate the page offers (:func:`title_candidates`: the
declared titles as they stand and less their site part, the ``<h1>``/``<h2>`` headings the rule
reads, and the rule's own answer) is a row of :data:`FEATURES`; a candidate is right when
:func:`evaluation.fieldmetrics.title_match` says it is the gold. A page's pick is its candidate
with the highest score ``x @ w`` (one dot product: what a shipped model would cost). Variants:

- ``candidate``: scikit-learn's ``LogisticRegression`` on the rows, each page weighing 1;
- ``listwise``: a conditional logit (softmax over a page's candidates, the likelihood of picking a
  right one, L2 penalty), fitted with SciPy's L-BFGS (SciPy comes with scikit-learn): it learns
  what beats what on one page rather than what is right anywhere;
- ``listwise+margin``: the listwise pick only where its score beats the rule's candidate by a
  margin chosen on the training sites (cross-validated), else the rule's answer;
- ``trees``: scikit-learn's ``HistGradientBoostingClassifier`` on the rows, a non-linear check of
  how much the features hold (no dot product).

Each with pages weighing the same or every set weighing the same (``sets``). Training: the pages
of trafilatura_eval, wcxb_dev and readability_testpages (gne is GPL-3.0, test input only) on the
training sites; scores: by site in :data:`FOLDS` folds on the training sites
(``crc32("cv:" + site) % 5``), and on the held-out sites, per set, as pages right and pages
gained/lost against the rule.
"""

from __future__ import annotations

import argparse
import logging
import sys
import zlib
from collections import Counter
from urllib.parse import urlsplit

import numpy as np

from extractors.metadata import Metadata
from extractors.page import Page
from extractors.title import (GENERIC_TITLES, _TITLE_SPLIT, _clean, _declared, _fold,
                              _heading_rows, _key, _names_site, _spells_host, domain_names,
                              is_article_like, site_names, strip_site_name, words)

__all__ = ["FEATURES", "title_candidates"]

logger = logging.getLogger(__name__)

TRAIN_SETS = ("trafilatura_eval", "wcxb_dev", "readability_testpages")
FOLDS = 5
MARGINS = (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
#: Declared sources, in :func:`extractors.title.declared_titles`' order of trust.
DECLARED_KINDS = ("jsonld", "microdata", "opengraph", "twitter", "title_tag")
FEATURES = (
    # where the candidate comes from (a candidate several sources spell has several set)
    "jsonld", "microdata", "opengraph", "twitter", "title_tag",
    "jsonld_cut", "opengraph_cut", "title_tag_cut",
    "h1", "h1_first", "h2", "h2_first", "lone_h1",
    "rule",
    # the candidate itself
    "log_words", "chars_rel", "n_sources", "contained_in", "contains", "is_link", "spells_host",
    "names_site", "generic", "has_separator", "whole_cut_differs",
    # the page, and the page crossed with the candidate
    "article_like", "n_h1", "article_like_h1", "article_like_declared_whole",
    "article_like_cut",
    # the candidate against the URL's path and the hand rule's pick
    "slug_share", "slug_cover", "slug_best", "h1_rule_declared", "declared_rule_heading",
    "contains_rule", "in_rule",
)
_INDEX = {name: i for i, name in enumerate(FEATURES)}
_PLAIN_FLAGS = frozenset(FEATURES)
_NOT_SOURCES = frozenset({"rule", "h1_first", "h2_first", "lone_h1", "any_cut",
                          "whole_cut_differs"})


def title_candidates(page: Page, meta: Metadata, rule: str | None
                     ) -> tuple[list[str], np.ndarray]:
    """The page's title candidates and their :data:`FEATURES` rows: every declared title as it
    stands and less its site part (:func:`extractors.title.strip_site_name`), the headings the
    rule reads, and the rule's answer ``rule``. Candidates that are one text after the rule's
    own normalisation are one row with the flags of all their sources."""
    host_names = domain_names(page.url)
    sites = site_names(meta) | host_names
    texts: dict[str, str] = {}
    flags: dict[str, set[str]] = {}
    links: set[str] = set()

    def add(text: str, flag: str) -> str | None:
        text = _clean(text)
        key = _key(_fold(text))
        if not key:
            return None
        texts.setdefault(key, text)
        flags.setdefault(key, set()).add(flag)
        return key

    for text, kind in _declared(meta):
        whole = add(text, kind)
        cut = strip_site_name(text, sites)
        if whole and _key(cut) != _key(text):
            key = add(cut, f"{kind}_cut" if f"{kind}_cut" in _PLAIN_FLAGS else "declared_cut")
            if key:
                flags[key].add("any_cut")
            flags[whole].add("whole_cut_differs")
    rows = _heading_rows(page, sites, links=True)
    h1 = [(text, link) for tag, text, link in rows if tag == "h1"]
    for tag in ("h1", "h2"):
        first = True
        for row_tag, text, link in rows:
            key = add(text, tag) if row_tag == tag else None
            if key is None:
                continue
            if first:
                flags[key].add(f"{tag}_first")
                first = False
            if link:
                links.add(key)
    if len(h1) == 1 and not h1[0][1]:
        key = _key(_fold(h1[0][0]))
        if key in flags:
            flags[key].add("lone_h1")
    if rule:
        add(rule, "rule")
    keys = list(texts)
    x = np.zeros((len(keys), len(FEATURES)))
    if not keys:
        return [], x
    article = 1.0 if is_article_like(meta) else 0.0
    longest = max(len(k) for k in keys)
    slug = set(words(urlsplit(page.url or "").path))
    rule_key = _key(_fold(rule)) if rule else ""
    rule_heading = bool(rule_key) and bool(flags.get(rule_key, set()) & {"h1", "h2"})
    for row, key in enumerate(keys):
        f, text, v = flags[key], texts[key], x[row]
        for name in f & _PLAIN_FLAGS:
            v[_INDEX[name]] = 1.0
        declared_whole = any(k in f for k in DECLARED_KINDS)
        text_words = words(text)
        v[_INDEX["log_words"]] = np.log1p(len(text.split()))
        v[_INDEX["chars_rel"]] = len(key) / longest
        v[_INDEX["n_sources"]] = len(f - _NOT_SOURCES)
        v[_INDEX["contained_in"]] = min(3, sum(key in other for other in keys if other != key))
        v[_INDEX["contains"]] = min(3, sum(other in key for other in keys if other != key))
        v[_INDEX["is_link"]] = float(key in links)
        v[_INDEX["spells_host"]] = float(_spells_host(text, host_names))
        v[_INDEX["names_site"]] = float(_names_site(text, sites))
        v[_INDEX["generic"]] = float(key in GENERIC_TITLES)
        v[_INDEX["has_separator"]] = float(bool(_TITLE_SPLIT.search(text)))
        v[_INDEX["article_like"]] = article
        v[_INDEX["n_h1"]] = min(3, len(h1))
        v[_INDEX["article_like_h1"]] = article * ("h1" in f)
        v[_INDEX["article_like_declared_whole"]] = article * declared_whole
        v[_INDEX["article_like_cut"]] = article * ("any_cut" in f)
        if slug and text_words:
            v[_INDEX["slug_share"]] = sum(w in slug for w in text_words) / len(text_words)
            v[_INDEX["slug_cover"]] = len(slug & set(text_words)) / len(slug)
        v[_INDEX["h1_rule_declared"]] = float("h1" in f and bool(rule_key) and not rule_heading)
        v[_INDEX["declared_rule_heading"]] = float(declared_whole or "any_cut" in f) * rule_heading
        v[_INDEX["contains_rule"]] = float(bool(rule_key) and rule_key != key and rule_key in key)
        v[_INDEX["in_rule"]] = float(bool(rule_key) and rule_key != key and key in rule_key)
    share = x[:, _INDEX["slug_share"]]
    if share.max() > 0:
        x[:, _INDEX["slug_best"]] = share == share.max()
    return [texts[k] for k in keys], x


def read_rows(names: list[str], limit: int | None) -> list[dict]:
    """One row per page with a gold title: set, site, held out or not, the chain's title and
    whether it is right, the candidates' texts, features and labels."""
    from evaluation.datasets import is_validation, load_dataset, site_of
    from evaluation.fieldmetrics import title_match
    from evaluation.training.corpus import dataset_folders, parsed_pages
    from extractors import extract
    from extractors.metadata import read_metadata

    folders = dataset_folders(names, "title_ranker")
    if folders is None:
        raise SystemExit(2)
    rows = []
    for folder in folders:
        dataset = load_dataset(folder, limit=limit, only="title")
        for gold_page, page in parsed_pages(dataset, Counter(), lambda g: True):
            gold = gold_page.gold["title"]
            chain = extract(page).fields.title  # the rule's answer, as `newscrawl eval` scores it
            texts, x = title_candidates(page, read_metadata(page), chain)
            site = site_of(gold_page.gold)
            rows.append({"set": dataset.name, "site": site, "held_out": is_validation(site),
                         "rule_ok": title_match(chain, gold), "x": x,
                         "y": np.array([title_match(t, gold) for t in texts], bool)})
        logger.info("%s: %d pages", dataset.name, sum(r["set"] == dataset.name for r in rows))
    return rows


def _weights(rows: list[dict], per: str) -> np.ndarray:
    sizes = Counter(r["set"] for r in rows)
    if per == "sets":
        return np.array([len(rows) / (len(sizes) * sizes[r["set"]]) for r in rows])
    return np.ones(len(rows))


def _informative(rows: list[dict]) -> list[dict]:
    """Pages where some candidate is right and some is wrong (the others teach no choice)."""
    return [r for r in rows if r["y"].any() and not r["y"].all()]


def fit_candidate(rows: list[dict], per: str, c: float = 1.0) -> np.ndarray:
    from sklearn.linear_model import LogisticRegression

    rows = _informative(rows)
    weight = _weights(rows, per)
    x = np.vstack([r["x"] for r in rows])
    y = np.concatenate([r["y"] for r in rows])
    w = np.concatenate([np.full(len(r["y"]), wt / len(r["y"])) for r, wt in zip(rows, weight)])
    fitted = LogisticRegression(C=c, max_iter=2000).fit(x, y, sample_weight=w * len(w) / w.sum())
    return fitted.coef_[0]


def fit_listwise(rows: list[dict], per: str, l2: float = 1.0) -> np.ndarray:
    from scipy.optimize import minimize

    rows = _informative(rows)
    weight = _weights(rows, per)
    weight = weight / weight.sum()
    dims = len(FEATURES)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = 0.0, np.zeros(dims)
        for r, wt in zip(rows, weight):
            s = r["x"] @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            right = p[r["y"]].sum()
            total -= wt * np.log(max(right, 1e-300))
            q = np.where(r["y"], p, 0.0) / max(right, 1e-300)
            grad += wt * ((p - q) @ r["x"])
        penalty = l2 / len(rows)
        return total + 0.5 * penalty * (w @ w), grad + penalty * w

    return minimize(loss, np.zeros(dims), jac=True, method="L-BFGS-B").x


def fit_trees(rows: list[dict], per: str):
    from sklearn.ensemble import HistGradientBoostingClassifier

    rows = _informative(rows)
    weight = _weights(rows, per)
    x = np.vstack([r["x"] for r in rows])
    y = np.concatenate([r["y"] for r in rows])
    w = np.concatenate([np.full(len(r["y"]), wt / len(r["y"])) for r, wt in zip(rows, weight)])
    fitted = HistGradientBoostingClassifier(max_depth=4, max_iter=200, learning_rate=0.05,
                                            min_samples_leaf=20, random_state=0)
    return fitted.fit(x, y, sample_weight=w * len(w) / w.sum())


def _scores(model, r: dict) -> np.ndarray:
    if isinstance(model, np.ndarray):
        return r["x"] @ model
    return model.predict_proba(r["x"])[:, 1]


def right(model, r: dict, margin: float | None = None) -> bool:
    """Whether the model's pick on page ``r`` is right; with ``margin``, the rule's answer stands
    unless the pick's score beats the rule candidate's by ``margin``."""
    if not len(r["y"]):
        return False
    s = _scores(model, r)
    top = int(np.argmax(s))
    if margin is not None:
        rule = np.flatnonzero(r["x"][:, _INDEX["rule"]] == 1)
        if len(rule) and s[top] - s[rule[0]] < margin:
            return r["rule_ok"]
    return bool(r["y"][top])


def _fold_of(site: str) -> int:
    return zlib.crc32(("cv:" + site).encode()) % FOLDS


def compare(model_of, rows: list[dict], sets: list[str], margin_of=None) -> dict:
    """Per set, (pages, rule right, model right, gained, lost) cross-validated by site on the
    training sites (``cv``) and on the held-out sites (``held_out``). ``model_of(rows)`` fits;
    ``margin_of(models, train)`` picks a margin from the cross-validated fits."""
    train = [r for r in rows if not r["held_out"] and r["set"] in TRAIN_SETS]
    folds = {k: model_of([r for r in train if _fold_of(r["site"]) != k]) for k in range(FOLDS)}
    margin = margin_of(folds, train) if margin_of else None
    final = model_of(train)
    table = {"margin": margin}
    for split in ("cv", "held_out"):
        for name in sets:
            if split == "cv":
                part = [(folds[_fold_of(r["site"])], r) for r in train if r["set"] == name]
            else:
                part = [(final, r) for r in rows if r["held_out"] and r["set"] == name]
            if not part:
                continue
            ours = [right(m, r, margin) for m, r in part]
            rule = [r["rule_ok"] for _, r in part]
            table[(split, name)] = (len(part), sum(rule), sum(ours),
                                    sum(a and not b for a, b in zip(ours, rule)),
                                    sum(b and not a for a, b in zip(ours, rule)))
    return table


def cv_margin(folds: dict, train: list[dict]) -> float:
    """The margin of :data:`MARGINS` with the most training pages right (cross-validated) among
    those where no set loses pages against the rule; the largest margin when none."""
    best = (False, -1, MARGINS[-1])
    for margin in MARGINS:
        net = Counter()
        for r in train:
            net[r["set"]] += right(folds[_fold_of(r["site"])], r, margin) - r["rule_ok"]
        key = (min(net.values()) >= 0, sum(net.values()), -margin)
        if key > best[:2] + (-best[2],):
            best = (key[0], key[1], margin)
    return best[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.title_ranker", description=(
        "Train and score the learned title ranker against the hand rule (an experiment: "
        "prints the table of docs/evaluation.md, writes no model)."))
    parser.add_argument("data", nargs="+", help="dataset folders or set names under "
                        "$NEWSCRAWL_DATA (training only on trafilatura_eval, wcxb_dev, "
                        "readability_testpages)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="N pages per set, evenly spaced (a quick run)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    logging.getLogger("extractors").setLevel(logging.ERROR)
    rows = read_rows(args.data, args.limit)
    sets = list(dict.fromkeys(r["set"] for r in rows))
    print("set: pages; rule right; a right candidate exists (held-out pages in brackets)")
    for name in sets:
        part = [r for r in rows if r["set"] == name]
        held = [r for r in part if r["held_out"]]
        print(f"  {name}: {len(part)} ({len(held)}); {sum(r['rule_ok'] for r in part)} "
              f"({sum(r['rule_ok'] for r in held)}); {sum(r['y'].any() for r in part)} "
              f"({sum(r['y'].any() for r in held)})")
    variants = []
    for per in ("pages", "sets"):
        variants += [
            (f"candidate, {per}", lambda rs, per=per: fit_candidate(rs, per), None),
            (f"listwise, {per}", lambda rs, per=per: fit_listwise(rs, per), None),
            (f"listwise+margin, {per}", lambda rs, per=per: fit_listwise(rs, per), cv_margin),
            (f"trees, {per}", lambda rs, per=per: fit_trees(rs, per), None),
        ]
    print("\nvariant | split | per set: model right / rule right of pages (+gained -lost)")
    for label, model_of, margin_of in variants:
        table = compare(model_of, rows, sets, margin_of)
        for split in ("cv", "held_out"):
            cells = [f"{name} {t[2]}/{t[1]} of {t[0]} (+{t[3]} -{t[4]})"
                     for name in sets if (t := table.get((split, name)))]
            extra = f" [margin {table['margin']}]" if table["margin"] is not None else ""
            print(f"{label}{extra} | {split} | " + "; ".join(cells))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
