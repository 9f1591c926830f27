"""Floors: checking, raising on re-pin, refusing to lower without the explicit flag."""

from __future__ import annotations

import pytest

from evaluation import gate


def result(f1: float) -> dict:
    return {"results": [{"dataset": "d", "method": "m", "kind": "method", "lang": "all",
                         "quality": "gold", "status": "ok", "body": {"f1": f1}},
                        {"dataset": "d", "method": "m", "kind": "method", "lang": "zh",
                         "quality": "gold", "status": "ok", "body": {"f1": 0.1}}]}


def test_pin_sets_floor_below_the_measured_score():
    floors = gate.pin(result(0.9), {"floors": {}}, margin=0.02)
    assert floors["floors"] == {"d:m:gold:body.f1": {"floor": 0.88, "measured": 0.9}}
    assert "margin 0.02" in floors["how"]


def test_repin_may_raise_a_floor():
    floors = gate.pin(result(0.9), {"floors": {}}, margin=0.02)
    raised = gate.pin(result(0.95), floors, margin=0.02)
    assert raised["floors"]["d:m:gold:body.f1"]["floor"] == 0.93


def test_repin_refuses_to_lower_a_floor_without_the_flag():
    floors = gate.pin(result(0.9), {"floors": {}}, margin=0.02)
    with pytest.raises(gate.FloorLoweringRefused, match="d:m:gold:body.f1: 0.88 -> 0.78"):
        gate.pin(result(0.8), floors, margin=0.02)


def test_repin_lowers_with_the_flag():
    floors = gate.pin(result(0.9), {"floors": {}}, margin=0.02)
    lowered = gate.pin(result(0.8), floors, margin=0.02, allow_lower=True)
    assert lowered["floors"]["d:m:gold:body.f1"]["floor"] == 0.78


def test_check_fails_below_floor_and_passes_at_it():
    floors = gate.pin(result(0.9), {"floors": {}}, margin=0.02)
    assert gate.check(result(0.88), floors) == []
    assert gate.check(result(0.87), floors) == ["d:m:gold:body.f1 = 0.87 < floor 0.88"]


def test_check_reports_a_metric_that_disappeared():
    floors = {"floors": {"d:m:gold:records.f1": {"floor": 0.5}}}
    assert gate.check(result(0.9), floors) == ["d:m:gold:records.f1 missing (floor 0.5)"]


def test_check_ignores_methods_not_run():
    floors = {"floors": {"d:other:gold:body.f1": {"floor": 0.99}}}
    assert gate.check(result(0.1), floors) == []


def test_floors_round_trip(tmp_path):
    path = tmp_path / "floors.json"
    assert gate.load_floors(path) == {"floors": {}}
    floors = gate.pin(result(0.9), {"floors": {}})
    gate.save_floors(floors, path)
    assert gate.load_floors(path) == floors
