"""``newscrawl train pagetype``: the page model that checks the page-type heuristic
(:mod:`extractors.pagetype`).

Every page with a gold page type is run through the chain (:func:`extractors.extract`, no
sibling) and described by :data:`extractors.pagetype.FEATURES`. Two logistic regressions
(scikit-learn, ``class_weight="balanced"``, features standardised on the training pages):
article against the rest on every page with a known type (a ``nonarticle`` page is "the rest"),
then list against other on the list and other pages. Sites are split as every trainer splits them
(``crc32(site) % 5 == 0`` is validation). The article floor (the P(article) under which the
heuristic's "article" is overruled) is the highest of :data:`FLOORS` that keeps, cross-validated
by site on the training pages, at least ``--article-recall`` of the articles the heuristic
calls articles.

The validation table compares, per set, the heuristic alone and the heuristic checked by the
model; the card keeps it. Sets: :data:`DEFAULT_SETS` (every set with page types that is not
GPL: gne's pages are test input only).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from evaluation.datasets import is_validation, load_dataset, site_of
from evaluation.listmetrics import normalise_page_type, page_type_correct
from evaluation.training.corpus import dataset_folders, parsed_pages
from extractors.modelio import MODELS_DIR, save_model
from extractors.pagetype import FEATURES, MODEL_NAME, PageTypeModel

__all__ = ["add_arguments", "run"]

logger = logging.getLogger(__name__)

DEFAULT_SETS = ("wcxb_dev", "news_article_vs_nonarticle", "gerapy_listdetail",
                "readability_testpages")
FLOORS = (0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5)
ARTICLE_RECALL = 0.99
FOLDS = 5
C = 1.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", nargs="+", metavar="DIR", default=list(DEFAULT_SETS),
                        help="dataset folders, or set names under $NEWSCRAWL_DATA "
                             f"(default: {' '.join(DEFAULT_SETS)})")
    parser.add_argument("-o", "--out", type=Path, default=MODELS_DIR, metavar="MODEL_DIR",
                        help="where pagetype.npz and its card go (default: the package's models)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="read N pages per set, evenly spaced (for a quick run)")
    parser.add_argument("--article-recall", type=float, default=ARTICLE_RECALL, metavar="R",
                        help="share of the articles the heuristic calls articles that the model "
                             "must leave so (cross-validated by site on the training pages; "
                             f"default {ARTICLE_RECALL})")


def read_pages(folders: list[Path], limit: int | None) -> tuple[list[dict], dict]:
    """One row per page with a known gold type: set, site, gold, heuristic type, features."""
    from extractors import extract
    from extractors.attenuation import extract_main_text
    from extractors.pagetype import heuristic_type, page_features

    rows, sizes = [], {}
    for folder in folders:
        dataset = load_dataset(folder, limit=limit)
        size: Counter = Counter()
        typed = parsed_pages(dataset, size, lambda g: normalise_page_type(g.get("page_type")))
        for number, (gold_page, page) in enumerate(typed, 1):
            gold = normalise_page_type(gold_page.gold.get("page_type"))
            result = extract(page)
            main = extract_main_text(page)
            rows.append({"set": dataset.name, "site": site_of(gold_page.gold), "gold": gold,
                         "heuristic": heuristic_type(page, main),
                         "x": page_features(page, main.text, result.fields)})
            size[gold] += 1
            if number % 200 == 0:
                logger.info("%s: %d pages", dataset.name, number)
        sizes[dataset.name] = dict(size)
    return rows, sizes


def fit(rows: list[dict], floor: float) -> PageTypeModel:
    from sklearn.linear_model import LogisticRegression

    x = np.array([r["x"] for r in rows])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    is_article = np.array([r["gold"] == "article" for r in rows])
    first = LogisticRegression(C=C, max_iter=5000, class_weight="balanced").fit(z, is_article)
    rest = np.array([r["gold"] in ("list", "other") for r in rows])
    is_list = np.array([r["gold"] == "list" for r in rows])
    if rest.sum() and len(set(is_list[rest].tolist())) == 2:
        second = LogisticRegression(C=C, max_iter=5000, class_weight="balanced").fit(
            z[rest], is_list[rest])
        list_w, list_b = second.coef_[0], float(second.intercept_[0])
    else:  # no list/other pair to learn from: every overruled page is "other"
        list_w, list_b = np.zeros(len(FEATURES)), -50.0
    return PageTypeModel(mean, scale, first.coef_[0], float(first.intercept_[0]), list_w,
                         list_b, floor)


def predict(model: PageTypeModel, row: dict) -> str:
    return row["heuristic"] if row["heuristic"] != "article" else model.overrule(row["x"])


def choose_floor(train: list[dict], recall: float) -> float:
    """The highest floor under which at most ``1 - recall`` of the articles the heuristic calls
    articles fall (cross-validated by site on the training pages): the share of the heuristic's
    right answers the model may overrule."""
    folds = [zlib.crc32(r["site"].encode()) % FOLDS for r in train]
    article_p: list[float] = []  # P(article) of each held-out article the heuristic calls one
    for k in range(FOLDS):
        fold_train = [r for r, f in zip(train, folds, strict=True) if f != k]
        fold_test = [r for r, f in zip(train, folds, strict=True) if f == k and r["gold"] == "article"]
        if not fold_test or len({r["gold"] == "article" for r in fold_train}) < 2:
            continue
        model = fit(fold_train, 0.0)
        article_p += [model.probabilities(row["x"])[0] for row in fold_test
                      if row["heuristic"] == "article"]
    passing = [floor for floor in FLOORS
               if article_p and sum(p >= floor for p in article_p) / len(article_p) >= recall]
    return max(passing) if passing else FLOORS[0]


def scores(model: PageTypeModel, rows: list[dict]) -> dict:
    table = {}
    for name in sorted({r["set"] for r in rows}):
        part = [r for r in rows if r["set"] == name]
        articles = [r for r in part if r["gold"] == "article"]
        entry = {"pages": len(part)}
        for label, guess in (("heuristic", lambda r: r["heuristic"]),
                             ("model", lambda r: predict(model, r))):
            entry[label] = {
                "accuracy": round(float(np.mean([page_type_correct(guess(r), r["gold"])
                                                 for r in part])), 3),
                "article_recall": round(float(np.mean([guess(r) == "article" for r in articles])), 3)
                if articles else None}
        table[name] = entry
    return table


def print_scores(title: str, table: dict) -> None:
    print(f"\n{title}")
    print(f"{'set':28s} {'pages':>5s}  {'heuristic acc (art. recall)':>28s}  "
          f"{'checked by the model':>22s}")
    for name, entry in table.items():
        h, m = entry["heuristic"], entry["model"]
        print(f"{name:28s} {entry['pages']:5d}  {h['accuracy']:>18.3f} ({h['article_recall']})"
              f"  {m['accuracy']:>12.3f} ({m['article_recall']})")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    folders = dataset_folders(args.data, "pagetype")
    if folders is None:
        return 2
    t0 = time.perf_counter()
    rows, sizes = read_pages(folders, args.limit)
    train = [r for r in rows if not is_validation(r["site"])]
    held_out = [r for r in rows if is_validation(r["site"])]
    if not held_out or len({r["gold"] == "article" for r in train}) < 2:
        print("newscrawl train pagetype: the data give no validation page, or no article and "
              "non-article pages to train on", file=sys.stderr)
        return 2
    floor = choose_floor(train, args.article_recall)
    model = fit(train, floor)
    validation = scores(model, held_out)
    print_scores(f"validation sites (article floor {floor})", validation)
    card = {
        "description": "page model checking the page-type heuristic (extractors/pagetype.py): "
                       "logistic regressions P(article), then P(list) against other",
        "data": {"sets": [str(f) for f in folders], "sizes": sizes,
                 "split": "by site: crc32(site) % 5 == 0 is validation", "limit": args.limit,
                 "training_pages": len(train), "validation_pages": len(held_out)},
        "features": list(FEATURES),
        "decision": {"article_floor": floor, "floors_tried": list(FLOORS),
                     "chosen_on": "training sites, cross-validated by site in "
                                  f"{FOLDS} folds, keeping >= {args.article_recall} of the "
                                  "articles the heuristic calls articles",
                     "applies_to": "pages the heuristic types article"},
        "training": {"classifier": "sklearn.linear_model.LogisticRegression", "C": C,
                     "class_weight": "balanced", "standardised": True,
                     "seconds": round(time.perf_counter() - t0, 1)},
        "validation": validation,
    }
    path = save_model(args.out, MODEL_NAME, model.to_arrays(), card)
    print(f"\nmodel written to {path} and its card")
    return 0
