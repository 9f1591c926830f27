"""``newscrawl train dwsie`` on the pinned real pages (tests/fixtures/eval: page_type and
list_records, copied from wcxb_dev and gerapy_listdetail; SOURCES.md there)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from extractors.dwsie import FEATURES, PAPER_FEATURES, load_node_model

EVAL = Path(__file__).parents[1] / "fixtures" / "eval"


@pytest.mark.slow
def test_trainer_writes_a_model_that_loads_and_reports_both_feature_sets(tmp_path):
    run = subprocess.run([sys.executable, "-m", "crawler.cli", "train", "dwsie", "--data",
                          str(EVAL / "page_type"), str(EVAL / "list_records"), "-o", str(tmp_path)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "paper features" in run.stdout and "all features" in run.stdout
    model = load_node_model(tmp_path)
    assert model.features == FEATURES and model.page_rule is not None
    card_sizes = json.loads((tmp_path / "dwsie.card.json").read_text())["data"]["sizes"]
    assert card_sizes["list_records"]["train_list_labelled"] > 0  # records became LN labels
    assert np.abs(model.weights[0]).sum() > 0


@pytest.mark.slow
def test_paper_only_model_uses_the_five_features(tmp_path):
    run = subprocess.run([sys.executable, "-m", "crawler.cli", "train", "dwsie", "--data",
                          str(EVAL / "page_type"), str(EVAL / "list_records"), "--features",
                          "paper", "-o", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert load_node_model(tmp_path).features == PAPER_FEATURES


@pytest.mark.slow
def test_a_class_without_examples_is_refused(tmp_path):
    """The first 20 pinned page-type pages hold no list page with records: no LN example."""
    run = subprocess.run([sys.executable, "-m", "crawler.cli", "train", "dwsie", "--data",
                          str(EVAL / "page_type"), "--limit", "20", "-o", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2 and "no training example of class LN" in run.stderr
    assert "Traceback" not in run.stderr


def test_missing_dataset_is_refused(tmp_path):
    run = subprocess.run([sys.executable, "-m", "crawler.cli", "train", "dwsie", "--data",
                          str(tmp_path / "nope")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "not a dataset folder" in run.stderr
