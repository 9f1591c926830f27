"""The eval command end to end on a tiny dataset: predictions files, peers, outputs, exit codes."""

from __future__ import annotations

import argparse
import json

from evaluation import cli
from tests.evaluation.test_datasets import write_dataset

ARTICLE = (b"<html><head><title>Rain</title></head><body><article><h1>Rain</h1><p>"
           + b"Rain fell on the town all day long and nobody went out at all. " * 4
           + b"</p></article></body></html>")


def tiny_dataset(tmp_path):
    rows = [{"lang": "latin", "quality": "gold", "page_type": "article", "title": "Rain",
             "date": "2020-01-02", "author": ["A B", "C D"], "body": "one two three four five",
             "with": ["one two"], "without": ["Home"], "html": ARTICLE},
            {"lang": "zh", "quality": "silver", "page_type": "list", "body": "北京欢迎你",
             "url": "https://s.com/l/", "records": [{"href": "/a", "title": "A"}],
             "html": ARTICLE}]
    return write_dataset(tmp_path / "tiny", rows)


def test_predictions_file_is_scored_by_id(tmp_path):
    data = tiny_dataset(tmp_path)
    preds = tmp_path / "mytool.jsonl"
    preds.write_text(json.dumps({"id": "0", "body": "one two three four", "title": "rain",
                                 "date": "2020-01-02T10:00", "author": "C D, A B",
                                 "page_type": "article", "records": []}) + "\n"
                     + json.dumps({"id": "1", "body": "北京欢迎", "page_type": "other",
                                   "records": [{"url": "https://s.com/a", "title": "A"}]}) + "\n")
    out = tmp_path / "r.json"
    assert cli.main([str(data), "--predictions", str(preds), "--json", str(out)]) == 0
    rows = {(r["lang"], r["quality"]): r for r in json.loads(out.read_text())["results"]}
    gold = rows[("all", "gold")]
    assert gold["method"] == "mytool" and gold["kind"] == "predictions"
    assert gold["body"]["recall"] == 0.5 and gold["body"]["precision"] == 1.0
    assert gold["fields"]["title"]["accuracy"] == 1.0
    assert gold["fields"]["date"]["accuracy"] == 1.0
    assert gold["fields"]["author"]["accuracy"] == 1.0
    assert gold["snippets"]["tp"] == 1 and gold["ms_median"] is None
    silver_zh = rows[("zh", "silver")]
    assert silver_zh["body"]["f1"] == 0.0 and silver_zh["body_cjk"]["recall"] == 0.5
    assert silver_zh["records"]["f1"] == 1.0
    assert silver_zh["page_type"]["accuracy"] == 0.0


def test_methods_run_with_timings_and_markdown(tmp_path, capsys):
    data = tiny_dataset(tmp_path)
    md = tmp_path / "r.md"
    assert cli.main([str(data), "--method", "attenuation", "--markdown", str(md)]) == 0
    assert "attenuation" in capsys.readouterr().out
    text = md.read_text()
    assert "Command: `newscrawl eval" in text and "Machine:" in text and "## tiny" in text


def test_unknown_method_exits_2_with_the_known_names(tmp_path, capsys):
    assert cli.main([str(tiny_dataset(tmp_path)), "--method", "nope"]) == 2
    assert "known methods" in capsys.readouterr().err


def test_register_adds_the_eval_subcommand(tmp_path):
    parser = argparse.ArgumentParser(prog="newscrawl")
    cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["eval", str(tmp_path), "--peers", "gne", "--limit", "5"])
    assert args.func is cli.run and args.limit == 5 and args.peers == "gne"


def test_gate_failure_exits_1(tmp_path):
    data = tiny_dataset(tmp_path)
    floors = tmp_path / "floors.json"
    floors.write_text(json.dumps({"floors": {"tiny:attenuation:gold:body.f1": {"floor": 1.01}}}))
    assert cli.main([str(data), "--method", "attenuation", "--check-floors", str(floors)]) == 1


def test_body_only_method_is_scored_on_a_snippets_only_set(tmp_path):
    rows = [{"lang": "latin", "with": ["Rain fell on the town"], "without": ["Home"],
             "html": ARTICLE}]
    data = write_dataset(tmp_path / "snips", rows)
    out = tmp_path / "r.json"
    assert cli.main([str(data), "--method", "attenuation", "--json", str(out)]) == 0
    row = json.loads(out.read_text())["results"][0]
    assert row["status"] == "ok" and row["snippets"]["tp"] == 1
