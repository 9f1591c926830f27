"""Page type: the heuristic and the shipped page model that checks it, on the real fixture pages
(tests/fixtures/pages: aeb, cx_163, cx_bbc, wcxb_dev, gerapy_listdetail; see SOURCES.md), and
``newscrawl train pagetype`` on tests/fixtures/eval/page_type (wcxb_dev pages, CC-BY-4.0)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from evaluation.listmetrics import page_type_correct
from evaluation.training.pagetype import FLOORS
from extractors import extract
from extractors.attenuation import extract_main_text
from extractors.modelio import MODELS_DIR
from extractors.pagetype import FEATURES, classify_page, load_page_model, page_features
from tests.fixture_pages import gold_lines, page_bytes

PAGE_TYPE_SET = Path(__file__).parents[1] / "fixtures" / "eval" / "page_type"
TYPED = [g for g in gold_lines() if g.get("page_type")]


def test_the_shipped_model_loads_without_pickle_and_names_its_features():
    model = load_page_model(None)
    assert (MODELS_DIR / "pagetype.npz").is_file() and (MODELS_DIR / "pagetype.card.json").is_file()
    assert model.article_w.shape == model.list_w.shape == model.mean.shape == (len(FEATURES),)
    assert model.article_floor in FLOORS
    assert np.abs(model.article_w).sum() > 0


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


def test_train_pagetype_writes_a_model_that_loads(tmp_path):
    run = subprocess.run([sys.executable, "-m", "crawler.cli", "train", "pagetype", "--data",
                          str(PAGE_TYPE_SET), "-o", str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "validation sites" in run.stdout
    model = load_page_model(tmp_path)
    card = json.loads((tmp_path / "pagetype.card.json").read_text())
    assert card["data"]["training_pages"] + card["data"]["validation_pages"] == 34
    assert card["data"]["validation_pages"] > 0
    assert model.article_floor in FLOORS and np.abs(model.article_w).sum() > 0
