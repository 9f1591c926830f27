"""The quality gate: our methods on the pinned fixture sets must stay at or above their floors.

The sets (tests/fixtures/eval/*, sources in SOURCES.md) and floors.json are pinned; to re-pin
after an improvement see docs/evaluation.md ("Quality gate").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation import gate
from evaluation.datasets import load_dataset
from evaluation.methods import method_specs
from evaluation.runner import evaluate, method_tool

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "eval"
SETS = ("main_text", "fields_snippets", "page_type", "list_records", "list_pairs")


@pytest.fixture(scope="module")
def measured() -> dict:
    tools = [method_tool(spec) for spec in method_specs().values()]
    return evaluate([load_dataset(FIXTURES / name) for name in SETS], tools)


def test_every_method_has_pinned_floors():
    floors = gate.load_floors(FIXTURES / "floors.json")["floors"]
    for name in method_specs():
        assert any(key.split(":")[1] == name for key in floors), f"no floors for {name}: pin them"


def test_no_score_below_its_floor(measured):
    failures = gate.check(measured, gate.load_floors(FIXTURES / "floors.json"))
    assert failures == [], "quality gate:\n" + "\n".join(failures)
