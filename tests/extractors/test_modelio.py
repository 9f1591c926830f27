"""Model files: saved and loaded without pickle; every bad file is refused with its name."""

from __future__ import annotations

import json

import numpy as np
import pytest

from extractors.modelio import MODEL_FORMAT, ModelError, load_model, save_model


def test_a_saved_model_loads_with_its_card(tmp_path):
    save_model(tmp_path, "m", {"w": np.eye(2), "b": np.zeros(2)}, {"features": ["x", "y"]})
    model = load_model(tmp_path, "m")
    assert np.array_equal(model.arrays["w"], np.eye(2))
    assert model.card["format"] == MODEL_FORMAT and model.card["arrays"] == {"w": [2, 2], "b": [2]}
    assert "numpy" in model.card["versions"] and model.card["features"] == ["x", "y"]


def test_object_arrays_are_refused_at_save(tmp_path):
    with pytest.raises(ValueError, match="dtype object"):
        save_model(tmp_path, "m", {"w": np.array([{"a": 1}], dtype=object)}, {})


def test_a_pickled_array_is_refused_naming_the_file(tmp_path):
    save_model(tmp_path, "m", {"w": np.zeros(1)}, {})
    np.savez(tmp_path / "m.npz", w=np.array([object()], dtype=object))  # needs pickle to load
    with pytest.raises(ModelError, match=r"m\.npz cannot be read"):
        load_model(tmp_path, "m")


@pytest.mark.parametrize("damage, message", [
    (lambda d: (d / "m.npz").write_bytes(b"not a zip"), r"m\.npz cannot be read"),
    (lambda d: (d / "m.npz").unlink(), r"m\.npz is missing"),
    (lambda d: (d / "m.card.json").write_text("{broken"), r"m\.card\.json cannot be read"),
    (lambda d: (d / "m.card.json").write_text(json.dumps({"format": 99})), "format 99"),
    (lambda d: np.savez(d / "m.npz", w=np.zeros(3)), "does not match its card"),
])
def test_a_damaged_model_is_refused_naming_the_file(tmp_path, damage, message):
    save_model(tmp_path, "m", {"w": np.zeros(2)}, {})
    damage(tmp_path)
    with pytest.raises(ModelError, match=message):
        load_model(tmp_path, "m")
