"""Presenting evaluation results: a plain-text table, Markdown, and the JSON file."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

Column = tuple[str, Callable[[dict], object]]


def _get(*path: str) -> Callable[[dict], object]:
    def read(row: dict) -> object:
        value: object = row
        for key in path:
            if not isinstance(value, dict):
                return None
            value = value.get(key)
        return value
    return read


COLUMNS: tuple[Column, ...] = (
    ("dataset", _get("dataset")),
    ("q", _get("quality")),
    ("lang", _get("lang")),
    ("method", _get("method")),
    ("kind", _get("kind")),
    ("pages", _get("pages")),
    ("body P", _get("body", "precision")),
    ("body R", _get("body", "recall")),
    ("body F1", _get("body", "f1")),
    ("F1>=.9", _get("body", "share_f1_90")),
    ("CJK F1", _get("body_cjk", "f1")),
    ("snip F1", _get("snippets", "f1")),
    ("snip acc", _get("snippets", "accuracy")),
    ("title", _get("fields", "title", "accuracy")),
    ("date", _get("fields", "date", "accuracy")),
    ("day", _get("fields", "date_day", "accuracy")),
    ("author", _get("fields", "author", "accuracy")),
    ("type acc", _get("page_type", "accuracy")),
    ("list F1", lambda row: _get("page_type", "classes", "list", "f1")(row)
     if _get("page_type", "classes", "list", "support")(row) else None),
    ("rec P", _get("records", "precision")),
    ("rec R", _get("records", "recall")),
    ("rec F1", _get("records", "f1")),
    ("rec date", _get("records", "date_match")),
    ("rec auth", _get("records", "author_match")),
    ("cov pages", _get("coverable", "records", "pages")),
    ("cov F1", _get("coverable", "records", "f1")),
    ("ms med", _get("ms_median")),
    ("ms p95", _get("ms_p95")),
    ("err", _get("errors")),
    ("status", _get("status")),
)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}" if value < 100 else f"{value:.0f}"
    return str(value)


def _matrix(report: dict) -> tuple[list[str], list[list[str]]]:
    """Header and cells, keeping only the columns some row fills."""
    rows = report["results"]
    cells = [[_cell(read(row)) for _, read in COLUMNS] for row in rows]
    keep = [i for i, (name, _) in enumerate(COLUMNS)
            if name in ("dataset", "method") or any(c[i] for c in cells)]
    header = [COLUMNS[i][0] for i in keep]
    return header, [[c[i] for i in keep] for c in cells]


def format_table(report: dict) -> str:
    """A fixed-width table of every result row, then the parse floor."""
    header, cells = _matrix(report)
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h)
              for i, h in enumerate(header)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) for row in cells]
    lines.append(f"lxml parse floor: median {_cell(report.get('parse_floor_ms_median'))} ms/page")
    return "\n".join(lines)


# The headline score of a dataset: the first of these sections its rows have.
HEADLINE = (("body", "f1", "body F1"), ("snippets", "f1", "snippet F1"),
            ("fields", "date", "date acc"), ("page_type", "accuracy", "type acc"))


def _section_value(row: dict, section: str, key: str) -> object:
    value = row.get(section, {}).get(key)
    return value.get("accuracy") if isinstance(value, dict) else value


def summary_markdown(report: dict) -> list[str]:
    """One row per method/peer, one column per dataset x quality: its headline score (lang all)."""
    rows = [r for r in report["results"] if r.get("lang") == "all" and r.get("status") == "ok"]
    columns: dict[tuple[str, str], tuple[str, str, str]] = {}
    for section, key, label in HEADLINE:
        for row in rows:
            column = (row["dataset"], row["quality"])
            if column not in columns and _section_value(row, section, key) is not None:
                columns[column] = (section, key, label)
    order = sorted(columns, key=lambda c: [r["dataset"] for r in rows].index(c[0]))
    if not order:
        return []
    titles = [f"{d} ({q}) {columns[(d, q)][2]}" for d, q in order]
    lines = ["| method | " + " | ".join(titles) + " |", "|---" * (len(order) + 1) + "|"]
    for method in dict.fromkeys(r["method"] for r in rows):
        cells = []
        for column in order:
            section, key, _ = columns[column]
            found = [_section_value(r, section, key) for r in rows
                     if r["method"] == method and (r["dataset"], r["quality"]) == column]
            cells.append(_cell(found[0] if found else None))
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    return lines + [""]


def format_markdown(report: dict, command: str | None = None, machine: str | None = None) -> str:
    """A Markdown document: how it was made, a headline summary, one full table per dataset."""
    header, cells = _matrix(report)
    out = ["# newscrawl evaluation", ""]
    if command:
        out += [f"Command: `{command}`", ""]
    if machine:
        out += [f"Machine: {machine}", ""]
    floor = _cell(report.get("parse_floor_ms_median"))
    out += [f"Plain lxml parse of the same pages (speed floor): median {floor} ms/page.", ""]
    out += summary_markdown(report)
    dataset_col = header.index("dataset")
    for name in dict.fromkeys(row[dataset_col] for row in cells):
        out += [f"## {name}", ""]
        cols = [i for i, h in enumerate(header) if h != "dataset"]
        rows = [r for r in cells if r[dataset_col] == name]
        cols = [i for i in cols if header[i] in ("method",) or any(r[i] for r in rows)]
        out.append("| " + " | ".join(header[i] for i in cols) + " |")
        out.append("|" + "---|" * len(cols))
        out += ["| " + " | ".join(r[i] for i in cols) + " |" for r in rows]
        out.append("")
    return "\n".join(out)


def write_json(report: dict, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def write_markdown(text: str, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(text + "\n", encoding="utf-8")
