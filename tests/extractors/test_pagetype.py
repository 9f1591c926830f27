"""Page type: the heuristic and the shipped page model that decides, on the real fixture pages
(tests/fixtures/pages: aeb, cx_163, cx_bbc, wcxb_dev, gerapy_listdetail; see SOURCES.md), and
``newscrawl train pagetype`` on tests/fixtures/eval/page_type (wcxb_dev and gerapy_listdetail
pages, CC-BY-4.0 and Apache-2.0)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evaluation.listmetrics import page_type_correct
from evaluation.training.pagetype import THRESHOLDS, _forest
from extractors import extract
from extractors.attenuation import extract_main_text
from extractors.modelio import MODELS_DIR
from extractors.pagetype import (FEATURES, classify_page, heuristic_type, load_page_model,
                                 page_features)
from tests.fixture_pages import gold_lines, page_bytes

PAGE_TYPE_SET = Path(__file__).parents[1] / "fixtures" / "eval" / "page_type"
TYPED = [g for g in gold_lines() if g.get("page_type")]


def test_the_shipped_model_loads_without_pickle_and_names_its_features():
    with np.load(MODELS_DIR / "pagetype.npz", allow_pickle=False) as arrays:
        assert all(arrays[name].dtype != object for name in arrays.files)
    card = json.loads((MODELS_DIR / "pagetype.card.json").read_text())
    assert tuple(card["features"]) == FEATURES
    model = load_page_model(None)
    for forest in (model.article, model.listing):
        assert len(forest.roots) > 1 and (forest.left >= 0).any()
        assert forest.feature.max() < len(FEATURES)
        assert ((forest.value >= 0) & (forest.value <= 1)).all()
    assert model.article_floor in THRESHOLDS and model.article_rescue in THRESHOLDS
    assert card["decision"]["cross_validated"]["article_recall"] >= 0.99


def test_the_exported_forest_gives_scikit_learns_probabilities():
    """The trainer's export, walked in numpy, against scikit-learn on real fixture pages."""
    from sklearn.ensemble import ExtraTreesClassifier

    rows, gold = [], []
    for line in TYPED:
        result = extract(page_bytes(line), url=line.get("url"))
        main = extract_main_text(result.page)
        rows.append(page_features(result.page, main.text, result.fields, result.body,
                                  heuristic_type(result.page, main)))
        gold.append(line["page_type"] == "article")
    x, y = np.array(rows), np.array(gold)
    forest = _forest(x, y, np.ones(len(y)))  # raises if the export disagrees on a sample
    fitted = ExtraTreesClassifier(200, min_samples_leaf=3, class_weight="balanced",
                                  random_state=0, n_jobs=1).fit(x, y)
    ours = np.array([forest.probability(row) for row in x])
    assert np.allclose(ours, fitted.predict_proba(x)[:, list(fitted.classes_).index(True)])
    assert 0 < ours.min() < ours.max() < 1


def test_every_article_fixture_stays_an_article():
    articles = [g for g in TYPED if g["page_type"] == "article"]
    assert len(articles) >= 10
    typed = {g["file"]: extract(page_bytes(g), url=g.get("url")).page_type for g in articles}
    assert {f: t for f, t in typed.items() if t != "article"} == {}


def test_the_model_types_more_non_articles_right_than_the_heuristic():
    others = [g for g in TYPED if g["page_type"] != "article"]
    assert len(others) >= 5
    right = {"heuristic": 0, "model": 0}
    for gold in others:
        result = extract(page_bytes(gold), url=gold.get("url"))
        main = extract_main_text(result.page)
        right["heuristic"] += page_type_correct(
            classify_page(result.page, main, result.fields, model=False), gold["page_type"])
        right["model"] += page_type_correct(result.page_type, gold["page_type"])
    assert right["model"] > right["heuristic"], right


def test_features_are_finite_on_a_page_without_url_or_metadata():
    result = extract(b"<html><body><p>Short.</p></body></html>")
    x = page_features(result.page, "Short.", result.fields)
    assert x.shape == (len(FEATURES),) and np.isfinite(x).all()
    assert classify_page(result.page, extract_main_text(result.page), model=None) == "other"
    typed = classify_page(result.page, extract_main_text(result.page))
    assert typed in ("article", "list", "other")


def test_train_pagetype_writes_a_model_that_loads(tmp_path):
    run = subprocess.run([sys.executable, "-m", "crawler.cli", "train", "pagetype", "--data",
                          str(PAGE_TYPE_SET), "-o", str(tmp_path), "--trees", "40"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "validation sites" in run.stdout
    model = load_page_model(tmp_path)
    card = json.loads((tmp_path / "pagetype.card.json").read_text())
    assert card["data"]["training_pages"] + card["data"]["validation_pages"] == 34
    assert card["data"]["validation_pages"] > 0
    assert model.article_floor in THRESHOLDS and model.article_rescue in THRESHOLDS
    assert len(model.article.roots) == 40 and (model.article.left >= 0).any()
    assert "cross_validated" in card["decision"] and "confusion" in card["validation"][
        next(iter(card["validation"]))]["model"]


MISTYPED = [json.loads(line) for line in
            (Path(__file__).parents[1] / "fixtures" / "pagetype" / "gold.jsonl").read_text(
                encoding="utf-8").splitlines()]


@pytest.mark.parametrize("gold", MISTYPED, ids=[g["file"] for g in MISTYPED])
def test_pages_the_first_page_model_typed_wrong_are_typed_right(gold):
    """A money.163.com article with many headline links (typed list before: its body was lost),
    a forum thread (typed article before) and a product page (typed list before); all of
    held-out sites (tests/fixtures/SOURCES.md)."""
    html = (Path(__file__).parents[1] / "fixtures" / "pagetype" / gold["file"]).read_bytes()
    assert extract(html, url=gold.get("url")).page_type == gold["page_type"]
