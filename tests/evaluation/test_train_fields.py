"""``newscrawl train fields`` on a few real pages (tests/fixtures/eval/fields_snippets), and the
``--model`` option of extract, eval and crawl."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from evaluation.training import fields as trainer
from extractors.svm_fields import MODEL_NAME, load_field_model

FIELDS_SET = Path(__file__).parents[1] / "fixtures" / "eval" / "fields_snippets"


def newscrawl(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crawler.cli", *args], capture_output=True,
                          text=True, timeout=600)


def test_trainer_splits_by_site_and_writes_a_model_that_loads(tmp_path):
    run = newscrawl("train", "fields", "--data", str(FIELDS_SET), "-o", str(tmp_path),
                    "--ablation", "--negatives", "20")
    assert run.returncode == 0, run.stderr
    assert "| groups 1, stage 1 |" in run.stdout and "| groups 1+2+3+4, stages 1+2 |" in run.stdout
    model = load_field_model(tmp_path)
    card = model.card
    sizes = card["data"]["sizes"]["fields_snippets"]
    assert sizes["train_pages"] + sizes["validation_pages"] == 32
    assert sizes["validation_pages"] > 0 and sizes["train_title_aligned"] > 10
    assert [row["setting"] for row in card["ablation"]][0] == "groups 1, stage 1"
    assert np.abs(model.hashed_w).sum() > 0  # something was learnt


def test_split_keeps_each_site_on_one_side():
    lines = [json.loads(line) for line in (FIELDS_SET / "gold.jsonl").open(encoding="utf-8")]
    sides: dict[str, set[bool]] = {}
    for gold in lines + [dict(g, url=g["url"].replace("https://", "https://www.")) for g in lines]:
        site = trainer.site_of(gold)
        sides.setdefault(site, set()).add(trainer.is_validation(site))
    assert all(len(s) == 1 for s in sides.values())
    assert {True, False} == set().union(*sides.values())


def test_labels_align_gold_strings_with_nodes():
    from extractors import parse_page
    from extractors.svm_fields import page_features

    line = json.loads((FIELDS_SET / "gold.jsonl").open(encoding="utf-8").readline())
    features = page_features(parse_page((FIELDS_SET / line["file"]).read_bytes()).nodes)
    labels = trainer.label_page(features, line)
    title, best, _ = labels["title"]
    assert best is not None and title[best] == 1
    text = features.nodes.inner_text(int(features.rows[best]))
    assert " ".join(text.split()) == line["title"]
    date, best, _ = labels["date"]
    assert best is not None and "2019" in features.nodes.inner_text(int(features.rows[best]))


def test_extract_with_a_bad_model_folder_names_the_file(tmp_path):
    page = next((FIELDS_SET / "pages").iterdir())
    (tmp_path / f"{MODEL_NAME}.card.json").write_text("{not json")
    run = newscrawl("extract", str(page), "--model", str(tmp_path))
    assert run.returncode == 2
    assert f"{MODEL_NAME}.card.json" in run.stderr and "Traceback" not in run.stderr


def test_crawl_with_a_missing_model_stops_before_fetching(tmp_path):
    run = newscrawl("crawl", "http://127.0.0.1:9/", "--out", str(tmp_path / "out"),
                    "--model", str(tmp_path / "none"))
    assert run.returncode == 2
    assert f"{MODEL_NAME}.card.json" in run.stderr and "Traceback" not in run.stderr


def test_extract_and_eval_take_a_model_folder(tmp_path):
    from extractors.modelio import MODELS_DIR
    import shutil

    for suffix in (".npz", ".card.json"):
        shutil.copy(MODELS_DIR / f"{MODEL_NAME}{suffix}", tmp_path / f"{MODEL_NAME}{suffix}")
    pages = sorted((FIELDS_SET / "pages").iterdir())
    plain = newscrawl("extract", *map(str, pages))
    run = newscrawl("extract", *map(str, pages), "--model", str(tmp_path))
    assert run.returncode == 0, run.stderr
    with_svm = [json.loads(line) for line in run.stdout.splitlines()]
    without = [json.loads(line) for line in plain.stdout.splitlines()]
    filled = 0
    for a, b in zip(without, with_svm, strict=True):
        for name in ("title", "published", "authors"):
            if a["extraction"]["sources"].get(name):  # metadata's value stays
                assert a[name] == b[name]
            elif b[name]:
                assert b["extraction"]["sources"][name] == "svm"
                filled += 1
    assert filled > 0
    shipped = newscrawl("extract", *map(str, pages), "--model", "shipped")
    same = [{k: v for k, v in json.loads(line).items() if k != "timings_ms"}
            for line in shipped.stdout.splitlines()]
    assert same == [{k: v for k, v in r.items() if k != "timings_ms"} for r in with_svm]
    run = newscrawl("eval", str(FIELDS_SET), "--method", "svm", "--limit", "4",
                    "--model", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "svm" in run.stdout


def test_eval_held_out_scores_only_the_sites_training_never_saw(tmp_path):
    from evaluation.datasets import load_dataset

    every = load_dataset(FIELDS_SET).evaluated()
    held = load_dataset(FIELDS_SET, held_out=True).evaluated()
    assert 0 < len(held) < len(every)
    assert all(trainer.is_validation(trainer.site_of(p.gold)) for p in held)
    left_out = {p.id for p in every} - {p.id for p in held}
    assert not any(trainer.is_validation(trainer.site_of(p.gold)) for p in every
                   if p.id in left_out)
    out = tmp_path / "held.json"
    run = newscrawl("eval", str(FIELDS_SET), "--method", "default", "--held-out", "--json",
                    str(out))
    assert run.returncode == 0, run.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert {r["pages"] for r in rows if r["lang"] == "all"} == {len(held)}
