"""Learned models on disk: weights in ``.npz`` read with ``allow_pickle=False``, a JSON card beside them.

Every learned model of the project (the SVM field classifier of paper 001, the DWSIE node network of
paper 002) is saved and loaded through this module, so none of them can execute code on load and each
carries the same card: what it was trained on, its features, the library versions, its validation
scores. A model named ``NAME`` in folder ``DIR`` is two files::

    DIR/NAME.npz        numeric arrays only (numpy refuses object arrays with allow_pickle=False)
    DIR/NAME.card.json  {"name", "format", "created", "versions", "features", ...the trainer's keys}

The card's ``format`` is :data:`MODEL_FORMAT`; ``arrays`` lists the array names and shapes, checked on
load against the ``.npz``. A missing, corrupt or mismatched file raises :class:`ModelError` naming it.

>>> import tempfile, numpy as np
>>> folder = tempfile.mkdtemp()
>>> path = save_model(folder, "toy", {"w": np.arange(3.0)}, {"features": ["a", "b", "c"]})
>>> model = load_model(folder, "toy")
>>> model.arrays["w"].tolist(), model.card["features"]
([0.0, 1.0, 2.0], ['a', 'b', 'c'])
"""

from __future__ import annotations

import datetime as _dt
import json
import platform
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import numpy as np

__all__ = ["MODEL_FORMAT", "MODELS_DIR", "LoadedModel", "ModelError", "load_model", "save_model"]

#: Version of the on-disk layout; a card with another value is refused.
MODEL_FORMAT = 1
#: The models shipped inside the package.
MODELS_DIR = Path(__file__).resolve().parent / "models"
#: A card larger than this is not a card (it is read whole before parsing).
MAX_CARD_BYTES = 1_000_000
_VERSIONED = ("numpy", "scikit-learn", "lxml")


class ModelError(ValueError):
    """A model file that is missing, corrupt or does not match its card; the message names the file."""


@dataclass(frozen=True, slots=True)
class LoadedModel:
    """The arrays and the card of one model, and where they were read from."""

    name: str
    arrays: dict[str, np.ndarray]
    card: dict
    path: Path


def save_model(folder: str | Path, name: str, arrays: dict[str, np.ndarray], card: dict) -> Path:
    """Write ``NAME.npz`` and ``NAME.card.json`` into ``folder`` (created if needed); returns the
    ``.npz`` path. ``card`` is the trainer's description (data, features, scores); this adds
    ``name``, ``format``, ``created``, ``versions`` and ``arrays``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    clean = {key: np.asarray(value) for key, value in arrays.items()}
    for key, value in clean.items():
        if value.dtype == object:
            raise ValueError(f"array {key!r} has dtype object: only numeric arrays can be saved")
    weights = folder / f"{name}.npz"
    np.savez_compressed(weights, **clean)
    full = {
        **card,
        "name": name,
        "format": MODEL_FORMAT,
        "created": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "versions": _versions(),
        "arrays": {key: list(value.shape) for key, value in clean.items()},
    }
    (folder / f"{name}.card.json").write_text(
        json.dumps(full, indent=2, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    return weights


def load_model(folder: str | Path | None, name: str) -> LoadedModel:
    """Read model ``name`` from ``folder`` (``None``: the models shipped in the package).

    Raises :class:`ModelError` naming the file when either file is missing, unreadable, not of
    :data:`MODEL_FORMAT`, or when the arrays do not match the card."""
    folder = MODELS_DIR if folder is None else Path(folder)
    card_path, weights = folder / f"{name}.card.json", folder / f"{name}.npz"
    card = _read_card(card_path)
    try:
        with np.load(weights, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except FileNotFoundError:
        raise ModelError(f"model file {weights} is missing") from None
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise ModelError(f"model file {weights} cannot be read: {error}") from None
    expected = card.get("arrays")
    found = {key: list(value.shape) for key, value in arrays.items()}
    if expected != found:
        raise ModelError(f"model file {weights} does not match its card {card_path}: "
                         f"the card lists {expected}, the file holds {found}")
    return LoadedModel(name, arrays, card, weights)


def _read_card(path: Path) -> dict:
    try:
        size = path.stat().st_size
        if size > MAX_CARD_BYTES:
            raise ModelError(f"model card {path} has {size} bytes, over {MAX_CARD_BYTES}")
        card = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"model card {path} is missing") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ModelError(f"model card {path} cannot be read: {error}") from None
    if not isinstance(card, dict) or card.get("format") != MODEL_FORMAT:
        found = card.get("format") if isinstance(card, dict) else type(card).__name__
        raise ModelError(f"model card {path} is of format {found!r}, expected {MODEL_FORMAT}")
    return card


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version()}
    for package in _VERSIONED:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue
    return found
