"""Table and Markdown output: filled columns only, status rows kept, floor line present."""

from __future__ import annotations

from evaluation import report

RESULT = {
    "results": [
        {"dataset": "aeb", "method": "default", "kind": "method", "lang": "all",
         "quality": "gold", "status": "ok", "pages": 2,
         "body": {"precision": 0.9, "recall": 0.8, "f1": 0.8471, "share_f1_90": 0.5},
         "ms_median": 5.0, "ms_p95": 9.0, "errors": 0},
        {"dataset": "aeb", "method": "goose3", "kind": "peer", "lang": "all", "quality": None,
         "status": "not installed (pip install goose3)"},
    ],
    "parse_floor_ms_median": 1.25,
}


def test_table_has_filled_columns_and_not_installed_peers():
    table = report.format_table(RESULT)
    header = table.splitlines()[0].split()
    assert "body" in header and "snip" not in header and "rec" not in header
    assert "not installed (pip install goose3)" in table
    assert table.endswith("lxml parse floor: median 1.250 ms/page")


def test_markdown_has_command_machine_and_one_table_per_dataset():
    text = report.format_markdown(RESULT, "newscrawl eval aeb", "test box")
    assert "Command: `newscrawl eval aeb`" in text and "Machine: test box" in text
    assert "## aeb" in text and "| 0.847 |" in text


def test_summary_uses_one_headline_per_dataset_and_leaves_other_tools_blank():
    rows = [{**RESULT["results"][0]},
            {"dataset": "aeb", "method": "gerapy", "kind": "peer", "lang": "all",
             "quality": "gold", "status": "ok", "page_type": {"accuracy": 0.5}}]
    lines = report.summary_markdown({"results": rows})
    assert lines[0] == "| method | aeb (gold) body F1 |"
    assert lines[2:4] == ["| default | 0.847 |", "| gerapy |  |"]
